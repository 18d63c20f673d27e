// GET /paymenthistory/creditnotes/{number}/creditnote.pdf: one of the business's VAT credit notes as a PDF
// download. Administrator only, like the invoices: a team member gets a plain 403, another business's credit
// note number a plain 404.
import { data } from "react-router";
import type { Route } from "./+types/paymenthistory.creditnote";
import { creditNoteLabel, getCreditNote, parseCreditNoteNumber, renderCreditNotePdf } from "~/domain/billing/credit-notes.server";
import { can } from "~/domain/accounts/permissions";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  if (!can(user, "subscription:change")) {
    return new Response("FB001: only your account administrator can see the credit notes.", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const n = parseCreditNoteNumber(params.number ?? "");
  if (n === null) throw data(null, { status: 404 });
  const { note, payment } = await orNotFound(getCreditNote(db, user.businessId, n));
  const pdf = await renderCreditNotePdf(note, payment, config.billing.supplier, config.billing.vatRatePercent);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${creditNoteLabel(n)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
