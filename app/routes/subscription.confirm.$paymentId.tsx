// /subscription/confirm/{paymentId}: where the bank's 3-D Secure page sends the owner back. The payment's outcome
// is asked of the payment provider (never taken from the address) and settled once; then back to /subscription
// with what happened.
import { data, redirect } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/subscription.confirm.$paymentId";
import { confirmPayment } from "~/domain/billing/subscription.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError, errorKey } from "~/lib/errors";

export const handle = { permission: "subscription:change" } as const;

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config, payments, now } = getDeps(context);
  const id = Number(params.paymentId);
  if (!/^\d{1,12}$/.test(params.paymentId ?? "")) throw data(null, { status: 404 });
  try {
    const outcome = await confirmPayment(db, payments, config.billing, user.businessId, id, now());
    if (outcome.status === "requires_action") return redirect(outcome.actionUrl);
    setToast(context, { type: "success", message: "billing.toast.paid" });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    setToast(context, { type: "error", message: errorKey(error.code) });
  }
  return redirect("/subscription");
}

// A page rather than a resource route, so that a team member who follows the link gets the FB001 page inside
// the app's shell; the loader always redirects, so there is nothing of its own to draw.
export default function ConfirmPayment() {
  return null;
}
