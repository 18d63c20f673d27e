// GET /paymenthistory/{invoiceNumber}/invoice.pdf: one of the business's VAT invoices as a PDF download.
// Administrator only: a download has no page to show the FB001 page in, so a team member gets a plain 403 here;
// another business's invoice number is a plain 404.
import { data } from "react-router";
import type { Route } from "./+types/paymenthistory.invoice";
import { getInvoice, invoiceLabel, parseInvoiceNumber, renderInvoicePdf } from "~/domain/billing/invoices.server";
import { can } from "~/domain/accounts/permissions";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  if (!can(user, "subscription:change")) {
    return new Response("FB001: only your account administrator can see the invoices.", { status: 403, headers: { "Content-Type": "text/plain; charset=utf-8" } });
  }
  const n = parseInvoiceNumber(params.invoiceNumber ?? "");
  if (n === null) throw data(null, { status: 404 });
  const payment = await orNotFound(getInvoice(db, user.businessId, n));
  const pdf = await renderInvoicePdf(payment, config.billing.supplier, config.billing.vatRatePercent);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoiceLabel(n)}.pdf"`,
      "Cache-Control": "private, no-store",
    },
  });
}
