// GET /api/payments/{invoiceNumber}/invoice.pdf: one VAT invoice as a PDF (Administrator only). An invoice
// number that is not the caller's is 404 NF001.
import { apiError, apiHandler } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getInvoice, invoiceLabel, parseInvoiceNumber, renderInvoicePdf } from "~/domain/billing/invoices.server";

const handler = apiHandler({
  GET: {
    permission: "subscription:change",
    handler: async ({ params, context, user }) => {
      const n = parseInvoiceNumber(params.invoiceNumber ?? "");
      if (n === null) return apiError("NF001", null, 404);
      const { db, config } = getDeps(context);
      const payment = await getInvoice(db, user.businessId, n);
      const pdf = await renderInvoicePdf(payment, config.billing.supplier, config.billing.vatRatePercent);
      return new Response(new Uint8Array(pdf), {
        headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${invoiceLabel(n)}.pdf"`, "Cache-Control": "private, no-store" },
      });
    },
  },
});

export const loader = handler;
export const action = handler;
