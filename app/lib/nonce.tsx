// The Content-Security-Policy nonce of the page being rendered, for the few inline scripts React Router
// writes (hydration data, scroll restoration). Set on the server by entry.server; empty in the browser,
// which hides nonces from the page anyway.
import { createContext, useContext } from "react";

export const NonceContext = createContext("");

export function useNonce(): string {
  return useContext(NonceContext);
}
