// The toast cookie: remix-toast carries a one-time message (a "flash") across a redirect in a signed cookie.
// Its middleware reads that cookie on every page and signs a fresh, empty one each time, even though the
// result is only sent when the request brought a toast. An empty session always signs to the same cookie,
// so that one is signed once and reused. The storage is the one remix-toast's own helpers use: same name,
// same secret.
import { createCookieSessionStorage, type SessionStorage } from "react-router";
import { setToastCookieOptions } from "remix-toast";

const BASE = { name: "toast-session", sameSite: "lax" as const, path: "/", httpOnly: true };

// remix-toast's defaults until the app configures the secret (createApp does, before serving).
let storage: SessionStorage = createCookieSessionStorage({ cookie: { ...BASE, secrets: ["s3Cr3t"] } });
let emptyCookie: Promise<string> | null = null;

export function configureToastCookie({ secret, secure }: { secret: string; secure: boolean }): void {
  const cookie = { ...BASE, secrets: [secret], secure };
  setToastCookieOptions(cookie);
  storage = createCookieSessionStorage({ cookie });
  emptyCookie = null;
}

/** Given to remix-toast's middleware in place of its own storage. */
export const toastSessionStorage: SessionStorage = {
  getSession: (cookieHeader, options) => storage.getSession(cookieHeader, options),
  commitSession(session, options) {
    if (options === undefined && Object.keys(session.data).length === 0) return (emptyCookie ??= storage.commitSession(session));
    return storage.commitSession(session, options);
  },
  destroySession: (session, options) => storage.destroySession(session, options),
};
