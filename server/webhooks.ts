// The Twilio webhooks' handling, on a transport-neutral RawWebhook: the server entry calls it straight from
// Node's request (no Fetch objects on this hot path), before Express and React Router.
import type { AppDeps } from "~/lib/context.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { answer, emptyAnswer, readWebhook, type RawWebhook, type WebhookAnswer } from "~/lib/webhook.server";

const EMPTY_TWIML: WebhookAnswer = {
  status: 200,
  headers: { "Content-Type": "text/xml; charset=utf-8", "Cache-Control": "no-store" },
  body: '<?xml version="1.0" encoding="UTF-8"?><Response/>',
};

/**
 * The checks both webhooks share: 404 unless Twilio is the provider, the 4xx answers of readWebhook, 403 for a
 * missing or wrong signature. The signed form fields when all pass.
 */
function signedFields(raw: RawWebhook, deps: AppDeps): { fields: Record<string, string | string[]> } | { refused: WebhookAnswer } {
  const { sms } = deps;
  if (sms.name !== "twilio" || !sms.verifyWebhook) return { refused: answer(404, "Not found") };
  const webhook = readWebhook(raw, deps);
  if (!("params" in webhook)) return { refused: webhook };
  if (!sms.verifyWebhook(webhook)) return { refused: answer(403, "Invalid signature") };
  return { fields: webhook.params };
}

/** POST /webhooks/twilio/sms: stores the text once per MessageSid; answers empty TwiML. */
export async function handleSmsWebhook(raw: RawWebhook, deps: AppDeps): Promise<WebhookAnswer> {
  const signed = signedFields(raw, deps);
  if ("refused" in signed) return signed.refused;
  const inbound = deps.sms.parseInbound?.(signed.fields);
  if (!inbound) return answer(400, "Missing or malformed fields");
  const result = await receiveInbound(deps, { ...inbound, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return answer(404, "Unknown number");
  return EMPTY_TWIML;
}

/** POST /webhooks/twilio/status: records each (message, status) once; answers 204. */
export async function handleStatusWebhook(raw: RawWebhook, deps: AppDeps): Promise<WebhookAnswer> {
  const signed = signedFields(raw, deps);
  if ("refused" in signed) return signed.refused;
  const report = deps.sms.parseStatus?.(signed.fields);
  if (!report) return answer(400, "Missing or malformed fields");
  const result = await recordDeliveryStatus(deps, { providerId: report.providerId, status: report.status, errorCode: report.errorCode, from: report.from, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return answer(404, "Unknown number");
  return emptyAnswer(204);
}
