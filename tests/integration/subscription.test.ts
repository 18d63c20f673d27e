import { describe, expect, it } from "vitest";
import { charge, grantTrialCredits, reconcile } from "~/domain/billing/credits.server";
import { amounts, DEFAULT_BILLING } from "~/domain/billing/money";
import { changeSubscription, confirmPayment, payNow, renewDue, subscriptionView } from "~/domain/billing/subscription.server";
import { listReferrals } from "~/domain/billing/referrals.server";
import { answerAuthentication, SimulatorPaymentProvider } from "~/providers/payments/simulator.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness as createTrialBusiness, createUser } from "../support/factories";

const settings = DEFAULT_BILLING;
const VISA = { number: "4242 4242 4242 4242", expiry: "12/40", cvc: "123", name: "A Owner" };
const DECLINE = { ...VISA, number: "4000 0000 0000 0002" };
const SECURE = { ...VISA, number: "4000 0025 0000 3155" };
const FAILS_LATER = { ...VISA, number: "4000 0000 0000 0341" };

describe.each(DIALECTS)("subscriptions (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock = new Date(Date.UTC(2027, 0, 31, 9, 0));
  const provider = () => new SimulatorPaymentProvider(t.db, () => clock);
  const req = (businessId: number, kind: "activate" | "increase" | "month" | "lower", planId: string, card?: typeof VISA) => ({
    businessId,
    businessName: "Shop",
    kind,
    planId,
    card,
    returnUrl: "/subscription/confirm/{id}",
  });
  const payments = (businessId: number) => t.db.selectFrom("payments").selectAll().where("business_id", "=", businessId).orderBy("id").execute();
  // A trial account as sign-up makes it: its credits granted through the ledger.
  const createBusiness = async (db: typeof t.db) => {
    const id = await createTrialBusiness(db, { trialCredits: 0 });
    await grantTrialCredits(db, id, 50, clock);
    return id;
  };
  const business = (id: number) => t.db.selectFrom("businesses").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("activates from the trial with a test card: one charge, an invoice number, the allowance granted once", async () => {
    clock = new Date(Date.UTC(2027, 0, 31, 9, 0));
    const id = await createBusiness(t.db);
    const first = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s500", VISA), clock);
    // A double click: the same payment, no second charge.
    const second = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s500", VISA), clock).catch((e: unknown) => e);
    expect(first).toMatchObject({ status: "paid" });
    expect(second).toMatchObject({ code: "PY005" });
    const rows = await payments(id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "PAID", net_pence: 2500, vat_pence: 500, total_pence: 3000 });
    expect(await t.db.selectFrom("sim_payments").select("id").where("business_id", "=", id).execute()).toHaveLength(1);
    expect(await business(id)).toMatchObject({ status: "SUBSCRIBED", message_allowance: 500, allowance_used: 0 });
    const view = await subscriptionView(t.db, id, settings, clock);
    expect(view).toMatchObject({ status: "ACTIVE", plan: { id: "s500" }, allowance: 500, remaining: 500, cardLabel: "Visa •••• 4242" });
    // 31 January: the next payment is on the last day of February.
    expect(view.nextPaymentDate).toBe("2027-02-28T09:00:00.000Z");
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("refuses a declined card and takes nothing; a new card then works", async () => {
    const id = await createBusiness(t.db);
    await expect(changeSubscription(t.db, provider(), settings, req(id, "activate", "s250", DECLINE), clock)).rejects.toMatchObject({ code: "PY001" });
    expect(await business(id)).toMatchObject({ status: "TRIAL", message_allowance: 0 });
    expect((await payments(id)).map((p) => [p.status, p.invoice_number])).toEqual([["FAILED", null]]);
    await expect(changeSubscription(t.db, provider(), settings, req(id, "activate", "s250", VISA), clock)).resolves.toMatchObject({ status: "paid" });
  });

  it("waits for 3-D Secure: abandoned takes nothing, confirmed activates once", async () => {
    const id = await createBusiness(t.db);
    const out = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250", SECURE), clock);
    expect(out).toMatchObject({ status: "requires_action" });
    if (out.status !== "requires_action") throw new Error("expected 3-D Secure");
    const ref = out.actionUrl.split("/").pop()!;
    await answerAuthentication(t.db, decodeURIComponent(ref), false);
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).rejects.toMatchObject({ code: "PY002" });
    expect(await business(id)).toMatchObject({ status: "TRIAL" });
    const again = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250", SECURE), clock);
    if (again.status !== "requires_action") throw new Error("expected 3-D Secure");
    await answerAuthentication(t.db, decodeURIComponent(again.actionUrl.split("/").pop()!), true);
    await expect(confirmPayment(t.db, provider(), settings, id, again.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    await expect(confirmPayment(t.db, provider(), settings, id, again.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    expect((await payments(id)).filter((p) => p.status === "PAID")).toHaveLength(1);
    expect(await business(id)).toMatchObject({ message_allowance: 250 });
  });

  it("increases now pro rata (one charge on a double click), for this month only once, and lowers at renewal", async () => {
    clock = new Date(Date.UTC(2027, 2, 1));
    const id = await createBusiness(t.db);
    await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250"), clock).catch(() => undefined);
    await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250", VISA), clock);
    await charge(t.db, id, 200, { reason: "send", now: clock });
    // Half-way through March (31 days): 15.5 days left of £15 → £25 is £10 × 15.5/31 = £5.00.
    clock = new Date(Date.UTC(2027, 2, 16, 12));
    const a = await changeSubscription(t.db, provider(), settings, req(id, "increase", "s500"), clock);
    const b = await changeSubscription(t.db, provider(), settings, req(id, "increase", "s500"), clock).catch((e: unknown) => e);
    expect(a).toMatchObject({ status: "paid" });
    expect(b).toMatchObject({ code: "PY004" }); // already on it: no second charge
    const inc = (await payments(id)).find((p) => p.kind === "INCREASE")!;
    expect([inc.net_pence, inc.vat_pence, inc.total_pence]).toEqual([500, 100, 600]);
    expect(await business(id)).toMatchObject({ message_allowance: 500, allowance_used: 200 });

    await expect(changeSubscription(t.db, provider(), settings, req(id, "month", "s1000"), clock)).resolves.toMatchObject({ status: "paid" });
    await expect(changeSubscription(t.db, provider(), settings, req(id, "month", "s2500"), clock)).rejects.toMatchObject({ code: "PY008" });
    expect(await business(id)).toMatchObject({ message_allowance: 1000 });

    await expect(changeSubscription(t.db, provider(), settings, req(id, "lower", "s250"), clock)).resolves.toMatchObject({ status: "scheduled" });
    await charge(t.db, id, 100, { reason: "send", now: clock });
    await expect(changeSubscription(t.db, provider(), settings, req(id, "lower", "s250"), clock)).rejects.toMatchObject({ code: "PY003", data: { used: 300, allowance: 250 } });
    expect((await subscriptionView(t.db, id, settings, clock)).nextPlan?.id).toBe("s250"); // the earlier choice stands
    expect(await business(id)).toMatchObject({ message_allowance: 1000 }); // kept until the renewal
    clock = new Date(Date.UTC(2027, 3, 1, 0, 1));
    await renewDue(t.db, provider(), settings, clock);
    expect(await business(id)).toMatchObject({ message_allowance: 250, allowance_used: 0 });
    expect((await subscriptionView(t.db, id, settings, clock)).plan?.id).toBe("s250");
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("emails the Administrator each paid invoice with its PDF, and a failed renewal once", async () => {
    clock = new Date(Date.UTC(2029, 0, 10, 10));
    const withSupplier = { ...settings, supplier: { name: "Textcircle Ltd", address: ["1 Example Street", "London"], vatNumber: "GB 123 4567 89" } };
    const id = await createBusiness(t.db);
    await createUser(t.db, id, { email: "boss@example.test" });
    await createUser(t.db, id, { email: "helper@example.test", role: "TEAM" });
    await changeSubscription(t.db, provider(), withSupplier, req(id, "activate", "s250", FAILS_LATER), clock);
    for (const day of [10, 11, 13]) {
      clock = new Date(Date.UTC(2029, 1, day, 11));
      await renewDue(t.db, provider(), withSupplier, clock);
    }
    const emails = await t.db.selectFrom("emails").selectAll().where("business_id", "=", id).orderBy("id").execute();
    expect(emails.map((e) => [e.kind, e.to_address])).toEqual([
      ["invoice", "boss@example.test"],
      ["payment-failed", "boss@example.test"],
    ]);
    expect(emails[0].subject).toMatch(/VAT invoice INV-\d{6}/);
    const [pdf] = JSON.parse(emails[0].attachments!) as Array<{ filename: string; contentBase64: string }>;
    expect(Buffer.from(pdf.contentBase64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("gives a referred business and its referrer the referral discount once each, on that and the next invoice", async () => {
    clock = new Date(Date.UTC(2030, 0, 5, 10));
    const withReferral = { ...settings, referralDiscountPence: 1000 };
    const referrer = await createBusiness(t.db);
    await changeSubscription(t.db, provider(), withReferral, req(referrer, "activate", "s500", VISA), clock);
    const referred = await createBusiness(t.db);
    await t.db.updateTable("businesses").set({ referred_by_id: referrer }).where("id", "=", referred).execute();
    expect((await listReferrals(t.db, referrer)).map((r) => r.state)).toEqual(["pending"]);
    // A declined first payment awards nothing.
    await expect(changeSubscription(t.db, provider(), withReferral, req(referred, "activate", "s250", DECLINE), clock)).rejects.toMatchObject({ code: "PY001" });
    expect((await listReferrals(t.db, referrer)).map((r) => r.state)).toEqual(["pending"]);
    await changeSubscription(t.db, provider(), withReferral, req(referred, "activate", "s250", VISA), clock);
    const first = (await payments(referred)).find((p) => p.status === "PAID")!;
    // £15 − £10 referral = £5 + £1 VAT.
    expect([first.net_pence, first.referral_discount_pence, first.vat_pence, first.total_pence]).toEqual([1500, 1000, 100, 600]);
    expect((await listReferrals(t.db, referrer)).map((r) => r.state)).toEqual(["awarded"]);
    // The referrer's next invoice (its renewal) takes the £10 off, once.
    clock = new Date(Date.UTC(2030, 1, 5, 11));
    await renewDue(t.db, provider(), withReferral, clock);
    clock = new Date(Date.UTC(2030, 2, 5, 11));
    await renewDue(t.db, provider(), withReferral, clock);
    const renewals = (await payments(referrer)).filter((p) => p.kind === "RENEWAL" && p.status === "PAID");
    expect(renewals.map((p) => [p.referral_discount_pence, p.total_pence])).toEqual([
      [1000, 1800],
      [0, 3000],
    ]);
    expect((await listReferrals(t.db, referrer)).map((r) => r.state)).toEqual(["redeemed"]);
    // The referred business's renewals pay the full price: its discount was for the first month only.
    await renewDue(t.db, provider(), withReferral, clock);
    expect((await payments(referred)).filter((p) => p.kind === "RENEWAL").every((p) => p.referral_discount_pence === 0)).toBe(true);
  });

  it("runs a year of renewals with failures, a grace period and retries: ledger, invoice numbers and totals to the penny", async () => {
    clock = new Date(Date.UTC(2028, 0, 15, 10));
    const id = await createBusiness(t.db);
    await changeSubscription(t.db, provider(), settings, req(id, "activate", "s1000", FAILS_LATER), clock);
    await t.db.updateTable("subscriptions").set({ discount_percent: 10, discount_ends_at: "2028-06-01T00:00:00.000Z" }).where("business_id", "=", id).execute();
    const tick = async (to: Date) => {
      clock = to;
      while ((await renewDue(t.db, provider(), settings, clock)) > 0);
    };
    // February's renewal fails: payment-failed, sending goes on through the grace period, then stops.
    await tick(new Date(Date.UTC(2028, 1, 15, 11)));
    expect(await business(id)).toMatchObject({ status: "PAYMENT_FAILED", message_allowance: 1000 });
    expect(await charge(t.db, id, 1, { reason: "send", now: clock })).toBe(true);
    await tick(new Date(Date.UTC(2028, 1, 16, 12))); // the first retry fails too
    await tick(new Date(Date.UTC(2028, 1, 23, 12)));
    expect(await charge(t.db, id, 1, { reason: "send", now: clock })).toBe(false); // grace over
    expect((await subscriptionView(t.db, id, settings, clock)).sendingStopped).toBe(true);
    // The owner pays with another card: the account is lifted and a new period starts.
    await expect(payNow(t.db, provider(), settings, { businessId: id, businessName: "Shop", card: VISA, returnUrl: "/subscription" }, clock)).resolves.toMatchObject({ status: "paid" });
    expect(await business(id)).toMatchObject({ status: "SUBSCRIBED", payment_grace_ends_at: null, message_allowance: 1000, allowance_used: 0 });
    expect(await charge(t.db, id, 1, { reason: "send", now: clock })).toBe(true);
    // Then eleven more months run by themselves.
    for (let m = 2; m <= 12; m++) await tick(new Date(Date.UTC(2028, m, 15, 11)));
    const all = await payments(id);
    const paid = all.filter((p) => p.status === "PAID");
    expect(paid).toHaveLength(13); // activation + 12 renewals
    expect(all.filter((p) => p.status === "FAILED")).toHaveLength(all.length - 13);
    // Every paid row has an invoice number; numbers never repeat and never skip.
    const numbers = paid.map((p) => p.invoice_number!).sort((a, b) => a - b);
    expect(new Set(numbers).size).toBe(numbers.length);
    const allNumbers = (await t.db.selectFrom("payments").select("invoice_number").where("invoice_number", "is not", null).execute()).map((r) => r.invoice_number!).sort((a, b) => a - b);
    expect(allNumbers).toEqual(allNumbers.map((_, i) => i + 1));
    // The discount applies to renewals up to its end date, and each invoice's figures add up.
    const renewals = paid.filter((p) => p.kind === "RENEWAL");
    expect(renewals.map((p) => p.company_discount_pence)).toEqual([450, 450, 450, 450, 0, 0, 0, 0, 0, 0, 0, 0]);
    for (const p of paid) {
      const expected = amounts(p.net_pence, 20, { companyPercent: p.company_discount_pence ? 10 : 0 });
      expect([p.vat_pence, p.total_pence]).toEqual([expected.vatPence, expected.totalPence]);
    }
    expect(paid.reduce((n, p) => n + p.total_pence, 0)).toBe(5400 + 4 * 4860 + 8 * 5400);
    // One allowance grant per paid period, all reconciled.
    const grants = await t.db.selectFrom("credit_ledger").select("credits").where("business_id", "=", id).where("kind", "=", "GRANT").where("pool", "=", "ALLOWANCE").execute();
    expect(grants).toHaveLength(13);
    expect(await reconcile(t.db, id)).toEqual([]);
    const view = await subscriptionView(t.db, id, settings, clock);
    expect(view.status).toBe("ACTIVE");
  });
});
