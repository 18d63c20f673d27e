// Credit notes: every refund of money on an invoice is a UK VAT credit note. Credit notes have their own
// unbroken sequence (CN-000001, CN-000002, …), given only when the refund has been made, in the same way as
// invoice numbers (max + 1 under a unique index, inside the issuing transaction), and each names the invoice it
// credits. The VAT it takes back is the invoice's VAT in proportion to the amount refunded, rounded to the penny.
//
// A refund is made in three steps, like a payment: (1) a PENDING credit note row under an idempotency key;
// (2) the payment provider is asked to give the money back under the row's own key; (3) the row is issued once
// (its number, the customer's details copied from the invoice, an email with the PDF). A refund made on the
// processor's own dashboard arrives as a webhook and becomes an issued credit note the same way, once per refund.
import PDFDocument from "pdfkit";
import type { Database } from "#db/index";
import type { CreditNote, Payment } from "#db/types";
import { AppError } from "~/lib/errors";
import { queueEmail } from "~/domain/email/email.server";
import type { PaymentProvider } from "~/providers/payments/types";
import { PaymentProviderError } from "~/providers/payments/types";
import { invoiceLabel, type Supplier } from "./invoices.server";
import { formatBillingDate, formatPounds, type BillingSettings } from "./money";

type Db = Database;

/** CN-000042: how credit note numbers are written everywhere. */
export function creditNoteLabel(n: number): string {
  return `CN-${String(n).padStart(6, "0")}`;
}

/** Reads "CN-000042" or "42"; null for anything else. */
export function parseCreditNoteNumber(s: string): number | null {
  const m = /^(?:CN-)?(\d{1,12})$/i.exec(s.trim());
  return m ? Number(m[1]) : null;
}

/** What is left to refund on a paid invoice: its total less every credit note already issued or under way. */
async function refundable(db: Db, payment: Payment): Promise<number> {
  const row = await db
    .selectFrom("credit_notes")
    .select((eb) => eb.fn.sum<string | number | null>("total_pence").as("n"))
    .where("payment_id", "=", payment.id)
    .where("status", "in", ["PENDING", "ISSUED"])
    .executeTakeFirst();
  return payment.total_pence - Number(row?.n ?? 0);
}

/** The VAT inside a refund of `totalPence` of this invoice (in proportion to the invoice's own VAT). */
export function vatShare(payment: Pick<Payment, "total_pence" | "vat_pence">, totalPence: number): number {
  if (payment.total_pence <= 0) return 0;
  return Math.round((totalPence * payment.vat_pence) / payment.total_pence);
}

export interface RefundInput {
  invoiceNumber: number;
  /** Pence including VAT; the whole of what is left when not given. */
  amountPence?: number;
  reason: string;
  /** Makes a repeated request (a retried command) refund once. */
  idempotencyKey: string;
}

/**
 * Refunds all or part of a paid invoice through the payment provider and issues its credit note. NF001 for an
 * unknown invoice, PY009 for more than is left, PY007 when the provider cannot be reached (nothing issued;
 * running it again with the same key finishes it).
 */
