// Payment history and VAT invoices. Every paid payment is an invoice with an unbroken sequential number (given
// when it is paid, see subscription.server.ts); the PDF is a full UK VAT invoice: number, issue date (the tax
// point) and supply period, supplier name, address and VAT number, the customer's name, address and VAT number
// when given, and a line with description, quantity, unit price, VAT rate, net, VAT and total in sterling.
import PDFDocument from "pdfkit";
import type { Database } from "#db/index";
import type { Payment } from "#db/types";
import { AppError } from "~/lib/errors";
import { formatBillingDate, formatPounds } from "./money";

export interface Supplier {
  name: string;
  address: string[];
  vatNumber: string;
}

export interface PaymentRow {
  invoiceNumber: string;
  date: string;
  description: string;
  amountPence: number;
  companyDiscountPence: number;
  referralDiscountPence: number;
  creditPence: number;
  vatPence: number;
  totalPence: number;
}

/** INV-000042: how invoice numbers are written everywhere. */
export function invoiceLabel(n: number): string {
  return `INV-${String(n).padStart(6, "0")}`;
}

/** Reads "INV-000042" or "42"; null for anything else. */
export function parseInvoiceNumber(s: string): number | null {
  const m = /^(?:INV-)?(\d{1,12})$/i.exec(s.trim());
  return m ? Number(m[1]) : null;
}

function row(p: Payment): PaymentRow {
  return {
    invoiceNumber: invoiceLabel(p.invoice_number!),
    date: p.paid_at!,
    description: p.description,
    amountPence: p.net_pence,
    companyDiscountPence: p.company_discount_pence,
    referralDiscountPence: p.referral_discount_pence,
    creditPence: p.credit_pence,
    vatPence: p.vat_pence,
    totalPence: p.total_pence,
  };
}

/** The business's paid payments, newest first, a page at a time. */
export async function listPayments(db: Database, businessId: number, page: number, pageSize = 20): Promise<{ rows: PaymentRow[]; page: number; pageCount: number; total: number }> {
  const count = await db
    .selectFrom("payments")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("business_id", "=", businessId)
    .where("status", "=", "PAID")
    .executeTakeFirstOrThrow();
  const total = Number(count.n);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(pageCount, Math.max(1, Math.floor(page) || 1));
  const rows = await db
    .selectFrom("payments")
    .selectAll()
    .where("business_id", "=", businessId)
    .where("status", "=", "PAID")
    .orderBy("invoice_number", "desc")
    .limit(pageSize)
    .offset((p - 1) * pageSize)
    .execute();
  return { rows: rows.map(row), page: p, pageCount, total };
}

/** One of the business's invoices; NF001 (404) when it is not theirs or does not exist. */
export async function getInvoice(db: Database, businessId: number, invoiceNumber: number): Promise<Payment> {
  const p = await db
    .selectFrom("payments")
    .selectAll()
    .where("business_id", "=", businessId)
    .where("invoice_number", "=", invoiceNumber)
    .where("status", "=", "PAID")
    .executeTakeFirst();
  if (!p) throw new AppError("NF001", undefined, { status: 404 });
  return p;
}

