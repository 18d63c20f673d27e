// CSRF protection for every state-changing form post. The token lives in an HttpOnly cookie and is echoed
// in a hidden field that <AppForm> adds; a post whose field does not match is refused (403).
//
// The token is signed with the session secret and tied to the session: "<random>.<HMAC(random, session)>",
// where the session is the SHA-256 of the session cookie when signed in, or "anonymous" for signed-out forms
// (login, sign-up). A token planted from elsewhere, or kept from before a sign-in or sign-out, does not verify
// and is replaced; when a response starts or ends a session, a token for the new state is set with it.
//
// JSON API routes, webhooks and the simulator's JSON are exempt: they are not form posts from pages
// (API clients use bearer tokens; cookies are SameSite=Lax so no other site can post with them).
import crypto from "node:crypto";
import { createContext, data, type MiddlewareFunction } from "react-router";
import { getDeps } from "./context.server";
import { randomToken, safeEqual, sha256 } from "./crypto.server";
import { readCookie } from "./cookies.server";

export const CSRF_FIELD = "_csrf";
export const CSRF_COOKIE = "tc_csrf";
/** The session cookie's name (kept here rather than imported, so that this module stands alone). */
const SESSION_COOKIE = "tc_session";
/**
 * The operator console (/ops) has its own session cookie, so its forms carry tokens tied to that session,
 * kept in a cookie of its own: a business tab and a console tab never overwrite each other's.
 */
const OPS_PREFIX = /^\/ops(\/|$)/;
const OPS_COOKIES = { session: "tc_ops", csrf: "tc_ops_csrf", path: "/" };
const APP_COOKIES = { session: SESSION_COOKIE, csrf: CSRF_COOKIE, path: "/" };
export const csrfContext = createContext<string>("");

const EXEMPT = [/^\/api(\/|$)/, /^\/webhooks\//, /^\/simulator\/api\//];
const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const SHAPE = /^[A-Za-z0-9_-]{32}\.[A-Za-z0-9_-]{43}$/;

function bindingOf(sessionToken: string | null): string {
  return sessionToken ? `session:${sha256(sessionToken)}` : "anonymous";
}

function sign(secret: string, nonce: string, binding: string): string {
  return crypto.createHmac("sha256", secret).update(`csrf|${nonce}|${binding}`).digest("base64url");
}

/** A new token for this session (or for signed-out pages). */
export function issueCsrfToken(secret: string, sessionToken: string | null): string {
  const nonce = randomToken(24);
  return `${nonce}.${sign(secret, nonce, bindingOf(sessionToken))}`;
}

/** True when the token was made by this server for this session. */
export function verifyCsrfToken(secret: string, token: string | null, sessionToken: string | null): boolean {
  if (!token || !SHAPE.test(token)) return false;
  const [nonce, mac] = token.split(".");
  return safeEqual(mac, sign(secret, nonce, bindingOf(sessionToken)));
}

function cookieHeader(names: typeof APP_COOKIES, token: string, secure: boolean): string {
  return `${names.csrf}=${token}; Path=${names.path}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=${60 * 60 * 24 * 30}`;
}

/**
 * The session a response leaves the browser with, when it changes it: the new token, null for a
 * sign-out, undefined when the response does not touch the session cookie.
 */
function sessionSetBy(response: Response, sessionCookie: string): string | null | undefined {
  let result: string | null | undefined;
  for (const c of response.headers.getSetCookie()) {
    if (!c.startsWith(`${sessionCookie}=`)) continue;
    const value = c.slice(sessionCookie.length + 1).split(";")[0].trim();
    result = value === "" || /;\s*max-age=0/i.test(c) ? null : value;
  }
  return result;
}

export function csrfMiddleware(): MiddlewareFunction<Response> {
  return async ({ request, context }, next) => {
    const { config } = getDeps(context);
    const secret = config.sessionSecret;
    const url = new URL(request.url);
    const names = OPS_PREFIX.test(url.pathname) ? OPS_COOKIES : APP_COOKIES;
    const sessionToken = readCookie(request, names.session);
    let token = readCookie(request, names.csrf);
    const fresh = !verifyCsrfToken(secret, token, sessionToken);
    if (fresh) token = issueCsrfToken(secret, sessionToken);
    context.set(csrfContext, token!);

    if (UNSAFE.has(request.method) && !EXEMPT.some((re) => re.test(url.pathname))) {
      let field: FormDataEntryValue | null = null;
      const type = request.headers.get("Content-Type") ?? "";
      if (type.includes("form")) {
        try {
          field = (await request.clone().formData()).get(CSRF_FIELD);
        } catch {
          field = null;
        }
      }
      if (fresh || typeof field !== "string" || !safeEqual(field, token!)) {
        // Shown by the error boundary as "this form has expired, please try again".
        throw data({ code: "CSRF" }, { status: 403 });
      }
    }

    const response = await next();
    const session = sessionSetBy(response, names.session);
    if (session !== undefined) {
      // Signed in or out by this response: the next form needs a token for the new state.
      response.headers.append("Set-Cookie", cookieHeader(names, issueCsrfToken(secret, session), config.production));
    } else if (fresh) {
      response.headers.append("Set-Cookie", cookieHeader(names, token!, config.production));
    }
    return response;
  };
}
