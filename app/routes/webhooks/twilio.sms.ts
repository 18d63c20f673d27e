// POST /webhooks/twilio/sms: a text sent to a business number (Twilio's inbound webhook).
// Signature checked over PUBLIC_URL (403), fields checked (400), the number must belong to a
// business (404); the text is stored once per MessageSid and answered with empty TwiML.
// The handling is in handlers.server.ts, which the server entry also calls straight from Node's request.
import type { Route } from "./+types/twilio.sms";
import { getDeps } from "~/lib/context.server";
import { handleSmsWebhook } from "./handlers.server";
import { notAllowed, rawFromRequest, toResponse } from "./webhook.server";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  return toResponse(await handleSmsWebhook(await rawFromRequest(request), getDeps(context)));
}

export function loader() {
  return notAllowed();
}
