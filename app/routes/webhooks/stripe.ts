// POST /webhooks/stripe: Stripe's signed events about payments and refunds (see server/webhooks.ts).
// A POST never reaches this module: the server entry (server.js, and createApp's Express app) answers it
// before React Router. The route exists so that every other method gets a 405.
import type { Route } from "./+types/stripe";
import { notAllowed } from "~/lib/webhook.server";

export function action(_args: Route.ActionArgs) {
  return notAllowed();
}

export function loader() {
  return notAllowed();
}
