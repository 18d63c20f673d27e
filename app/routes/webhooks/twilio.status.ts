// POST /webhooks/twilio/status: Twilio's delivery status callback for a message we sent.
// Signature checked over PUBLIC_URL (403), fields checked (400), a sender number that no business
// owns is refused (404); each (message, status) is recorded once.
// A POST never reaches this module: the server entry (server.js, and createApp's Express app) answers it with
// server/webhooks.ts before React Router. The route exists so that every other method gets a 405.
import type { Route } from "./+types/twilio.status";
import { notAllowed } from "~/lib/webhook.server";

export function action(_args: Route.ActionArgs) {
  return notAllowed();
}

export function loader() {
  return notAllowed();
}
