// The provider webhooks' handling (Twilio's texts, Stripe's payments), on a transport-neutral RawWebhook: the server entry calls it straight from
// Node's request (no Fetch objects on this hot path), before Express and React Router.
import type { AppDeps } from "~/lib/context.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { handlePaymentEvent } from "~/domain/billing/payment-events.server";
import { PaymentProviderError } from "~/providers/payments/types";
import { answer, emptyAnswer, MAX_WEBHOOK_BYTES, readWebhook, type RawWebhook, type WebhookAnswer } from "~/lib/webhook.server";

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

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * POST /webhooks/stripe: Stripe's events about payments and refunds. 404 unless Stripe is the payment provider;
 * 405, 415 (JSON only), 413 over 64 kB; 400 for a missing, wrong or stale signature (checked over the raw body
 * by Stripe's library); 200 once the event is acted on, or was before (each event id once). A processor that
 * cannot be reached while acting on it answers 503, so Stripe sends the event again later.
 */
export async function handleStripeWebhook(raw: RawWebhook, deps: AppDeps): Promise<WebhookAnswer> {
  const { payments } = deps;
  if (payments.name !== "stripe" || !payments.verifyWebhook) return answer(404, "Not found");
  if (raw.method !== "POST") return answer(405, "Method not allowed", { Allow: "POST" });
  const type = (raw.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") return answer(415, "Expected JSON");
  if (!(Number(raw.contentLength ?? 0) <= MAX_WEBHOOK_BYTES) || !raw.body) return answer(413, "Request too large");
  let text: string;
  try {
    text = utf8.decode(raw.body);
  } catch {
    return answer(400, "Body is not UTF-8");
  }
  const event = payments.verifyWebhook(text, raw.stripeSignature ?? null);
  if (!event) return answer(400, "Invalid signature");
  try {
    const outcome = await handlePaymentEvent(deps.db, payments, deps.config.billing, event, deps.now());
    return { status: 200, headers: { "Content-Type": "application/json", "Cache-Control": "no-store" }, body: JSON.stringify({ received: true, outcome }) };
  } catch (error) {
    if (error instanceof PaymentProviderError) return answer(503, "Payment service unavailable; send again later");
    throw error;
  }
}
