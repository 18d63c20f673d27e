// POST /webhooks/twilio/status: Twilio's delivery status callback for a message we sent.
// Signature checked over PUBLIC_URL (403), fields checked (400), a sender number that no business
// owns is refused (404); each (message, status) is recorded once.
// The handling is in handlers.server.ts, which the server entry also calls straight from Node's request.
import type { Route } from "./+types/twilio.status";
import { getDeps } from "~/lib/context.server";
import { handleStatusWebhook } from "./handlers.server";
import { notAllowed, rawFromRequest, toResponse } from "./webhook.server";

export async function action({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return notAllowed();
  return toResponse(await handleStatusWebhook(await rawFromRequest(request), getDeps(context)));
}

export function loader() {
  return notAllowed();
}
