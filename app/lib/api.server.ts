// The /api/ toolkit: authentication for JSON clients, the error envelope, JSON bodies and
// queries validated with zod, and a handler wrapper that never lets an error escape as HTML or a stack.
//
//   const handler = apiHandler({
//     GET: async ({ request, context }) => {
//       const user = await requireApiUser(request, context);
//       return { total: 1 };            // a plain value is sent as JSON with 200; null/undefined gives 204
//     },
//   });
//   export const loader = handler;     // GET and HEAD
//   export const action = handler;     // every other method (answered 405 unless listed)
//
// A method that needs a permission declares it; the wrapper signs the caller in, answers 403 FB001
// when their role lacks it, and hands the handler the user:
//   apiHandler({ PUT: { permission: "settings:manage", handler: async ({ user, request }) => … } })
import type { RouterContextProvider } from "react-router";
import type { z } from "zod";
import { readBodyLimited } from "./body.server";
import { clearSessionCookieHeader, getSessionUser, SESSION_COOKIE } from "./auth.server";
import { getDeps } from "./context.server";
import { readCookie } from "./cookies.server";
import { AppError, envelope, httpStatusFor, type ErrorData, type ErrorStatus } from "./errors";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import { requirePermission, type Permission } from "~/domain/accounts/permissions";

/** Largest JSON body an /api/ route reads. */
export const MAX_JSON_BYTES = 64 * 1024;

export interface ApiArgs {
  request: Request;
  context: Readonly<RouterContextProvider>;
  params: Record<string, string | undefined>;
}

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ApiFn = (args: ApiArgs) => unknown;

/** A method that needs a permission: the caller is signed in and checked before `handler` runs. */
export interface ApiGuarded {
  permission: Permission;
  handler: (args: ApiArgs & { user: SessionUser }) => unknown;
}

export type ApiEntry = ApiFn | ApiGuarded;

/** The wrapped handler, with the permission each method declares (null: any signed-in caller, or public). */
export type ApiRouteHandler = ((args: ApiArgs) => Promise<Response>) & { readonly permissions: Partial<Record<ApiMethod, Permission | null>> };

const NO_STORE = { "Cache-Control": "no-store" };

/** A JSON answer that no shared cache keeps (every /api/ answer is about the signed-in account). */
export function apiJson(value: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  for (const [k, v] of Object.entries(NO_STORE)) if (!headers.has(k)) headers.set(k, v);
  return Response.json(value, { ...init, headers });
}

/** 204 No Content. */
export function apiNoContent(headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Cache-Control", "no-store");
  return new Response(null, { status: 204, headers: h });
}

/**
 * The error envelope as a Response: `throw apiError("BR025")`. The status defaults to the code's own
 * (httpStatusFor); `statuses` lists one entry per problem when there are several.
 */
export function apiError(code: string, data?: ErrorData | null, status?: number, options: { headers?: HeadersInit; statuses?: ErrorStatus[] } = {}): Response {
  return apiJson(envelope(code, data ?? null, options.statuses), { status: status ?? httpStatusFor(code), headers: options.headers });
}

/** BR025 (incorrect format) with one entry per offending field. */
export function badRequest(fields: string[] = []): Response {
  const unique = [...new Set(fields)];
  const statuses: ErrorStatus[] = unique.length ? unique.map((field) => ({ responseCode: "BR025", data: { field } })) : [{ responseCode: "BR025" }];
  return apiError("BR025", null, 400, { statuses });
}

/**
 * The signed-in user for an /api/ call, from `Authorization: Bearer <token>` or the session cookie.
 * Nothing sent: 401 UA002. Something sent that is not a live session: 401 UA001, and the session
 * cookie is cleared (on 401 any stored token is removed).
 */
export async function requireApiUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser> {
  const sent = request.headers.has("Authorization") || readCookie(request, SESSION_COOKIE) !== null;
  if (!sent) throw apiError("UA002");
  const user = await getSessionUser(request, context);
  if (!user) {
    throw apiError("UA001", null, 401, { headers: { "Set-Cookie": clearSessionCookieHeader(getDeps(context).config.production) } });
  }
  return user;
}

