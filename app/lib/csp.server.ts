// The Content-Security-Policy every page is served with. Scripts run only from this site or with the
// page's own nonce (a fresh random value per request, handed to React Router's inline scripts), never
// inline otherwise; nothing may frame the app; forms only post back to it.
import { createContext } from "react-router";
import { randomToken } from "./crypto.server";

export const nonceContext = createContext<string>("");

export function newNonce(): string {
  return randomToken(18);
}

export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "script-src-attr 'none'",
    "style-src 'self'",
    // Meters and charts size their bars with a style attribute; no style element is allowed.
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}
