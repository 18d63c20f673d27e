// /paymenthistory: every payment with its VAT invoice (a PDF to download), every refund with its VAT credit note
// (a PDF too, naming the invoice it credits), and the address and VAT number the
// invoices are made out to. Administrator only.
import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/paymenthistory";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { getBillingDetails, listPayments, saveBillingDetails } from "~/domain/billing/invoices.server";
import { listCreditNotes } from "~/domain/billing/credit-notes.server";
import { formatBillingDate, formatPounds } from "~/domain/billing/money";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export const handle = { titleKey: "billing.history.metaTitle", descriptionKey: "billing.history.metaDescription", permission: "subscription:change" } as const;

const CONTROL = /[\u0000-\u0009\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const detailsSchema = z.object({
  address: z
    .string()
    .max(400, "validation.tooLongLong")
    .refine((v) => !CONTROL.test(v), "validation.controlChars")
    .optional()
    .transform((v) => v ?? ""),
  vatNumber: z
    .string()
    .trim()
    .max(20, "billing.errors.vatNumber")
    .refine((v) => v === "" || /^[A-Za-z]{2}[A-Za-z0-9 ]{2,16}$/.test(v), "billing.errors.vatNumber")
    .optional()
    .transform((v) => v ?? ""),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const url = new URL(request.url);
  const page = Number(url.searchParams.get("page") ?? "1");
  const notesPage = Number(url.searchParams.get("notes") ?? "1");
  const [list, details, notes] = await Promise.all([
    listPayments(db, user.businessId, Number.isFinite(page) ? page : 1),
    getBillingDetails(db, user.businessId),
    listCreditNotes(db, user.businessId, Number.isFinite(notesPage) ? notesPage : 1),
  ]);
  return { ...list, details, notes };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema: detailsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  await saveBillingDetails(db, user.businessId, submission.value);
  setToast(context, { type: "success", message: "billing.toast.detailsSaved" });
  return redirect("/paymenthistory");
}

export default function PaymentHistory({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { rows, page, pageCount, details, notes } = loaderData;
  const lng = i18n.language;
  const money = (p: number) => formatPounds(p, lng);
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(detailsSchema, actionData?.result, { defaultValue: { address: details.address, vatNumber: details.vatNumber } });
  return (
    <>
      <PageHeader title={t("billing.history.title")} lead={t("billing.history.lead")} />
      <Panel title={t("billing.history.payments")} id="payments">
        {rows.length === 0 ? (
          <EmptyState title={t("billing.history.empty")} />
        ) : (
          <div className="table-wrap" role="group" aria-labelledby="payments-title" tabIndex={0}>
            <table className="payment-history">
              <thead>
                <tr>
                  <th scope="col">{t("billing.history.invoice")}</th>
                  <th scope="col">{t("billing.history.date")}</th>
                  <th scope="col">{t("billing.history.description")}</th>
                  <th scope="col" className="num">{t("billing.history.amount")}</th>
                  <th scope="col" className="num">{t("billing.history.companyDiscount")}</th>
                  <th scope="col" className="num">{t("billing.history.referralDiscount")}</th>
                  <th scope="col" className="num">{t("billing.history.credit")}</th>
                  <th scope="col" className="num">{t("billing.history.vat")}</th>
                  <th scope="col" className="num">{t("billing.history.total")}</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.invoiceNumber}>
                    <td className="nowrap" data-label={t("billing.history.invoice")}>
                      <a href={`/paymenthistory/${r.invoiceNumber}/invoice.pdf`} download>
                        {r.invoiceNumber}
                      </a>
                      <span className="visually-hidden"> {t("billing.history.pdf")}</span>
                    </td>
                    <td className="nowrap" data-label={t("billing.history.date")}>{formatBillingDate(r.date, lng)}</td>
                    <td data-label={t("billing.history.description")}>{r.description}</td>
                    <td className="num" data-label={t("billing.history.amount")}>{money(r.amountPence)}</td>
                    <td className="num" data-label={t("billing.history.companyDiscount")}>{r.companyDiscountPence ? `−${money(r.companyDiscountPence)}` : "—"}</td>
                    <td className="num" data-label={t("billing.history.referralDiscount")}>{r.referralDiscountPence ? `−${money(r.referralDiscountPence)}` : "—"}</td>
                    <td className="num" data-label={t("billing.history.credit")}>{r.creditPence ? `−${money(r.creditPence)}` : "—"}</td>
                    <td className="num" data-label={t("billing.history.vat")}>{money(r.vatPence)}</td>
                    <td className="num" data-label={t("billing.history.total")}>
                      <strong>{money(r.totalPence)}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <p className="field__hint">{t("billing.history.pdfHint")}</p>
        <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/paymenthistory?page=${p}&notes=${notes.page}`} />
      </Panel>
      {notes.total > 0 ? (
        <Panel title={t("billing.creditNotes.title")} id="credit-notes">
          <p>{t("billing.creditNotes.lead")}</p>
          <div className="table-wrap" role="group" aria-labelledby="credit-notes-title" tabIndex={0}>
            <table className="payment-history">
              <thead>
                <tr>
                  <th scope="col">{t("billing.creditNotes.number")}</th>
                  <th scope="col">{t("billing.history.date")}</th>
                  <th scope="col">{t("billing.creditNotes.invoice")}</th>
                  <th scope="col">{t("billing.creditNotes.reason")}</th>
                  <th scope="col" className="num">{t("billing.creditNotes.net")}</th>
                  <th scope="col" className="num">{t("billing.history.vat")}</th>
                  <th scope="col" className="num">{t("billing.creditNotes.total")}</th>
                </tr>
              </thead>
              <tbody>
                {notes.rows.map((r) => (
                  <tr key={r.number}>
                    <td className="nowrap" data-label={t("billing.creditNotes.number")}>
                      <a href={`/paymenthistory/creditnotes/${r.number}/creditnote.pdf`} download>
                        {r.number}
                      </a>
                      <span className="visually-hidden"> {t("billing.creditNotes.pdf")}</span>
                    </td>
                    <td className="nowrap" data-label={t("billing.history.date")}>{formatBillingDate(r.date, lng)}</td>
                    <td className="nowrap" data-label={t("billing.creditNotes.invoice")}>{r.invoiceNumber}</td>
                    <td data-label={t("billing.creditNotes.reason")}>{r.reason}</td>
                    <td className="num" data-label={t("billing.creditNotes.net")}>{`−${money(r.netPence)}`}</td>
                    <td className="num" data-label={t("billing.history.vat")}>{`−${money(r.vatPence)}`}</td>
                    <td className="num" data-label={t("billing.creditNotes.total")}>
                      <strong>{`−${money(r.totalPence)}`}</strong>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pagination page={notes.page} pageCount={notes.pageCount} hrefFor={(p) => `/paymenthistory?page=${page}&notes=${p}`} />
        </Panel>
      ) : null}
      <Panel title={t("billing.history.detailsTitle")} id="details">
        <p>{t("billing.history.detailsLead", { name: details.name })}</p>
        <FormErrors errors={form.errors} id={form.errorId} />
        <AppForm {...getFormProps(form)} className="form">
          <Field field={fields.address} label={t("billing.history.address")} hint={t("billing.history.addressHint")}>
            <textarea {...getTextareaProps(fields.address)} rows={4} maxLength={400} autoComplete="street-address" />
          </Field>
          <Field
            field={fields.vatNumber}
            label={t("billing.history.vatNumber")}
            hint={t("billing.history.vatNumberHint")}
            input={{ ...getInputProps(fields.vatNumber, { type: "text" }), maxLength: 20, autoComplete: "off" }}
          />
          <Button>{t("billing.history.save")}</Button>
        </AppForm>
      </Panel>
    </>
  );
}