/** Field paths of zod issues, for errorStatuses ("" for the body as a whole). */
function issueFields(error: z.ZodError): string[] {
  return error.issues.map((i) => i.path.map(String).join(".")).filter((f) => f !== "");
}

/** Bytes of an oversized body read and thrown away, so the client gets the answer instead of a reset. */
const MAX_DRAIN_BYTES = 4 * 1024 * 1024;

/**
 * A JSON body checked against a zod schema. A wrong content type, a body over 64 kB, bytes that
 * are not UTF-8, malformed JSON or values of the wrong type all throw a 400 BR025 envelope
 * (with one errorStatuses entry per bad field where the schema can tell).
 */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(type)) throw badRequest(["contentType"]);
  const bytes = await readBodyLimited(request, MAX_JSON_BYTES, MAX_DRAIN_BYTES);
  if (!bytes) throw badRequest(["body"]);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw badRequest(["body"]);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw badRequest(issueFields(parsed.error));
  return parsed.data;
}

/**
 * The query string checked against a zod schema (values are strings; a parameter given twice is
 * refused). Bad input throws a 400 BR025 envelope naming the parameters.
 */
export function parseQuery<S extends z.ZodType>(request: Request, schema: S): z.output<S> {
  const params = new URL(request.url).searchParams;
  const values: Record<string, string> = {};
  const repeated: string[] = [];
  for (const [k, v] of params) {
    if (k in values) repeated.push(k);
    values[k] = v;
  }
  if (repeated.length) throw badRequest(repeated);
  const parsed = schema.safeParse(values);
  if (!parsed.success) throw badRequest(issueFields(parsed.error));
  return parsed.data;
}

/** Turns anything a handler threw into a Response: envelopes for AppError, 500 SE001 otherwise. */
export function errorResponse(error: unknown): Response {
  if (error instanceof Response) return error;
  if (error instanceof AppError) {
    const data = error.data ?? null;
    const entry: ErrorStatus = { responseCode: error.code };
    if (data || error.field) entry.data = { ...(data ?? {}), ...(error.field ? { field: error.field } : {}) };
    return apiError(error.code, data, error.status, { statuses: [entry] });
  }
  // Unexpected: logged for the operator, never shown (no message or stack in the body).
  console.error("[api] unexpected error:", error);
  return apiError("SE001", null, 500);
}

/**
 * Wraps /api/ handlers, one per HTTP method (a bare function answers GET). HEAD is served by GET.
 * Other methods get a 405 envelope with an Allow header. A method given as { permission, handler }
 * answers 401 without a valid caller and 403 FB001 when the caller's role lacks the permission.
 */
export function apiHandler(handlers: ApiFn | Partial<Record<ApiMethod, ApiEntry>>): ApiRouteHandler {
  const map: Partial<Record<ApiMethod, ApiEntry>> = typeof handlers === "function" ? { GET: handlers } : handlers;
  const allowed = Object.keys(map) as ApiMethod[];
  const allow = [...allowed, ...(map.GET ? ["HEAD"] : [])].join(", ");
  const permissions: Partial<Record<ApiMethod, Permission | null>> = {};
  for (const m of allowed) {
    const entry = map[m];
    permissions[m] = entry && typeof entry !== "function" ? entry.permission : null;
  }
  const run = async (args: ApiArgs): Promise<Response> => {
    try {
      const method = (args.request.method === "HEAD" ? "GET" : args.request.method.toUpperCase()) as ApiMethod;
      const entry = map[method];
      if (!entry) return apiError("BR025", { method: args.request.method.slice(0, 20) }, 405, { headers: { Allow: allow } });
      let result: unknown;
      if (typeof entry === "function") {
        result = await entry(args);
      } else {
        const user = await requireApiUser(args.request, args.context);
        requirePermission(user, entry.permission);
        result = await entry.handler({ ...args, user });
      }
      if (result instanceof Response) return result;
      if (result === undefined || result === null) return apiNoContent();
      return apiJson(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
  return Object.assign(run, { permissions });
}
