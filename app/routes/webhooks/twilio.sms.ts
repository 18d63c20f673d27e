// POST /webhooks/twilio/sms: a text sent to a business number (Twilio's inbound webhook).
// Signature checked over PUBLIC_URL (403), fields checked (400), the number must belong to a
// business (404); the text is stored once per MessageSid and answered with empty TwiML.
import type { Route } from "./+types/twilio.sms";
import { getDeps } from "~/lib/context.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { notAllowed, plain, readWebhook } from "./webhook.server";

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  const deps = getDeps(context);
  const { sms } = deps;
  if (sms.name !== "twilio" || !sms.verifyWebhook || !sms.parseInbound) return plain(404, "Not found");
  const webhook = await readWebhook(request, deps);
  if (webhook instanceof Response) return webhook;
  if (!sms.verifyWebhook(webhook)) return plain(403, "Invalid signature");
  const inbound = sms.parseInbound(webhook.params);
  if (!inbound) return plain(400, "Missing or malformed fields");
  const result = await receiveInbound(deps, { ...inbound, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return plain(404, "Unknown number");
  return new Response(EMPTY_TWIML, { status: 200, headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" } });
}

export function loader() {
  return notAllowed();
}
