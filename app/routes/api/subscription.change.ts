// POST /api/subscription/change {kind, plan}: increase now, increase for this month only, or lower at renewal,
// paid with the card on file. Administrator only (403 FB001). Activating a plan needs a card, so it is done on
// /subscription. A card that needs 3-D Secure answers 202 with the address where the owner confirms it.
import { z } from "zod";
import { apiError, apiHandler, apiJson, parseJsonBody } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { changeSubscription } from "~/domain/billing/subscription.server";
import { invoiceLabel } from "~/domain/billing/invoices.server";

const schema = z.object({ kind: z.enum(["increase", "month", "lower"]), plan: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/) });

const handler = apiHandler({
  POST: {
    permission: "subscription:change",
    handler: async ({ request, context, user }) => {
      const body = await parseJsonBody(request, schema);
      const { db, config, payments, now } = getDeps(context);
      const outcome = await changeSubscription(
        db,
        payments,
        config.billing,
        { businessId: user.businessId, businessName: user.companyName, kind: body.kind, planId: body.plan, returnUrl: "/subscription/confirm/{id}" },
        now(),
      );
      if (outcome.status === "scheduled") return { status: "scheduled", effectiveAt: outcome.effectiveAt };
      if (outcome.status === "requires_action") return apiJson({ status: "requires_action", actionUrl: `${config.publicUrl}${outcome.actionUrl}` }, { status: 202 });
      const paid = await db.selectFrom("payments").select("invoice_number").where("id", "=", outcome.paymentId).executeTakeFirst();
      if (!paid?.invoice_number) return apiError("SE001", null, 500);
      return { status: "paid", invoiceNumber: invoiceLabel(paid.invoice_number) };
    },
  },
});

export const loader = handler;
export const action = handler;
