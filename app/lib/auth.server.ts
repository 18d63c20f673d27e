// Request-level authentication: the session cookie for pages, the bearer token or cookie for /api/.
import { createContext, redirect, type MiddlewareFunction, type RouterContextProvider } from "react-router";
import { getDeps } from "./context.server";
import { readCookie } from "./cookies.server";
import { createSession, deleteSession, findSessionUser, type SessionUser } from "~/domain/accounts/sessions.server";

export const SESSION_COOKIE = "tc_session";
export const userContext = createContext<SessionUser | null>(null);

export function sessionCookieHeader(token: string, expires: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Expires=${expires.toUTCString()}`;
}

export function clearSessionCookieHeader(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=0`;
}

/** The token from `Authorization: Bearer …`, else from the session cookie. */
export function requestToken(request: Request): string | null {
  const auth = request.headers.get("Authorization");
  if (auth) {
    const m = /^Bearer\s+([A-Za-z0-9_-]{16,128})$/i.exec(auth.trim());
    return m ? m[1] : null;
  }
  return readCookie(request, SESSION_COOKIE);
}

export async function getSessionUser(request: Request, context: Readonly<RouterContextProvider>): Promise<SessionUser | null> {
  const token = requestToken(request);
  if (!token) return null;
  const { db, now, config } = getDeps(context);
  return findSessionUser(db, token, now(), { idleMinutes: config.sessionIdleMinutes });
}

/** Starts a fresh web session (a new id at every login) and returns the Set-Cookie header. */
export async function startWebSession(context: Readonly<RouterContextProvider>, request: Request, userId: number, options: { adminAccess?: boolean } = {}): Promise<string> {
  const { db, now, config } = getDeps(context);
  const old = readCookie(request, SESSION_COOKIE);
  if (old) await deleteSession(db, old);
  const { token, expiresAt } = await createSession(db, userId, "WEB", now(), options);
  return sessionCookieHeader(token, expiresAt, config.production);
}

export async function endWebSession(context: Readonly<RouterContextProvider>, request: Request): Promise<string> {
  const { db, config } = getDeps(context);
  const token = readCookie(request, SESSION_COOKIE);
  if (token) await deleteSession(db, token);
  return clearSessionCookieHeader(config.production);
}

/**
 * Middleware for pages behind login: no valid session sends the browser to /login (and clears a
 * stale cookie, "on HTTP 401 any stored token is removed").
 */
export const requireUserMiddleware: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const user = await getSessionUser(request, context);
  if (!user) {
    const url = new URL(request.url);
    const to = url.pathname === "/" ? "/login" : `/login?redirectTo=${encodeURIComponent(url.pathname + url.search)}`;
    const headers = new Headers({ Location: to });
    if (readCookie(request, SESSION_COOKIE)) headers.append("Set-Cookie", clearSessionCookieHeader(getDeps(context).config.production));
    throw new Response(null, { status: 302, headers });
  }
  context.set(userContext, user);
  return next();
};

export function requireUser(context: Readonly<RouterContextProvider>): SessionUser {
  const user = context.get(userContext);
  if (!user) throw redirect("/login");
  return user;
}
