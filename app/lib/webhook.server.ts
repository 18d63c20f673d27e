// Shared plumbing of the provider webhooks: read a form body safely (size via ~/lib/body.server, encoding), build the
// public URL a signature covers, and the small plain answers webhooks give.
import type { AppDeps } from "~/lib/context.server";
import type { WebhookRequest } from "~/providers/sms/types";

/** Provider webhooks are small; anything bigger is refused before it is read. */
export const MAX_WEBHOOK_BYTES = 64 * 1024;

export const notAllowed = () => toResponse(notAllowedAnswer());

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

/** A webhook as it came off the wire (read from Node's request by the server entry). */
export interface RawWebhook {
  method: string;
  contentType: string | null;
  contentLength: string | null;
  signature: string | null;
  /** Stripe's Stripe-Signature header, when sent. */
  stripeSignature?: string | null;
  /** Path and query string of the request, e.g. `/webhooks/twilio/sms?x=1`. */
  pathAndQuery: string;
  /** The body, or null when it was longer than MAX_WEBHOOK_BYTES. */
  body: Uint8Array | null;
}

/** A webhook's answer, whatever carries it back. */
export interface WebhookAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

const NO_STORE = { "Cache-Control": "no-store" };
export const answer = (status: number, text: string, headers: Record<string, string> = {}): WebhookAnswer => ({
  status,
  headers: { "Content-Type": "text/plain; charset=utf-8", ...NO_STORE, ...headers },
  body: text,
});
export const emptyAnswer = (status: number): WebhookAnswer => ({ status, headers: { ...NO_STORE }, body: null });
const notAllowedAnswer = () => answer(405, "Method not allowed", { Allow: "POST" });

/**
 * The webhook as the provider signed it, or the 4xx answer to give: 405 for another method, 415 for
 * another content type, 413 over 64 kB, 400 for bytes that are not UTF-8 or a malformed form.
 */
export function readWebhook(raw: RawWebhook, deps: Pick<AppDeps, "config">): WebhookRequest | WebhookAnswer {
  if (raw.method !== "POST") return notAllowedAnswer();
  const type = (raw.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return answer(415, "Expected a form post");
  const length = Number(raw.contentLength ?? 0);
  if (!(length <= MAX_WEBHOOK_BYTES) || !raw.body) return answer(413, "Request too large");
  let text: string;
  try {
    text = utf8.decode(raw.body);
  } catch {
    return answer(400, "Body is not UTF-8");
  }
  const params = parseForm(text);
  if (!params) return answer(400, "Malformed form body");
  return {
    // Signatures cover the URL Twilio was given, which is built on PUBLIC_URL: never trust the Host header.
    url: `${deps.config.publicUrl}${raw.pathAndQuery}`,
    signature: raw.signature,
    params,
  };
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function toResponse(a: WebhookAnswer): Response {
  return new Response(a.body, { status: a.status, headers: a.headers });
}