export async function getBillingDetails(db: Database, businessId: number) {
  const b = await db.selectFrom("businesses").select(["name", "billing_address", "billing_vat_number"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  return { name: b.name, address: b.billing_address ?? "", vatNumber: b.billing_vat_number ?? "" };
}

/** The address and VAT number later invoices are made out to (invoices already issued keep theirs). */
export async function saveBillingDetails(db: Database, businessId: number, details: { address: string; vatNumber: string }): Promise<void> {
  await db
    .updateTable("businesses")
    .set({ billing_address: details.address.trim() || null, billing_vat_number: details.vatNumber.trim().toUpperCase() || null })
    .where("id", "=", businessId)
    .execute();
}

/** The invoice as a PDF (A4), in English: the document a UK accountant files. */
export function renderInvoicePdf(p: Payment, supplier: Supplier, vatRatePercent: number): Promise<Buffer> {
  const doc = new PDFDocument({ size: "A4", margin: 50, info: { Title: `VAT invoice ${invoiceLabel(p.invoice_number!)}`, Author: supplier.name } });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const gbp = (pence: number) => formatPounds(pence, "en-GB");
  const day = (iso: string) => formatBillingDate(iso, "en-GB");
  const left = 50;
  const right = 545;
  const ink = "#1c2426";
  const soft = "#4a5659";

  // Header: who issues it, and what it is.
  doc.fillColor(ink).font("Helvetica-Bold").fontSize(20).text("VAT invoice", left, 50);
  doc.font("Helvetica-Bold").fontSize(11).text(supplier.name, 330, 50, { width: right - 330, align: "right" });
  doc.font("Helvetica").fontSize(10).fillColor(soft);
  for (const line of supplier.address) doc.text(line, 330, doc.y, { width: right - 330, align: "right" });
  doc.text(`VAT registration number: ${supplier.vatNumber}`, 330, doc.y, { width: right - 330, align: "right" });

  // Invoice facts and the customer.
  const factsTop = Math.max(doc.y, 130) + 20;
  doc.fillColor(ink).font("Helvetica-Bold").fontSize(10).text("Invoice to", left, factsTop);
  doc.font("Helvetica").text(p.customer_name ?? "", left, doc.y);
  for (const line of (p.customer_address ?? "").split(/\r?\n/).filter(Boolean)) doc.text(line, left, doc.y);
  if (p.customer_vat_number) doc.text(`VAT number: ${p.customer_vat_number}`, left, doc.y);
  const customerBottom = doc.y;

  const facts: [string, string][] = [
    ["Invoice number", invoiceLabel(p.invoice_number!)],
    ["Issue date (tax point)", day(p.paid_at!)],
    ["Supply period", `${day(p.kind === "RENEWAL" || p.kind === "ACTIVATE" ? p.period_start : p.paid_at!)} to ${day(p.period_end)}`],
    ["Payment", `Paid by card on ${day(p.paid_at!)}`],
  ];
  let y = factsTop;
  for (const [k, v] of facts) {
    doc.font("Helvetica").fillColor(soft).text(k, 290, y, { width: 110 });
    doc.font("Helvetica-Bold").fillColor(ink).text(v, 400, y, { width: right - 400, align: "right" });
    y = doc.y + 4;
  }

  // The line: description, quantity, unit price, VAT rate, net, VAT, total.
  y = Math.max(y, customerBottom) + 30;
  const cols = [
    { title: "Description", x: left, w: 190, align: "left" as const },
    { title: "Qty", x: 240, w: 30, align: "right" as const },
    { title: "Unit price", x: 275, w: 60, align: "right" as const },
    { title: "VAT rate", x: 340, w: 45, align: "right" as const },
    { title: "Net", x: 390, w: 50, align: "right" as const },
    { title: "VAT", x: 445, w: 45, align: "right" as const },
    { title: "Total", x: 495, w: 50, align: "right" as const },
  ];
  doc.moveTo(left, y - 6).lineTo(right, y - 6).strokeColor("#d5dcdd").stroke();
  doc.font("Helvetica-Bold").fontSize(9).fillColor(soft);
  for (const c of cols) doc.text(c.title, c.x, y, { width: c.w, align: c.align });
  y += 18;
  doc.moveTo(left, y - 4).lineTo(right, y - 4).stroke();
  const discounts = p.company_discount_pence + p.referral_discount_pence + p.credit_pence;
  const net = p.net_pence - discounts;
  // With a discount, the VAT and total are worked out on the discounted amount below, not on this line.
  const cells = [p.description, "1", gbp(p.net_pence), `${vatRatePercent}%`, gbp(p.net_pence), discounts ? "" : gbp(p.vat_pence), discounts ? "" : gbp(p.total_pence)];
  doc.font("Helvetica").fontSize(9).fillColor(ink);
  let rowBottom = y;
  cols.forEach((c, i) => {
    doc.text(cells[i], c.x, y, { width: c.w, align: c.align });
    rowBottom = Math.max(rowBottom, doc.y);
  });
  y = rowBottom + 6;
  const adjustments: [string, number][] = [
    ["Company discount", p.company_discount_pence],
    ["Referral discount", p.referral_discount_pence],
    ["Credit", p.credit_pence],
  ];
  for (const [label, pence] of adjustments) {
    if (!pence) continue;
    doc.text(label, left, y, { width: 190 });
    doc.text(`-${gbp(pence)}`, 390, y, { width: 50, align: "right" });
    y = doc.y + 6;
  }
  doc.moveTo(left, y).lineTo(right, y).stroke();
  y += 10;

  // Totals.
  const totals: [string, string, boolean][] = [
    ["Total excluding VAT", gbp(net), false],
    [`VAT at ${vatRatePercent}%`, gbp(p.vat_pence), false],
    ["Total including VAT", gbp(p.total_pence), true],
    ["Amount paid", gbp(p.total_pence), false],
    ["Amount due", gbp(0), false],
  ];
  for (const [k, v, strong] of totals) {
    doc.font(strong ? "Helvetica-Bold" : "Helvetica").fontSize(strong ? 11 : 10).fillColor(ink);
    doc.text(k, 330, y, { width: 140 });
    doc.text(v, 470, y, { width: right - 470, align: "right" });
    y = doc.y + 5;
  }

  doc.font("Helvetica").fontSize(8).fillColor(soft).text(`All amounts are in pounds sterling (GBP). ${supplier.name}, ${supplier.address.join(", ")}. VAT registration number ${supplier.vatNumber}.`, left, 770, {
    width: right - left,
    align: "center",
  });
  doc.end();
  return done;
}