export async function refundInvoice(db: Db, provider: PaymentProvider, settings: BillingSettings, input: RefundInput, now: Date): Promise<CreditNote> {
  const payment = await db.selectFrom("payments").selectAll().where("invoice_number", "=", input.invoiceNumber).where("status", "=", "PAID").executeTakeFirst();
  if (!payment) throw new AppError("NF001", undefined, { status: 404 });
  let note = await db.selectFrom("credit_notes").selectAll().where("idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
  if (!note) {
    const left = await refundable(db, payment);
    const total = input.amountPence ?? left;
    if (!Number.isSafeInteger(total) || total <= 0 || total > left) throw new AppError("PY009", { left }, { field: "amount" });
    const vat = vatShare(payment, total);
    await db
      .insertInto("credit_notes")
      .values({
        business_id: payment.business_id,
        payment_id: payment.id,
        status: "PENDING",
        idempotency_key: input.idempotencyKey,
        reason: input.reason.trim().slice(0, 300) || "Refund",
        net_pence: total - vat,
        vat_pence: vat,
        total_pence: total,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    note = await db.selectFrom("credit_notes").selectAll().where("idempotency_key", "=", input.idempotencyKey).executeTakeFirstOrThrow();
  }
  if (note.status === "ISSUED") return note;
  if (note.status === "FAILED") throw new AppError("PY007");
  if (!payment.provider_ref) throw new AppError("PY009", { left: 0 });
  let reference: string;
  try {
    ({ reference } = await provider.refund({ reference: payment.provider_ref, amountPence: note.total_pence, idempotencyKey: `creditnote:${note.id}` }));
  } catch (error) {
    if (!(error instanceof PaymentProviderError)) throw error;
    if (!error.retryable) await db.updateTable("credit_notes").set({ status: "FAILED" }).where("id", "=", note.id).where("status", "=", "PENDING").execute();
    throw new AppError("PY007");
  }
  return issueCreditNote(db, note.id, reference, settings, now);
}

const isUnique = (e: unknown) => {
  const x = e as { code?: string; message?: string };
  return x?.code === "23505" || /UNIQUE constraint failed/i.test(x?.message ?? "");
};

/**
 * Issues a PENDING credit note once: the next number, the refund's reference, the customer's details as the
 * invoice has them, and the email to the Administrator. An issued note is answered as it is.
 */
export async function issueCreditNote(db: Db, noteId: number, providerRef: string | null, settings: BillingSettings, now: Date): Promise<CreditNote> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const note = await trx.selectFrom("credit_notes").selectAll().where("id", "=", noteId).executeTakeFirstOrThrow();
        if (note.status !== "PENDING") return note;
        const last = await trx.selectFrom("credit_notes").select((eb) => eb.fn.max("number").as("n")).executeTakeFirst();
        const payment = await trx.selectFrom("payments").selectAll().where("id", "=", note.payment_id).executeTakeFirstOrThrow();
        await trx
          .updateTable("credit_notes")
          .set({
            status: "ISSUED",
            number: Number(last?.n ?? 0) + 1,
            provider_ref: providerRef,
            issued_at: now.toISOString(),
            customer_name: payment.customer_name,
            customer_address: payment.customer_address,
            customer_vat_number: payment.customer_vat_number,
          })
          .where("id", "=", noteId)
          .execute();
        const issued = await trx.selectFrom("credit_notes").selectAll().where("id", "=", noteId).executeTakeFirstOrThrow();
        if (settings.supplier) await emailCreditNote(trx, issued, payment, settings);
        return issued;
      });
    } catch (error) {
      // Two notes issued at the same instant on PostgreSQL can pick the same number: the second takes the next.
      if (attempt < 5 && isUnique(error)) continue;
      throw error;
    }
  }
}

/**
 * A refund the processor reports (made on its own dashboard, or one of ours whose answer we never heard): the
 * credit note it belongs to is issued, or a new one is, once per refund. Nothing for a payment we do not know.
 */
