// GET /api/creditnotes/{number}/creditnote.pdf: one VAT credit note as a PDF (Administrator only). A number that
// is not the caller's is 404 NF001.
import { apiError, apiHandler } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { creditNoteLabel, getCreditNote, parseCreditNoteNumber, renderCreditNotePdf } from "~/domain/billing/credit-notes.server";

const handler = apiHandler({
  GET: {
    permission: "subscription:change",
    handler: async ({ params, context, user }) => {
      const n = parseCreditNoteNumber(params.number ?? "");
      if (n === null) return apiError("NF001", null, 404);
      const { db, config } = getDeps(context);
      const { note, payment } = await getCreditNote(db, user.businessId, n);
      const pdf = await renderCreditNotePdf(note, payment, config.billing.supplier, config.billing.vatRatePercent);
      return new Response(new Uint8Array(pdf), {
        headers: { "Content-Type": "application/pdf", "Content-Disposition": `attachment; filename="${creditNoteLabel(n)}.pdf"`, "Cache-Control": "private, no-store" },
      });
    },
  },
});

export const loader = handler;
export const action = handler;
