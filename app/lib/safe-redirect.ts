// Where to send the browser after login (or any "come back here" link): only ever a path on this site.

/** C0 and C1 control characters, DEL, and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;
/** The same, percent-encoded ("%0a", "%0D", "%7f"). */
const ENCODED_CONTROL = /%(?:[01][0-9a-f]|7f)/i;

/**
 * The same-site path `value` names, or `fallback`. Accepted only when the raw value starts with a single
 * "/" (not "//" nor "/\"), holds no control character, raw or percent-encoded (a TAB or newline is
 * dropped by URL parsers and would turn "/\t/host" into "//host"), and resolves against `origin` to that very origin.
 */
export function safeRedirect(value: unknown, origin: string, fallback = "/"): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 2048) return fallback;
  if (!value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\") || CONTROL.test(value) || ENCODED_CONTROL.test(value)) return fallback;
  let base: URL;
  let target: URL;
  try {
    base = new URL(origin);
    target = new URL(value, base);
  } catch {
    return fallback;
  }
  if (target.origin !== base.origin) return fallback;
  const path = target.pathname + target.search + target.hash;
  // The normalised path must itself still be a single-slash path (e.g. "/./\\host" is not).
  return path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\") ? path : fallback;
}
