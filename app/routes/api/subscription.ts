// GET /api/subscription: the caller's plan (both roles may read it). Amounts are whole pence, excluding VAT.
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { subscriptionView } from "~/domain/billing/subscription.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, config, now } = getDeps(context);
    const v = await subscriptionView(db, user.businessId, config.billing, now());
    const plan = (p: { id: string; allowance: number; pricePence: number } | null) => (p ? { id: p.id, allowance: p.allowance, pricePence: p.pricePence } : null);
    return {
      status: v.status,
      currency: "GBP",
      plan: plan(v.plan),
      allowance: v.allowance,
      used: v.used,
      remaining: v.remaining,
      nextPaymentDate: v.nextPaymentDate,
      nextPlan: plan(v.nextPlan),
      discount: v.discount,
      sendingStopped: v.sendingStopped,
      trial: v.status === "TRIAL" ? { creditsRemaining: v.trial.creditsRemaining, endsAt: v.trial.endsAt, ended: v.trial.ended } : null,
    };
  },
});

export const loader = handler;
export const action = handler;
