// POST /webhooks/twilio/status: Twilio's delivery status callback for a message we sent.
// Signature checked over PUBLIC_URL (403), fields checked (400), a sender number that no business
// owns is refused (404); each (message, status) is recorded once.
import type { Route } from "./+types/twilio.status";
import { getDeps } from "~/lib/context.server";
import { recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { notAllowed, plain, readWebhook } from "./webhook.server";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  const deps = getDeps(context);
  const { sms } = deps;
  if (sms.name !== "twilio" || !sms.verifyWebhook || !sms.parseStatus) return plain(404, "Not found");
  const webhook = await readWebhook(request, deps);
  if (webhook instanceof Response) return webhook;
  if (!sms.verifyWebhook(webhook)) return plain(403, "Invalid signature");
  const report = sms.parseStatus(webhook.params);
  if (!report) return plain(400, "Missing or malformed fields");
  const result = await recordDeliveryStatus(deps, { providerId: report.providerId, status: report.status, errorCode: report.errorCode, from: report.from, receivedAt: deps.now() });
  if (result.outcome === "unknown-number") return plain(404, "Unknown number");
  return new Response(null, { status: 204, headers: { "Cache-Control": "no-store" } });
}

export function loader() {
  return notAllowed();
}
