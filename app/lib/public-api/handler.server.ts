// The public API's request pipeline, the same for every /api/v1/ route:
//
//   1. the method's operation, or 405;
//   2. (before this, in the Express app: the key's rate limit, an in-memory token bucket per key hash, which
//      answers 429 RL001 with Retry-After without routing or database work and adds the RateLimit headers to
//      every answer; see rate-limit.server.ts and server/app.ts)
//   3. the API key from `Authorization: Bearer tc_live_…`: missing, malformed or a wrong checksum is 401 UA001
//      at once, without touching the database;
//   4. the key itself, looked up on every call (no cache): unknown, disabled, deleted or past its grace → 401 UA001;
//   5. the operation's scope against the key's permissions: 403 FB001;
//   6. path, query and body against the operation's zod schemas (strict): 404 NF001 for a bad id, 400 UA002
//      naming each unknown, missing or wrongly typed field;
//   7. for an idempotent POST with an Idempotency-Key, the stored answer of an earlier identical request, 422 ID001
//      for the same key with a different request, 409 ID002 while the first is still running;
//   8. the handler, with errors as the §8 envelope and never a stack trace.
import crypto from "node:crypto";
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { readBodyLimited } from "~/lib/body.server";
import { getDeps, type AppDeps } from "~/lib/context.server";
import { apiError, apiJson, apiNoContent, errorResponse, MAX_JSON_BYTES } from "~/lib/api.server";
import { AppError, type ErrorStatus } from "~/lib/errors";
import { authenticateApiKey, hasScope, type ApiKeyPrincipal } from "~/domain/apikeys/keys.server";
import { hashApiKey, isWellFormedApiKey } from "~/domain/apikeys/format.server";
import { abandonIdempotent, beginIdempotent, finishIdempotent } from "~/domain/apikeys/idempotency.server";
import type { HttpMethod, Operation } from "./operations";

export interface V1Args<Q = unknown, B = unknown> {
  request: Request;
  deps: AppDeps;
  key: ApiKeyPrincipal;
  params: Record<string, string>;
  query: Q;
  body: B;
  /** The Idempotency-Key header (idempotent operations only). */
  idempotencyKey: string | null;
}

/** A 201 answer with its Location. */
export class Created {
  constructor(
    readonly value: unknown,
    readonly location: string,
  ) {}
}

interface Entry<O extends Operation> {
  operation: O;
  handler: (args: V1Args<O["query"] extends z.ZodType ? z.output<O["query"]> : undefined, O["body"] extends z.ZodType ? z.output<O["body"]> : undefined>) => Promise<unknown>;
}

interface AnyEntry {
  operation: Operation;
  handler: (args: V1Args) => Promise<unknown>;
}

/** Pairs an operation with its handler, typing the handler's query and body from the operation's schemas. */
export function v1<O extends Operation>(operation: O, handler: Entry<O>["handler"]): AnyEntry {
  return { operation, handler: handler as AnyEntry["handler"] };
}

interface LoaderArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: Record<string, string | undefined>;
}

export type V1RouteHandler = ((args: LoaderArgs) => Promise<Response>) & { readonly scopes: Partial<Record<HttpMethod, string>> };

/** zod issues as UA002 entries, one per field (an unknown key names itself). */
function invalid(error: z.ZodError, prefix = ""): Response {
  const statuses: ErrorStatus[] = [];
  const seen = new Set<string>();
  for (const issue of error.issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join(".");
    const entries =
      issue.code === "unrecognized_keys"
        ? issue.keys.map((k) => ({ field: base ? `${base}.${k}` : k, reason: "unknownField" }))
        : [{ field: base || "body", reason: issue.code === "invalid_type" && issue.input === undefined ? "required" : issue.code }];
    for (const e of entries) {
      if (seen.has(e.field)) continue;
      seen.add(e.field);
      statuses.push({ responseCode: "UA002", data: e });
    }
  }
  return apiError("UA002", null, 400, { statuses });
}

const unauthorised = () => apiError("UA001", null, 401, { headers: { "WWW-Authenticate": 'Bearer realm="textcircle"' } });

