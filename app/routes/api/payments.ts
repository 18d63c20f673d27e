// GET /api/payments?page=N: the payment history, newest first, 20 a page (Administrator only). Amounts in pence.
import { z } from "zod";
import { apiHandler, parseQuery } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { listPayments } from "~/domain/billing/invoices.server";

const schema = z.object({ page: z.string().regex(/^[1-9][0-9]{0,5}$/).transform(Number).optional() });

const handler = apiHandler({
  GET: {
    permission: "subscription:change",
    handler: async ({ request, context, user }) => {
      const { page } = parseQuery(request, schema);
      const list = await listPayments(getDeps(context).db, user.businessId, page ?? 1);
      return {
        currency: "GBP",
        page: list.page,
        pageCount: list.pageCount,
        total: list.total,
        payments: list.rows.map((r) => ({
          invoiceNumber: r.invoiceNumber,
          date: r.date,
          description: r.description,
          amountExcludingVatPence: r.amountPence,
          companyDiscountPence: r.companyDiscountPence,
          referralDiscountPence: r.referralDiscountPence,
          creditPence: r.creditPence,
          vatPence: r.vatPence,
          totalPence: r.totalPence,
        })),
      };
    },
  },
});

export const loader = handler;
export const action = handler;