export async function recordProviderRefund(
  db: Db,
  settings: BillingSettings,
  refund: { reference: string; paymentRef: string; amountPence: number; creditNoteId?: number | null },
  now: Date,
): Promise<CreditNote | null> {
  const seen = await db.selectFrom("credit_notes").selectAll().where("provider_ref", "=", refund.reference).executeTakeFirst();
  if (seen) return seen;
  if (refund.creditNoteId) {
    const ours = await db.selectFrom("credit_notes").select(["id", "status"]).where("id", "=", refund.creditNoteId).executeTakeFirst();
    if (ours) return issueCreditNote(db, Number(ours.id), refund.reference, settings, now);
  }
  const payment = await db.selectFrom("payments").selectAll().where("provider_ref", "=", refund.paymentRef).where("status", "=", "PAID").executeTakeFirst();
  if (!payment) return null;
  const total = Math.min(refund.amountPence, await refundable(db, payment));
  if (total <= 0) return null;
  const vat = vatShare(payment, total);
  await db
    .insertInto("credit_notes")
    .values({
      business_id: payment.business_id,
      payment_id: payment.id,
      status: "PENDING",
      idempotency_key: `provider-refund:${refund.reference}`,
      reason: "Refund",
      net_pence: total - vat,
      vat_pence: vat,
      total_pence: total,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .execute();
  const note = await db.selectFrom("credit_notes").select("id").where("idempotency_key", "=", `provider-refund:${refund.reference}`).executeTakeFirstOrThrow();
  return issueCreditNote(db, Number(note.id), refund.reference, settings, now);
}

export interface CreditNoteRow {
  number: string;
  date: string;
  invoiceNumber: string;
  reason: string;
  netPence: number;
  vatPence: number;
  totalPence: number;
}

/** The business's issued credit notes, newest first, a page at a time. */
export async function listCreditNotes(db: Db, businessId: number, page: number, pageSize = 20): Promise<{ rows: CreditNoteRow[]; page: number; pageCount: number; total: number }> {
  const count = await db
    .selectFrom("credit_notes")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("business_id", "=", businessId)
    .where("status", "=", "ISSUED")
    .executeTakeFirstOrThrow();
  const total = Number(count.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(pageCount, Math.max(1, Math.floor(page) || 1));
  const rows = await db
    .selectFrom("credit_notes")
    .innerJoin("payments", "payments.id", "credit_notes.payment_id")
    .select([
      "credit_notes.number",
      "credit_notes.issued_at",
      "credit_notes.reason",
      "credit_notes.net_pence",
      "credit_notes.vat_pence",
      "credit_notes.total_pence",
      "payments.invoice_number",
    ])
    .where("credit_notes.business_id", "=", businessId)
    .where("credit_notes.status", "=", "ISSUED")
    .orderBy("credit_notes.number", "desc")
    .limit(pageSize)
    .offset((p - 1) * pageSize)
    .execute();
  return {
    rows: rows.map((r) => ({
      number: creditNoteLabel(Number(r.number)),
      date: r.issued_at!,
      invoiceNumber: invoiceLabel(Number(r.invoice_number)),
      reason: r.reason,
      netPence: r.net_pence,
      vatPence: r.vat_pence,
      totalPence: r.total_pence,
    })),
    page: p,
    pageCount,
    total,
  };
}

/** One of the business's issued credit notes with the invoice it credits; NF001 (404) otherwise. */
export async function getCreditNote(db: Db, businessId: number, number: number): Promise<{ note: CreditNote; payment: Payment }> {
  const note = await db
    .selectFrom("credit_notes")
    .selectAll()
    .where("business_id", "=", businessId)
    .where("number", "=", number)
    .where("status", "=", "ISSUED")
    .executeTakeFirst();
  if (!note) throw new AppError("NF001", undefined, { status: 404 });
  const payment = await db.selectFrom("payments").selectAll().where("id", "=", note.payment_id).executeTakeFirstOrThrow();
  return { note, payment };
}

/**
 * What a credit note says, line by line (the PDF draws exactly these): the heading facts, the supplier, the
 * customer, the invoice it credits, and the amounts in sterling.
 */
export function creditNoteContent(note: CreditNote, payment: Payment, supplier: Supplier, vatRatePercent: number) {
  const gbp = (pence: number) => formatPounds(pence, "en-GB");
  const day = (iso: string) => formatBillingDate(iso, "en-GB");
  return {
    title: "VAT credit note",
    supplier: [supplier.name, ...supplier.address, `VAT registration number: ${supplier.vatNumber}`],
    customer: [note.customer_name ?? "", ...(note.customer_address ?? "").split(/\r?\n/).filter(Boolean), ...(note.customer_vat_number ? [`VAT number: ${note.customer_vat_number}`] : [])],
    facts: [
      ["Credit note number", creditNoteLabel(note.number!)],
      ["Issue date", day(note.issued_at!)],
      ["Credits invoice", `${invoiceLabel(payment.invoice_number!)} of ${day(payment.paid_at!)}`],
      ["Reason", note.reason],
    ] as [string, string][],
    line: { description: `Credit: ${payment.description}`, vatRate: `${vatRatePercent}%`, net: `-${gbp(note.net_pence)}`, vat: `-${gbp(note.vat_pence)}`, total: `-${gbp(note.total_pence)}` },
    totals: [
      ["Credit excluding VAT", `-${gbp(note.net_pence)}`],
      [`VAT at ${vatRatePercent}% credited`, `-${gbp(note.vat_pence)}`],
      ["Total credited", `-${gbp(note.total_pence)}`],
      ["Refunded to the card", gbp(note.total_pence)],
    ] as [string, string][],
    footer: `All amounts are in pounds sterling (GBP). This credit note reduces invoice ${invoiceLabel(payment.invoice_number!)}. ${supplier.name}, ${supplier.address.join(", ")}. VAT registration number ${supplier.vatNumber}.`,
  };
}

/** The credit note as a PDF (A4), in English, laid out like the invoices. */
export function renderCreditNotePdf(note: CreditNote, payment: Payment, supplier: Supplier, vatRatePercent: number): Promise<Buffer> {
  const c = creditNoteContent(note, payment, supplier, vatRatePercent);
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: `${c.title} ${creditNoteLabel(note.number!)}`, Author: supplier.name } });
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const left = 50;
  const right = 545;
  const ink = "#1c2426";
  const soft = "#4a5659";
  doc.fillColor(ink).font("Helvetica-Bold").fontSize(20).text(c.title, left, 50);
  const [supplierName, ...supplierLines] = c.supplier;
  doc.font("Helvetica-Bold").fontSize(11).text(supplierName, 330, 50, { width: right - 330, align: "right" });
  doc.font("Helvetica").fontSize(10).fillColor(soft);
  for (const line of supplierLines) doc.text(line, 330, doc.y, { width: right - 330, align: "right" });

  const top = Math.max(doc.y, 130) + 20;
  doc.fillColor(ink).font("Helvetica-Bold").fontSize(10).text("Credit to", left, top);
  doc.font("Helvetica");
  for (const line of c.customer) doc.text(line, left, doc.y, { width: 220 });
  const customerBottom = doc.y;
  let y = top;
  for (const [k, v] of c.facts) {
    doc.font("Helvetica").fillColor(soft).text(k, 290, y, { width: 110 });
    doc.font("Helvetica-Bold").fillColor(ink).text(v, 400, y, { width: right - 400, align: "right" });
    y = doc.y + 4;
  }

  y = Math.max(y, customerBottom) + 30;
  const cols = [
    { title: "Description", x: left, w: 230, align: "left" as const },
    { title: "VAT rate", x: 285, w: 50, align: "right" as const },
    { title: "Net", x: 340, w: 65, align: "right" as const },
    { title: "VAT", x: 410, w: 60, align: "right" as const },
    { title: "Total", x: 475, w: 70, align: "right" as const },
  ];
  doc.moveTo(left, y - 6).lineTo(right, y - 6).strokeColor("#d5dcdd").stroke();
  doc.font("Helvetica-Bold").fontSize(9).fillColor(soft);
  for (const col of cols) doc.text(col.title, col.x, y, { width: col.w, align: col.align });
  y += 18;
  doc.moveTo(left, y - 4).lineTo(right, y - 4).stroke();
  const cells = [c.line.description, c.line.vatRate, c.line.net, c.line.vat, c.line.total];
  doc.font("Helvetica").fontSize(9).fillColor(ink);
  let rowBottom = y;
  cols.forEach((col, i) => {
    doc.text(cells[i], col.x, y, { width: col.w, align: col.align });
    rowBottom = Math.max(rowBottom, doc.y);
  });
  y = rowBottom + 8;
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 10;
  c.totals.forEach(([k, v], i) => {
    const strong = i === 2;
    doc.font(strong ? "Helvetica-Bold" : "Helvetica").fontSize(strong ? 11 : 10).fillColor(ink);
    doc.text(k, 330, y, { width: 140 });
    doc.text(v, 470, y, { width: right - 470, align: "right" });
    y = doc.y + 5;
  });
  doc.font("Helvetica").fontSize(8).fillColor(soft).text(c.footer, left, 760, { width: right - left, align: "center" });
  doc.end();
  return done;
}

