// POST /webhooks/twilio/sms: a text sent to a business number (Twilio's inbound webhook).
// Signature checked over PUBLIC_URL (403), fields checked (400), the number must belong to a
// business (404); the text is stored once per MessageSid and answered with empty TwiML.
// A POST never reaches this module: the server entry (server.js, and createApp's Express app) answers it with
// server/webhooks.ts before React Router. The route exists so that every other method gets a 405.
import type { Route } from "./+types/twilio.sms";
import { notAllowed } from "~/lib/webhook.server";

export function action(_args: Route.ActionArgs) {
  return notAllowed();
}

export function loader() {
  return notAllowed();
}
