// Webhook signatures, as the Standard Webhooks specification defines them (standardwebhooks.com):
//
//   webhook-id:        the event's id (msg_…), the same on every retry, so a receiver can drop duplicates
//   webhook-timestamp: seconds since the epoch when this attempt was signed
//   webhook-signature: "v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>", space-separated when the
//                      business rolled its secret recently and the old one still signs beside the new
//
// The secret is "whsec_" followed by 32 random bytes in base64. The HMAC itself comes from the specification's
// own library (`standardwebhooks`); this module adds the tolerance check with a clock that can be given, and the
// several-signatures rule, so receivers written in TypeScript can use `verifyWebhook` as it is.
import crypto from "node:crypto";
import { Webhook } from "standardwebhooks";

export const SECRET_PREFIX = "whsec_";
/** A signature older or newer than this is refused, so a captured request cannot be replayed later. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60;

/** A new signing secret: whsec_ and 32 random bytes in base64 (256 bits). */
export function generateSecret(): string {
  return `${SECRET_PREFIX}${crypto.randomBytes(32).toString("base64")}`;
}

export type SignedHeaders = {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
};

/** The three headers for one attempt, signed with each secret given (the current one first). */
export function signWebhook(secrets: readonly string[], id: string, body: string, at: Date): SignedHeaders {
  const signatures = secrets.map((s) => new Webhook(s).sign(id, at, body));
  return { "webhook-id": id, "webhook-timestamp": String(Math.floor(at.getTime() / 1000)), "webhook-signature": signatures.join(" ") };
}

export type VerifyFailure = "missing-headers" | "bad-timestamp" | "too-old" | "too-new" | "bad-signature";

export class WebhookSignatureError extends Error {
  readonly reason: VerifyFailure;
  constructor(reason: VerifyFailure) {
    super(`webhook signature refused: ${reason}`);
    this.name = "WebhookSignatureError";
    this.reason = reason;
  }
}

function header(headers: Headers | Record<string, string | string[] | undefined>, name: string): string | null {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * Checks a delivery as a receiver would: the body exactly as received (the raw text, before any JSON parsing),
 * the request's headers and the secret from the webhooks page. Throws WebhookSignatureError when a header is
 * missing, the timestamp is more than `toleranceSeconds` from `now` (a replay), or no v1 signature matches (a
 * forgery, or a body changed on the way). Returns the parsed event otherwise.
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  body: string,
  headers: Headers | Record<string, string | string[] | undefined>,
  options: { now?: Date; toleranceSeconds?: number } = {},
): T {
  const id = header(headers, "webhook-id");
  const timestamp = header(headers, "webhook-timestamp");
  const signature = header(headers, "webhook-signature");
  if (!id || !timestamp || !signature) throw new WebhookSignatureError("missing-headers");
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookSignatureError("bad-timestamp");
  const seconds = Number(timestamp);
  const nowSeconds = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (nowSeconds - seconds > tolerance) throw new WebhookSignatureError("too-old");
  if (seconds - nowSeconds > tolerance) throw new WebhookSignatureError("too-new");
  const expected = Buffer.from(new Webhook(secret).sign(id, new Date(seconds * 1000), body).slice(3), "utf8");
  const matches = signature.split(" ").some((candidate) => {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "utf8");
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
  if (!matches) throw new WebhookSignatureError("bad-signature");
  return JSON.parse(body) as T;
}
