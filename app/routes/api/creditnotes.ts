// GET /api/creditnotes?page=N: the VAT credit notes (one per refund), newest first, 20 a page (Administrator
// only). Amounts in pence; each names the invoice it credits.
import { z } from "zod";
import { apiHandler, parseQuery } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { listCreditNotes } from "~/domain/billing/credit-notes.server";

const schema = z.object({ page: z.string().regex(/^[1-9][0-9]{0,5}$/).transform(Number).optional() });

const handler = apiHandler({
  GET: {
    permission: "subscription:change",
    handler: async ({ request, context, user }) => {
      const { page } = parseQuery(request, schema);
      const list = await listCreditNotes(getDeps(context).db, user.businessId, page ?? 1);
      return {
        currency: "GBP",
        page: list.page,
        pageCount: list.pageCount,
        total: list.total,
        creditNotes: list.rows.map((r) => ({
          creditNoteNumber: r.number,
          date: r.date,
          invoiceNumber: r.invoiceNumber,
          reason: r.reason,
          amountExcludingVatPence: r.netPence,
          vatPence: r.vatPence,
          totalPence: r.totalPence,
        })),
      };
    },
  },
});

export const loader = handler;
export const action = handler;
