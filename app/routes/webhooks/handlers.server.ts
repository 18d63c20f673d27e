// The Twilio webhooks' handling, on a transport-neutral RawWebhook: the route actions call it with a
// Fetch Request read into one, and the server entry calls it straight from Node's request (no Fetch
// objects on this hot path).
import type { AppDeps } from "~/lib/context.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { answer, emptyAnswer, readWebhook, type RawWebhook, type WebhookAnswer } from "./webhook.server";

const EMPTY_TWIML: WebhookAnswer = {
  status: 200,
  headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" },
  body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
};

/** POST /webhooks/twilio/sms: stores the text once per MessageSid; answers empty TwiML. */
export async function handleSmsWebhook(raw: RawWebhook, deps: AppDeps): Promise<WebhookAnswer> {
  const { sms } = deps;
  if (sms.name !== "twilio" || !sms.verifyWebhook || !sms.parseInbound) return answer(404, "Not found");
  const webhook = readWebhook(raw, deps);
  if (!("params" in webhook)) return webhook;
  if (!sms.verifyWebhook(webhook)) return answer(403, "Invalid signature");
  const inbound = sms.parseInbound(webhook.params);
  if (!inbound) return answer(400, "Missing or malformed fields");
  const result = await receiveInbound(deps, { ...inbound, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return answer(404, "Unknown number");
  return EMPTY_TWIML;
}

/** POST /webhooks/twilio/status: records each (message, status) once; answers 204. */
export async function handleStatusWebhook(raw: RawWebhook, deps: AppDeps): Promise<WebhookAnswer> {
  const { sms } = deps;
  if (sms.name !== "twilio" || !sms.verifyWebhook || !sms.parseStatus) return answer(404, "Not found");
  const webhook = readWebhook(raw, deps);
  if (!("params" in webhook)) return webhook;
  if (!sms.verifyWebhook(webhook)) return answer(403, "Invalid signature");
  const report = sms.parseStatus(webhook.params);
  if (!report) return answer(400, "Missing or malformed fields");
  const result = await recordDeliveryStatus(deps, { providerId: report.providerId, status: report.status, errorCode: report.errorCode, from: report.from, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return answer(404, "Unknown number");
  return emptyAnswer(204);
}
