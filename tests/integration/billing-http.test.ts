// The billing screens over HTTP: a trial owner activates a plan with the simulator's test card (a declined card
// takes nothing), increases it with the pro-rata price shown first, downloads the VAT invoice; a team member is
// refused (FB001) everywhere a change could be made, and another business's invoice is a 404.
import { describe, expect, it } from "vitest";
import { grantTrialCredits } from "~/domain/billing/credits.server";
import { createSession } from "~/domain/accounts/sessions.server";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp, type TestApp } from "../support/server";

const CARD = { name: "Ann Owner", number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123" };

async function signedIn(app: TestApp, userId: number) {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

describe.each(DIALECTS)("billing screens (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  async function owner() {
    const account = await createAccount(t.app.db, { trialCredits: 0 });
    await grantTrialCredits(t.app.db, account.businessId, 50, new Date());
    return { account, client: await signedIn(t.app, account.id) };
  }

  it("activates a plan from the trial with the test card, after a declined card took nothing", async () => {
    const { account, client } = await owner();
    const trial = pageText(await (await client.get("/subscription")).text());
    expect(trial).toContain("50 of 50 trial credits left");
    const declined = await client.post("/subscription", { intent: "activate", plan: "s500", ...CARD, number: "4000 0000 0000 0002" });
    expect(declined.status).toBe(402);
    expect(pageText(await declined.text())).toContain("Your card was declined, so no money was taken");
    const bad = await client.post("/subscription", { intent: "activate", plan: "s500", ...CARD, number: "1234" });
    expect(bad.status).toBe(400);
    const ok = await client.post("/subscription", { intent: "activate", plan: "s500", ...CARD });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/subscription");
    const page = pageText(await (await client.get("/subscription")).text());
    expect(page).toContain("0 of 500 texts used");
    expect(page).toContain("Visa •••• 4242");
    const paid = await t.app.db.selectFrom("payments").select(["status", "total_pence", "invoice_number"]).where("business_id", "=", account.businessId).orderBy("id").execute();
    expect(paid.map((p) => [p.status, p.total_pence])).toEqual([
      ["FAILED", 3000],
      ["PAID", 3000],
    ]);

    // The increase shows its price first, then one press pays it; a second press takes nothing more.
    const quote = pageText(await (await client.get("/changesubscription?kind=increase&plan=s1000")).text());
    expect(quote).toMatch(/To pay now £\d+\.\d\d/);
    expect((await client.post("/changesubscription", { kind: "increase", plan: "s1000" })).status).toBe(302);
    const again = await client.post("/changesubscription", { kind: "increase", plan: "s1000" });
    expect(again.status).toBe(400);
    expect(pageText(await again.text())).toContain("Choose a different plan");
    expect((await t.app.db.selectFrom("payments").select("id").where("business_id", "=", account.businessId).where("status", "=", "PAID").execute()).length).toBe(2);

    // The invoices: listed, and each a PDF.
    const history = pageText(await (await client.get("/paymenthistory")).text());
    const number = paid[1].invoice_number!;
    const label = `INV-${String(number).padStart(6, "0")}`;
    expect(history).toContain(label);
    const pdf = await client.get(`/paymenthistory/${label}/invoice.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe("%PDF-");

    // Another business cannot reach it.
    const other = await owner();
    expect((await other.client.get(`/paymenthistory/${label}/invoice.pdf`)).status).toBe(404);
  });

  it("refuses a team member every change (FB001) and shows them the plan read-only", async () => {
    const { account } = await owner();
    const team = await createTeamUser(t.app.db, account.businessId);
    const member = await signedIn(t.app, team.id);
    const view = await member.get("/subscription");
    expect(view.status).toBe(200);
    expect(pageText(await view.text())).toContain("Only your account administrator can change your monthly subscription");
    const post = await member.post("/subscription", { intent: "activate", plan: "s500", ...CARD });
    expect(post.status).toBe(403);
    expect((await member.get("/changesubscription")).status).toBe(403);
    expect((await member.post("/changesubscription", { kind: "increase", plan: "s1000" })).status).toBe(403);
    expect((await member.get("/paymenthistory")).status).toBe(403);
    expect(await t.app.db.selectFrom("payments").select("id").where("business_id", "=", account.businessId).execute()).toEqual([]);
  });

  it("answers the billing API: the plan, the payments, an invoice PDF, and changes by the Administrator only", async () => {
    const { account, client } = await owner();
    const trial = (await (await client.get("/api/subscription")).json()) as Record<string, unknown>;
    expect(trial).toMatchObject({ status: "TRIAL", plan: null, currency: "GBP", trial: { creditsRemaining: 50, ended: false } });
    expect((await client.json("/api/subscription/change", "POST", { kind: "increase", plan: "s1000" })).status).toBe(400); // no plan yet (PY006)
    await client.post("/subscription", { intent: "activate", plan: "s250", ...CARD });
    const sub = (await (await client.get("/api/subscription")).json()) as Record<string, unknown>;
    expect(sub).toMatchObject({ status: "ACTIVE", plan: { id: "s250", allowance: 250, pricePence: 1500 }, allowance: 250, used: 0, remaining: 250, discount: null });
    expect(typeof sub.nextPaymentDate).toBe("string");

    const team = await signedIn(t.app, (await createTeamUser(t.app.db, account.businessId)).id);
    const refused = await team.json("/api/subscription/change", "POST", { kind: "increase", plan: "s1000" });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { responseCode: string }).responseCode).toBe("FB001");
    expect((await team.get("/api/payments")).status).toBe(403);
    expect((await team.get("/api/subscription")).status).toBe(200);

    const bad = await client.json("/api/subscription/change", "POST", { kind: "sideways", plan: "s1000" });
    expect(bad.status).toBe(400);
    const lower = await client.json("/api/subscription/change", "POST", { kind: "lower", plan: "s1000" });
    expect(((await lower.json()) as { responseCode: string }).responseCode).toBe("PY004");
    const inc = await client.json("/api/subscription/change", "POST", { kind: "increase", plan: "s1000" });
    expect(inc.status).toBe(200);
    const { invoiceNumber } = (await inc.json()) as { invoiceNumber: string };
    expect(invoiceNumber).toMatch(/^INV-\d{6}$/);

    const list = (await (await client.get("/api/payments")).json()) as { payments: Array<{ invoiceNumber: string; totalPence: number; vatPence: number; amountExcludingVatPence: number }> };
    expect(list.payments.map((p) => p.invoiceNumber)[0]).toBe(invoiceNumber);
    expect(list.payments[1]).toMatchObject({ amountExcludingVatPence: 1500, vatPence: 300, totalPence: 1800 });
    const pdf = await client.get(`/api/payments/${invoiceNumber}/invoice.pdf`);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    const stranger = (await owner()).client;
    expect((await stranger.get(`/api/payments/${invoiceNumber}/invoice.pdf`)).status).toBe(404);
  });

  it("asks for a texted code before cancelling, and a wrong code deletes nothing", async () => {
    const { account, client } = await owner();
    const page = pageText(await (await client.get("/subscription/cancel")).text());
    expect(page).toContain("Everything is deleted at once");
    const sent = await client.post("/subscription/cancel", { intent: "send" });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/subscription/cancel?sent=1");
    const wrong = await client.post("/subscription/cancel", { intent: "confirm", code: "000000" });
    expect(wrong.status).toBe(400);
    expect(pageText(await wrong.text())).toContain("That verification code is not right");
    expect(await t.app.db.selectFrom("businesses").select("id").where("id", "=", account.businessId).executeTakeFirst()).toBeDefined();
  });

  it("serves the payment simulator with its test cards", async () => {
    const res = await t.app.client().get("/paymentsimulator");
    expect(res.status).toBe(200);
    expect(pageText(await res.text())).toContain("4000 0025 0000 3155");
  });
});
