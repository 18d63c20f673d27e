// Shared plumbing of the provider webhooks: read a form body safely (size via ~/lib/body.server, encoding), build the
// public URL a signature covers, and the small plain answers webhooks give.
import { readBodyLimited } from "~/lib/body.server";
import type { AppDeps } from "~/lib/context.server";
import type { WebhookRequest } from "~/providers/sms/types";

/** Provider webhooks are small; anything bigger is refused before it is read. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

export function plain(status: number, text: string, headers: HeadersInit = {}): Response {
  return new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", ...headers } });
}

export const notAllowed = () => plain(405, "Method not allowed", { Allow: "POST" });

/** Strict application/x-www-form-urlencoded parsing: malformed percent-encoding or UTF-8 is an error, not U+FFFD. */
export function parseForm(text: string): Record<string, string | string[]> | null {
  const out: Record<string, string | string[]> = {};
  if (text === "") return out;
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const eq = pair.indexOf("=");
    let key: string;
    let value: string;
    try {
      key = decodeURIComponent((eq < 0 ? pair : pair.slice(0, eq)).replace(/\+/g, " "));
      value = eq < 0 ? "" : decodeURIComponent(pair.slice(eq + 1).replace(/\+/g, " "));
    } catch {
      return null;
    }
    if (key === "__proto__" || key === "constructor" || key === "prototype") continue;
    const prev = Object.prototype.hasOwnProperty.call(out, key) ? out[key] : undefined;
    out[key] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

/**
 * The webhook as the provider signed it, or the 4xx answer to give: 415 for another content type,
 * 413 over 64 kB, 400 for bytes that are not UTF-8 or a malformed form.
 */
export async function readWebhook(request: Request, deps: Pick<AppDeps, "config">): Promise<WebhookRequest | Response> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return plain(415, "Expected a form post");
  const length = Number(request.headers.get("Content-Length") ?? 0);
  if (!(length <= MAX_WEBHOOK_BYTES)) return plain(413, "Request too large");
  const bytes = await readBodyLimited(request, MAX_WEBHOOK_BYTES);
  if (!bytes) return plain(413, "Request too large");
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return plain(400, "Body is not UTF-8");
  }
  const params = parseForm(text);
  if (!params) return plain(400, "Malformed form body");
  const url = new URL(request.url);
  return {
    // Signatures cover the URL Twilio was given, which is built on PUBLIC_URL: never trust the Host header.
    url: `${deps.config.publicUrl}${url.pathname}${url.search}`,
    signature: request.headers.get("X-Twilio-Signature"),
    params,
  };
}
