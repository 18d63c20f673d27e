// Credit notes and the company discount. A refund (with the payment simulator here) issues a VAT credit note
// in its own unbroken sequence, naming the invoice it reduces, with the VAT in proportion; it is emailed with
// its PDF and never refunds more than the invoice. A company discount set by the operator comes off every
// invoice opened while it lasts (an increase now, the renewals), and not after its end date. Over HTTP: the
// credit note is listed on /paymenthistory and downloads as a PDF for the Administrator only (a team member
// 403, another business 404), and /subscription shows the discount. The operator's command sets a discount.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { grantTrialCredits } from "~/domain/billing/credits.server";
import { creditNoteContent, getCreditNote, refundInvoice } from "~/domain/billing/credit-notes.server";
import { DEFAULT_BILLING } from "~/domain/billing/money";
import { changeSubscription, renewDue, setCompanyDiscount } from "~/domain/billing/subscription.server";
import { SimulatorPaymentProvider } from "~/providers/payments/simulator.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness, createTeamUser, createUser } from "../support/factories";
import { pageText, useTestApp, type TestApp } from "../support/server";

const supplier = { name: "Textcircle Ltd", address: ["20 Market Street", "Leeds", "LS1 6DT"], vatNumber: "GB 987 6543 21" };
const settings = { ...DEFAULT_BILLING, supplier };
const VISA = { number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", name: "A Owner" };

describe.each(DIALECTS)("credit notes and company discounts (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock = new Date(Date.UTC(2027, 4, 3, 10));
  const provider = () => new SimulatorPaymentProvider(t.db, () => clock);
  let n = 0;

  async function subscribed(plan = "s500") {
    const id = await createBusiness(t.db, { trialCredits: 0, name: `Harbour Fish Bar ${++n}` });
    await createUser(t.db, id, { email: `boss-${id}@example.test` });
    await grantTrialCredits(t.db, id, 50, clock);
    await changeSubscription(t.db, provider(), settings, { businessId: id, businessName: "Harbour Fish Bar", kind: "activate", planId: plan, card: VISA, returnUrl: "/x/{id}" }, clock);
    const paid = await t.db.selectFrom("payments").selectAll().where("business_id", "=", id).where("status", "=", "PAID").executeTakeFirstOrThrow();
    return { id, paid };
  }

  it("issues a credit note per refund in one unbroken CN sequence, with proportional VAT, emailed with its PDF", async () => {
    clock = new Date(Date.UTC(2027, 4, 3, 10));
    const a = await subscribed();
    const b = await subscribed("s250");
    const first = await refundInvoice(t.db, provider(), settings, { invoiceNumber: a.paid.invoice_number!, amountPence: 1000, reason: "Outage on 2 May", idempotencyKey: `t:${a.id}:1` }, clock);
    const again = await refundInvoice(t.db, provider(), settings, { invoiceNumber: a.paid.invoice_number!, amountPence: 1000, reason: "Outage on 2 May", idempotencyKey: `t:${a.id}:1` }, clock);
    const second = await refundInvoice(t.db, provider(), settings, { invoiceNumber: b.paid.invoice_number!, reason: "Cancelled in the first week", idempotencyKey: `t:${b.id}:1` }, clock);
    expect(again.id).toBe(first.id);
    // £10.00 of a £30.00 invoice with £5.00 VAT: £1.67 of it is VAT.
    expect(first).toMatchObject({ status: "ISSUED", total_pence: 1000, vat_pence: 167, net_pence: 833, });
    expect(first.customer_name).toMatch(/^Harbour Fish Bar \d+$/);
    // The whole of what is left when no amount is given: £18.00 of which £3.00 VAT.
    expect(second).toMatchObject({ status: "ISSUED", total_pence: 1800, vat_pence: 300, net_pence: 1500 });
    expect(second.number).toBe(first.number! + 1);
    const refunds = await t.db.selectFrom("sim_payments").select(["amount_pence", "status"]).where("business_id", "=", a.id).where("status", "=", "REFUNDED").execute();
    expect(refunds).toEqual([{ amount_pence: -1000, status: "REFUNDED" }]);

    await expect(refundInvoice(t.db, provider(), settings, { invoiceNumber: a.paid.invoice_number!, amountPence: 2001, reason: "x", idempotencyKey: `t:${a.id}:2` }, clock)).rejects.toMatchObject({
      code: "PY009",
      data: { left: 2000 },
    });
    await expect(refundInvoice(t.db, provider(), settings, { invoiceNumber: 99_999_999, reason: "x", idempotencyKey: "t:none" }, clock)).rejects.toMatchObject({ code: "NF001" });

    // What the PDF says: the number, the invoice it credits, both parties, the amounts as credits.
    const { note, payment } = await getCreditNote(t.db, a.id, first.number!);
    const content = creditNoteContent(note, payment, supplier, 20);
    const text = JSON.stringify(content);
    expect(content.title).toBe("VAT credit note");
    expect(content.facts[0]).toEqual(["Credit note number", `CN-${String(first.number).padStart(6, "0")}`]);
    expect(content.facts[2][1]).toMatch(new RegExp(`^INV-${String(a.paid.invoice_number).padStart(6, "0")} of 3 May 2027$`));
    expect(content.line).toEqual({ description: "Credit: Monthly plan: 500 texts a month", vatRate: "20%", net: "-£8.33", vat: "-£1.67", total: "-£10.00" });
    for (const s of ["GB 987 6543 21", "20 Market Street", "Harbour Fish Bar", "Outage on 2 May"]) expect(text).toContain(s);
    // Another business never sees it.
    await expect(getCreditNote(t.db, b.id, first.number!)).rejects.toMatchObject({ code: "NF001" });

    const emails = await t.db.selectFrom("emails").selectAll().where("business_id", "=", a.id).where("kind", "=", "credit-note").execute();
    expect(emails).toHaveLength(1);
    expect(emails[0].subject).toBe(`Your Textcircle VAT credit note CN-${String(first.number).padStart(6, "0")}`);
    const [pdf] = JSON.parse(emails[0].attachments!) as Array<{ filename: string; contentBase64: string }>;
    expect(Buffer.from(pdf.contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("takes the company discount off every invoice opened while it lasts, and not after its end date", async () => {
    clock = new Date(Date.UTC(2027, 4, 3, 10));
    const { id } = await subscribed("s500");
    await expect(setCompanyDiscount(t.db, id, { percent: 101, endsOn: null }, clock)).rejects.toMatchObject({ code: "BR025", field: "percent" });
    await expect(setCompanyDiscount(t.db, id, { percent: 10, endsOn: "2027-05-01" }, clock)).rejects.toMatchObject({ code: "BR025", field: "endsOn" });
    await expect(setCompanyDiscount(t.db, id, { percent: 10, endsOn: "2027-02-30" }, clock)).rejects.toMatchObject({ code: "BR025" });
    const trial = await createBusiness(t.db);
    await expect(setCompanyDiscount(t.db, trial, { percent: 10, endsOn: null }, clock)).rejects.toMatchObject({ code: "PY006" });
    // Until the end of 3 July 2027, UK time (British Summer Time: 23:00 UTC).
    await expect(setCompanyDiscount(t.db, id, { percent: 10, endsOn: "2027-07-03" }, clock)).resolves.toEqual({ percent: 10, endsAt: "2027-07-03T23:00:00.000Z" });

    // An increase half-way: (£45 − £25) × share, less 10 %, then VAT.
    clock = new Date(Date.UTC(2027, 4, 18, 22));
    await changeSubscription(t.db, provider(), settings, { businessId: id, businessName: "Shop", kind: "increase", planId: "s1000", returnUrl: "/x/{id}" }, clock);
    const inc = await t.db.selectFrom("payments").selectAll().where("business_id", "=", id).where("kind", "=", "INCREASE").executeTakeFirstOrThrow();
    expect(inc.company_discount_pence).toBe(Math.round(inc.net_pence / 10));
    expect(inc.vat_pence).toBe(Math.round(((inc.net_pence - inc.company_discount_pence) * 20) / 100));
    expect(inc.total_pence).toBe(inc.net_pence - inc.company_discount_pence + inc.vat_pence);

    // June's renewal has it (£45 − £4.50 = £40.50, VAT £8.10); July's starts on 3 July, inside the last day; August's does not.
    for (const month of [5, 6, 7]) {
      clock = new Date(Date.UTC(2027, month, 3, 10, 1));
      await renewDue(t.db, provider(), settings, clock, 1000);
    }
    const renewals = await t.db.selectFrom("payments").selectAll().where("business_id", "=", id).where("kind", "=", "RENEWAL").orderBy("id").execute();
    expect(renewals.map((r) => [r.net_pence, r.company_discount_pence, r.vat_pence, r.total_pence])).toEqual([
      [4500, 450, 810, 4860],
      [4500, 450, 810, 4860],
      [4500, 0, 900, 5400],
    ]);
    // Removing it: 0.
    await expect(setCompanyDiscount(t.db, id, { percent: 0, endsOn: null }, clock)).resolves.toEqual({ percent: 0, endsAt: null });
  });

});

// The command reads DATABASE_URL as the server does; the domain function it calls is tested on both databases above.
describe("the operator's discount command (sqlite)", () => {
  const t = useTestDb("sqlite");
  it("is set by the operator's command", async () => {
    const now = new Date();
    const id = await createBusiness(t.db, { trialCredits: 0, name: `Harbour Fish Bar ${Date.now()}` });
    await changeSubscription(t.db, new SimulatorPaymentProvider(t.db, () => now), settings, { businessId: id, businessName: "Shop", kind: "activate", planId: "s250", card: VISA, returnUrl: "/x/{id}" }, now);
    const run = promisify(execFile);
    const env = { ...process.env, DATABASE_URL: t.testDb.url, NODE_ENV: "test" };
    const ok = await run(process.execPath, ["scripts/billing-discount.mjs", String(id), "15"], { env });
    expect(ok.stdout).toMatch(/Harbour Fish Bar \d+: 15% company discount with no end date/);
    const sub = await t.db.selectFrom("subscriptions").select(["discount_percent", "discount_ends_at"]).where("business_id", "=", id).executeTakeFirstOrThrow();
    expect(sub).toEqual({ discount_percent: 15, discount_ends_at: null });
    const bad = await run(process.execPath, ["scripts/billing-discount.mjs", String(id), "150"], { env }).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1 });
    expect((bad as { stderr: string }).stderr).toContain("whole number from 0 to 100");

    // The refund command: part of the invoice back to the card, its credit note issued, once for the same request.
    const paid = await t.db.selectFrom("payments").select("invoice_number").where("business_id", "=", id).executeTakeFirstOrThrow();
    const args = ["scripts/billing-refund.mjs", `INV-${String(paid.invoice_number).padStart(6, "0")}`, "600", "Goodwill"];
    const refunded = await run(process.execPath, args, { env });
    expect(refunded.stdout).toMatch(/^Refunded 6\.00 GBP: credit note CN-\d{6}\.$/m);
    await run(process.execPath, args, { env });
    const notes = await t.db.selectFrom("credit_notes").select(["total_pence", "status"]).where("business_id", "=", id).execute();
    expect(notes).toEqual([{ total_pence: 600, status: "ISSUED" }]);
  }, 90_000);
});

async function signedIn(app: TestApp, userId: number) {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

describe.each(DIALECTS)("credit notes and discounts on the pages (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("lists the credit note and downloads it for the Administrator only; shows the company discount", async () => {
    const db = t.app.db;
    const now = new Date();
    const account = await createAccount(db, { trialCredits: 0 });
    await grantTrialCredits(db, account.businessId, 50, now);
    const client = await signedIn(t.app, account.id);
    expect((await client.post("/subscription", { intent: "activate", plan: "s500", ...VISA })).status).toBe(302);
    const paid = await db.selectFrom("payments").selectAll().where("business_id", "=", account.businessId).executeTakeFirstOrThrow();
    const sim = new SimulatorPaymentProvider(db, () => now);
    const note = await refundInvoice(db, sim, DEFAULT_BILLING, { invoiceNumber: paid.invoice_number!, amountPence: 600, reason: "Goodwill", idempotencyKey: `page:${account.businessId}` }, now);
    const label = `CN-${String(note.number).padStart(6, "0")}`;
    const history = pageText(await (await client.get("/paymenthistory")).text());
    expect(history).toContain("Credit notes");
    expect(history).toContain(label);
    expect(history).toContain(`INV-${String(paid.invoice_number).padStart(6, "0")}`);
    expect(history).toContain("−£6.00");
    const pdf = await client.get(`/paymenthistory/creditnotes/${label}/creditnote.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    const api = (await (await client.get("/api/creditnotes")).json()) as { total: number; creditNotes: Array<Record<string, unknown>> };
    expect(api.total).toBe(1);
    expect(api.creditNotes[0]).toMatchObject({ creditNoteNumber: label, invoiceNumber: `INV-${String(paid.invoice_number).padStart(6, "0")}`, reason: "Goodwill", amountExcludingVatPence: 500, vatPence: 100, totalPence: 600 });
    const apiPdf = await client.get(`/api/creditnotes/${label}/creditnote.pdf`);
    expect(apiPdf.headers.get("content-type")).toBe("application/pdf");

    const team = await signedIn(t.app, (await createTeamUser(db, account.businessId)).id);
    expect((await team.get(`/paymenthistory/creditnotes/${label}/creditnote.pdf`)).status).toBe(403);
    const teamApi = await team.get("/api/creditnotes");
    expect(teamApi.status).toBe(403);
    expect(((await teamApi.json()) as { responseCode: string }).responseCode).toBe("FB001");
    const other = await signedIn(t.app, (await createAccount(db)).id);
    expect((await other.get(`/paymenthistory/creditnotes/${label}/creditnote.pdf`)).status).toBe(404);
    expect((await other.get(`/api/creditnotes/${label}/creditnote.pdf`)).status).toBe(404);
    expect(((await (await other.get("/api/creditnotes")).json()) as { total: number }).total).toBe(0);

    await setCompanyDiscount(db, account.businessId, { percent: 12, endsOn: "2099-12-31" }, now);
    const page = pageText(await (await client.get("/subscription")).text());
    expect(page).toContain("Company discount 12% until 31 December 2099");
  });
});