async function emailCreditNote(trx: Db, note: CreditNote, payment: Payment, settings: BillingSettings): Promise<void> {
  const pdf = await renderCreditNotePdf(note, payment, settings.supplier!, settings.vatRatePercent);
  const label = creditNoteLabel(note.number!);
  const gbp = (pence: number) => formatPounds(pence, "en-GB");
  const admins = await trx.selectFrom("users").select("email").where("business_id", "=", note.business_id).where("role", "=", "ADMIN").where("disabled", "=", 0).execute();
  for (const { email } of admins) {
    await queueEmail(
      trx,
      {
        businessId: note.business_id,
        to: email,
        kind: "credit-note",
        subject: `Your Textcircle VAT credit note ${label}`,
        text: [
          `We have refunded ${gbp(note.total_pence)} to your card for invoice ${invoiceLabel(payment.invoice_number!)}.`,
          `${note.reason}\nExcluding VAT: ${gbp(note.net_pence)}\nVAT: ${gbp(note.vat_pence)}\nTotal: ${gbp(note.total_pence)}`,
          `Your VAT credit note ${label} is attached. Every invoice and credit note is also on Payment history: /paymenthistory`,
        ].join("\n\n"),
        attachments: [{ filename: `${label}.pdf`, contentType: "application/pdf", content: pdf }],
      },
      new Date(note.issued_at!),
    );
  }
}
