// The error catalogue. Shared by server and browser: codes, their HTTP status, and the envelope.

/** Codes with a message of their own (see locales errors.json). */
export const ERROR_CODES = [
  "SU001", "BR005", "BR006", "BR007", "BR008", "BR010", "BR011", "BR012", "BR013", "BR014", "BR015",
  "BR017", "BR018", "BR019", "BR020", "BR021", "BR022", "BR023", "BR025", "BR026", "BR027", "BR028",
  "BR031", "BR033", "BR034", "BR036", "BR038", "BR039", "BR040", "BR041", "BR042", "BR043", "BR045",
  "BR049", "BR050", "UA001", "UA002", "UA003", "UA004", "UA005", "FB001", "NF002", "NF003",
  // billing: payments and plan changes
  "PY001", "PY002", "PY003", "PY004", "PY005", "PY006", "PY007", "PY008", "PY009",
  // the public API: an Idempotency-Key reused with another request, or still in use; a key's rate limit
  "ID001", "ID002", "RL001",
] as const;

/** Codes that show the generic message. */
export const GENERIC_CODES = [
  "SE001", "BR001", "BR002", "BR003", "BR004", "BR009", "BR016", "BR024", "BR029", "BR030", "BR032",
  "BR035", "BR037", "BR046", "BR047", "BR048", "NF001",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number] | (typeof GENERIC_CODES)[number];
export type ErrorData = Record<string, string | number>;

export interface ErrorStatus {
  responseCode: string;
  data?: ErrorData;
}

/** The error envelope: responseCode, data and errorStatuses. */
export interface ErrorEnvelope {
  responseCode: string;
  data: ErrorData | null;
  errorStatuses: ErrorStatus[];
}

/** A business-rule failure the user should see, carrying an error code and placeholder data. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly data: ErrorData | undefined;
  readonly status: number;
  readonly field: string | undefined;
  constructor(code: ErrorCode, data?: ErrorData, options: { status?: number; field?: string } = {}) {
    super(code);
    this.name = "AppError";
    this.code = code;
    this.data = data;
    this.status = options.status ?? httpStatusFor(code);
    this.field = options.field;
  }
}

export function httpStatusFor(code: string): number {
  if (code === "UA001" || code === "UA002" || code === "UA003") return 401;
  if (code === "UA004" || code === "UA005" || code === "FB001") return 403;
  if (code.startsWith("NF")) return 404;
  if (code === "PY001" || code === "PY002") return 402;
  if (code === "PY007") return 503;
  if (code === "SE001") return 500;
  if (code === "SU001") return 502;
  if (code === "BR018" || code === "BR019" || code === "BR020" || code === "BR021" || code === "BR045") return 409;
  return 400;
}

export function envelope(code: string, data?: ErrorData | null, statuses?: ErrorStatus[]): ErrorEnvelope {
  return {
    responseCode: code,
    data: data ?? null,
    errorStatuses: statuses ?? [{ responseCode: code, ...(data ? { data } : {}) }],
  };
}

const KNOWN = new Set<string>(ERROR_CODES);

/** The i18n key for a code: its own message, or the generic one, never a raw code. */
export function errorKey(code: string | undefined | null): string {
  if (!code) return "errors.unknown";
  return KNOWN.has(code) ? `errors.${code}` : "errors.generic";
}