/** Keys sorted at every level, so the same JSON body hashes the same however its keys were ordered. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}

async function readJson(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  const bad = (field: string, reason: string) => ({ ok: false as const, response: apiError("UA002", null, 400, { statuses: [{ responseCode: "UA002", data: { field, reason } }] }) });
  if (type !== "application/json") return bad("Content-Type", "notJson");
  const bytes = await readBodyLimited(request, MAX_JSON_BYTES, 4 * 1024 * 1024);
  if (!bytes) return bad("body", "tooLarge");
  try {
    return { ok: true, value: JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) };
  } catch {
    return bad("body", "notJson");
  }
}

const IDEMPOTENCY_KEY = /^[\x21-\x7E]{1,255}$/;

/** The route module's loader and action for a set of operations on one path. */
export function v1Route(entries: AnyEntry[]): V1RouteHandler {
  const byMethod = new Map(entries.map((e) => [e.operation.method, e]));
  const allow = [...byMethod.keys(), ...(byMethod.has("GET") ? ["HEAD"] : [])].join(", ");
  const scopes = Object.fromEntries(entries.map((e) => [e.operation.method, e.operation.scope]));

  const run = async ({ request, context, params }: LoaderArgs): Promise<Response> => {
    const deps = getDeps(context);
    const method = (request.method === "HEAD" ? "GET" : request.method.toUpperCase()) as HttpMethod;
    const entry = byMethod.get(method);
    if (!entry) return apiError("UA002", { method: request.method.slice(0, 20) }, 405, { headers: { Allow: allow } });
    const op = entry.operation;

    // The key's shape first: no lookup, no bucket for something that cannot be a key.
    const auth = request.headers.get("Authorization") ?? "";
    const secret = /^Bearer\s+(\S+)$/i.exec(auth)?.[1] ?? "";
    if (!isWellFormedApiKey(secret)) return unauthorised();
    const hash = hashApiKey(secret);

    // The Express app has already taken this request from the key's bucket and added the RateLimit headers.

    let reserved: number | null = null;
    try {
      const now = deps.now();
      let key: ApiKeyPrincipal | null;
      try {
        key = await authenticateApiKey(deps.db, secret, now, hash);
      } catch (error) {
        if (error instanceof AppError && error.code === "UA005") return apiError("UA005", null, 403);
        throw error;
      }
      if (!key) return unauthorised();
      if (!hasScope(key, op.scope)) return apiError("FB001", { scope: op.scope }, 403);

      const cleanParams: Record<string, string> = {};
      for (const [k, v] of Object.entries(params)) if (v !== undefined) cleanParams[k] = v;
      if (op.params && !op.params.safeParse(cleanParams).success) return apiError("NF001", null, 404);

      let query: unknown = undefined;
      if (op.query) {
        const values: Record<string, string> = {};
        const repeated: string[] = [];
        for (const [k, v] of new URL(request.url).searchParams) {
          if (k in values) repeated.push(k);
          values[k] = v;
        }
        if (repeated.length) return apiError("UA002", null, 400, { statuses: repeated.map((field) => ({ responseCode: "UA002", data: { field, reason: "repeated" } })) });
        const parsed = op.query.safeParse(values);
        if (!parsed.success) return invalid(parsed.error);
        query = parsed.data;
      }

      let body: unknown = undefined;
      let raw: unknown = undefined;
      if (op.body) {
        const read = await readJson(request);
        if (!read.ok) return read.response;
        raw = read.value;
        const parsed = op.body.safeParse(raw);
        if (!parsed.success) return invalid(parsed.error);
        body = parsed.data;
      }

      let idempotencyKey: string | null = null;
      if (op.idempotent) {
        const header = request.headers.get("Idempotency-Key");
        if (header !== null) {
          idempotencyKey = header.trim();
          if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
            return apiError("UA002", null, 400, { statuses: [{ responseCode: "UA002", data: { field: "Idempotency-Key", reason: "format" } }] });
          }
          const path = new URL(request.url).pathname;
          const requestHash = crypto.createHash("sha256").update(`${method} ${path}\n${canonical(raw ?? null)}`).digest("hex");
          const start = await beginIdempotent(deps.db, key.businessId, idempotencyKey, requestHash, now);
          if (start.state === "MISMATCH") return apiError("ID001", null, 422);
          if (start.state === "IN_PROGRESS") return apiError("ID002", null, 409, { headers: { "Retry-After": "1" } });
          if (start.state === "REPLAY") {
            const replayHeaders: Record<string, string> = { "Idempotent-Replayed": "true", ...(start.location ? { Location: start.location } : {}) };
            if (start.body === null) return apiNoContent(replayHeaders);
            return new Response(start.body, { status: start.status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...replayHeaders } });
          }
          reserved = start.id;
        }
      }

      const result = await entry.handler({ request, deps, key, params: cleanParams, query, body, idempotencyKey });
      let response: Response;
      let stored: { status: number; body: string | null; location: string | null };
      if (result instanceof Created) {
        const text = JSON.stringify(result.value);
        response = new Response(text, { status: 201, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Location: result.location } });
        stored = { status: 201, body: text, location: result.location };
      } else if (result === null || result === undefined) {
        response = apiNoContent();
        stored = { status: 204, body: null, location: null };
      } else {
        const text = JSON.stringify(result);
        response = apiJson(result);
        stored = { status: 200, body: text, location: null };
      }
      if (reserved !== null) {
        await finishIdempotent(deps.db, reserved, stored);
        reserved = null;
      }
      return response;
    } catch (error) {
      if (reserved !== null) await abandonIdempotent(deps.db, reserved).catch(() => undefined);
      if (error instanceof AppError && error.status === 404 && error.code !== "NF001") return apiError("NF001", null, 404);
      return errorResponse(error);
    }
  };
  return Object.assign(run, { scopes });
}
