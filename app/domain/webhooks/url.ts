// Which addresses a webhook endpoint may have. Everywhere: a valid absolute URL of at most 2,000 characters,
// without a user name or password in it. In production: https only, and never a host that is, or names, a
// private, loopback, link-local, unique-local or otherwise reserved address (the delivery agent checks the
// address a host name resolves to again at every connection). Outside production, http:// is also accepted for
// 127.0.0.1, ::1 and localhost, so a developer can point an endpoint at a receiver on their own machine.
import ipaddr from "ipaddr.js";

export const MAX_URL_LENGTH = 2000;

export type UrlProblem = "format" | "https" | "credentials" | "private";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "::1"]);
const INTERNAL_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa", ".lan"];

function bare(hostname: string): string {
  return hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
}

/** Whether a host (name or address) is obviously not on the public internet. */
export function isPrivateHost(hostname: string): boolean {
  const host = bare(hostname);
  if (LOOPBACK_NAMES.has(host) || INTERNAL_SUFFIXES.some((s) => host.endsWith(s)) || !host.includes(".") && !ipaddr.isValid(host)) return true;
  if (!ipaddr.isValid(host)) return false;
  const address = ipaddr.process(host);
  return address.range() !== "unicast";
}

/** The problem with an endpoint address, or null when it may be used. */
export function endpointUrlProblem(raw: string, options: { allowPrivate: boolean }): UrlProblem | null {
  const value = raw.trim();
  if (!value || value.length > MAX_URL_LENGTH) return "format";
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "format";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "https";
  if (!url.hostname) return "format";
  if (url.username || url.password) return "credentials";
  const host = bare(url.hostname);
  if (url.protocol === "http:" && !(options.allowPrivate && LOOPBACK_NAMES.has(host))) return "https";
  if (!options.allowPrivate && isPrivateHost(host)) return "private";
  return null;
}
