// The billing service against the Stripe adapter, with a local server answering like Stripe's API: a plan is
// activated through Stripe Checkout (customer created once, the card saved), an increase charges the pro-rata
// amount once, a declined card takes nothing, 3-D Secure goes through the bank's page, a lower plan is charged
// at the renewal, a failed renewal puts the account in payment-failed and paying with a new card lifts it, and
// a refund becomes a credit note.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grantTrialCredits, reconcile } from "~/domain/billing/credits.server";
import { refundInvoice } from "~/domain/billing/credit-notes.server";
import { handlePaymentEvent } from "~/domain/billing/payment-events.server";
import { DEFAULT_BILLING } from "~/domain/billing/money";
import { changeSubscription, confirmPayment, payNow, renewDue } from "~/domain/billing/subscription.server";
import { StripePaymentProvider } from "~/providers/payments/stripe.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";

const SECRET = "sk_test_fake0123456789abcdef";
const WEBHOOK_SECRET = "whsec_fake0123456789abcdef";
const settings = DEFAULT_BILLING;

describe.each(DIALECTS)("Stripe payments (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let fake: FakeStripe;
  let clock = new Date(Date.UTC(2027, 2, 1, 9));
  const provider = () => new StripePaymentProvider(t.db, { secretKey: SECRET, webhookSecret: WEBHOOK_SECRET, apiBase: fake.url, publicUrl: "https://textcircle.test" }, () => clock);
  const req = (businessId: number, kind: "activate" | "increase" | "month" | "lower", planId: string) => ({ businessId, businessName: "Harbour Fish Bar", kind, planId, returnUrl: "/subscription/confirm/{id}" });
  const business = (id: number) => t.db.selectFrom("businesses").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const payments = (id: number) => t.db.selectFrom("payments").selectAll().where("business_id", "=", id).orderBy("id").execute();
  /** The PaymentIntents asked for (for one business's Stripe customer when given). */
  const intentsCreated = (businessId?: number) => {
    const customer = businessId === undefined ? null : fake.customers.find((c) => (c.metadata as Record<string, string>).business_id === String(businessId))?.id;
    return fake.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents" && (customer === null || r.form.get("customer") === customer));
  };

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET, webhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await fake?.close();
  });

  /** A trial account that activates s250 on Stripe's Checkout page and comes back. */
  async function activated(card = "pm_card_visa") {
    clock = new Date(Date.UTC(2027, 2, 1, 9));
    const id = await createBusiness(t.db, { trialCredits: 0 });
    await grantTrialCredits(t.db, id, 50, clock);
    const out = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250"), clock);
    if (out.status !== "requires_action") throw new Error("expected the Checkout page");
    const session = [...fake.sessions.values()].find((s) => s.url === out.actionUrl)!;
    fake.completeCheckout(session.id as string, card);
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    return { id, paymentId: out.paymentId, session };
  }

  it("activates through Stripe Checkout: one customer, the card saved for renewals, an invoice once", async () => {
    clock = new Date(Date.UTC(2027, 2, 1, 9));
    const id = await createBusiness(t.db, { trialCredits: 0 });
    await grantTrialCredits(t.db, id, 50, clock);
    const out = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250"), clock);
    expect(out).toMatchObject({ status: "requires_action" });
    if (out.status !== "requires_action") return;
    expect(out.actionUrl).toContain(`${fake.url}/checkout/cs_`);
    const session = [...fake.sessions.values()].find((s) => s.url === out.actionUrl)!;
    // £15 + VAT, in pence; the card kept for the renewals; back to our confirmation page.
    expect(session).toMatchObject({ amount_total: 1800, currency: "gbp", setup_future_usage: "off_session", success_url: `https://textcircle.test/subscription/confirm/${out.paymentId}`, cancel_url: "https://textcircle.test/subscription" });
    // Stripe unreachable when the owner comes back: PY007, nothing changes.
    fake.fail(2);
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).rejects.toMatchObject({ code: "PY007" });
    // Back before paying (or a second click): still waiting, nothing granted, no second page.
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).resolves.toMatchObject({ status: "requires_action" });
    const again = await changeSubscription(t.db, provider(), settings, req(id, "activate", "s250"), clock);
    expect(again).toMatchObject({ status: "requires_action", actionUrl: out.actionUrl });
    expect(await business(id)).toMatchObject({ status: "TRIAL", message_allowance: 0 });

    fake.completeCheckout(session.id as string);
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    await expect(confirmPayment(t.db, provider(), settings, id, out.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    const [paid] = await payments(id);
    expect(paid).toMatchObject({ status: "PAID", total_pence: 1800 });
    expect(paid.provider_ref).toMatch(/^pi_/);
    expect(paid.invoice_number).toBeGreaterThan(0);
    const sub = await t.db.selectFrom("subscriptions").selectAll().where("business_id", "=", id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ payment_method: "pm_card_visa", card_label: "Visa •••• 4242" });
    expect(await business(id)).toMatchObject({ status: "SUBSCRIBED", message_allowance: 250 });
    expect(fake.customers.filter((c) => (c.metadata as Record<string, string>).business_id === String(id))).toHaveLength(1);
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("charges an increase pro rata once, with the card on file and our key", async () => {
    const { id } = await activated();
    const before = intentsCreated().length;
    // Half-way through March: (£25 − £15) × 15.5/31 = £5.00 + VAT.
    clock = new Date(Date.UTC(2027, 2, 16, 21));
    await expect(changeSubscription(t.db, provider(), settings, req(id, "increase", "s500"), clock)).resolves.toMatchObject({ status: "paid" });
    await expect(changeSubscription(t.db, provider(), settings, req(id, "increase", "s500"), clock)).rejects.toMatchObject({ code: "PY004" });
    const created = intentsCreated().slice(before);
    expect(created).toHaveLength(1);
    expect(created[0].form.get("amount")).toBe("600");
    expect(created[0].form.get("payment_method")).toBe("pm_card_visa");
    expect(created[0].form.get("off_session")).toBe("false");
    const inc = (await payments(id)).find((p) => p.kind === "INCREASE")!;
    expect(created[0].idempotencyKey).toBe(`payment:${inc.id}`);
    expect(inc).toMatchObject({ status: "PAID", net_pence: 500, vat_pence: 100, total_pence: 600 });
    expect(await business(id)).toMatchObject({ message_allowance: 500 });
    // The customer is remembered: no second one for the same business.
    expect(fake.customers.filter((c) => (c.metadata as Record<string, string>).business_id === String(id))).toHaveLength(1);
  });

  it("takes nothing when the card on file is declined, and says so", async () => {
    const { id } = await activated();
    await t.db.updateTable("subscriptions").set({ payment_method: "pm_card_chargeDeclined" }).where("business_id", "=", id).execute();
    clock = new Date(Date.UTC(2027, 2, 10));
    await expect(changeSubscription(t.db, provider(), settings, req(id, "increase", "s1000"), clock)).rejects.toMatchObject({ code: "PY001" });
    const inc = (await payments(id)).filter((p) => p.kind === "INCREASE");
    expect(inc.map((p) => [p.status, p.failure_code, p.invoice_number])).toEqual([["FAILED", "card_declined", null]]);
    expect(await business(id)).toMatchObject({ message_allowance: 250 });
  });

  it("sends the owner to the bank for 3-D Secure; a failed check takes nothing, a passed one pays once", async () => {
    const { id } = await activated();
    await t.db.updateTable("subscriptions").set({ payment_method: "pm_card_authenticationRequired" }).where("business_id", "=", id).execute();
    clock = new Date(Date.UTC(2027, 2, 10));
    const first = await changeSubscription(t.db, provider(), settings, req(id, "month", "s500"), clock);
    if (first.status !== "requires_action") throw new Error("expected 3-D Secure");
    expect(first.actionUrl).toMatch(new RegExp(`^${fake.url}/3ds/pi_`));
    fake.authenticate(first.actionUrl.split("/").pop()!, false);
    await expect(confirmPayment(t.db, provider(), settings, id, first.paymentId, clock)).rejects.toMatchObject({ code: "PY002" });
    const second = await changeSubscription(t.db, provider(), settings, req(id, "month", "s500"), clock);
    if (second.status !== "requires_action") throw new Error("expected 3-D Secure");
    expect(second.paymentId).not.toBe(first.paymentId);
    fake.authenticate(second.actionUrl.split("/").pop()!, true);
    await expect(confirmPayment(t.db, provider(), settings, id, second.paymentId, clock)).resolves.toMatchObject({ status: "paid" });
    expect((await payments(id)).filter((p) => p.kind === "MONTH_INCREASE").map((p) => p.status)).toEqual(["FAILED", "PAID"]);
    expect(await business(id)).toMatchObject({ message_allowance: 500 });
  });

  it("charges a lower plan from the renewal, off-session", async () => {
    const { id } = await activated();
    clock = new Date(Date.UTC(2027, 2, 5));
    await changeSubscription(t.db, provider(), settings, req(id, "increase", "s1000"), clock);
    await expect(changeSubscription(t.db, provider(), settings, req(id, "lower", "s500"), clock)).resolves.toMatchObject({ status: "scheduled" });
    const before = intentsCreated(id).length;
    clock = new Date(Date.UTC(2027, 3, 1, 9, 1));
    await renewDue(t.db, provider(), settings, clock, 1000);
    const created = intentsCreated(id).slice(before);
    expect(created.map((r) => [r.form.get("amount"), r.form.get("off_session")])).toEqual([["3000", "true"]]);
    expect(await business(id)).toMatchObject({ status: "SUBSCRIBED", message_allowance: 500, allowance_used: 0 });
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("puts a failed renewal in payment-failed; paying with a new card on Stripe's page lifts it (also by webhook alone)", async () => {
    const { id } = await activated();
    // A card that needs the owner's confirmation cannot be charged with nobody there.
    await t.db.updateTable("subscriptions").set({ payment_method: "pm_card_authenticationRequired" }).where("business_id", "=", id).execute();
    clock = new Date(Date.UTC(2027, 3, 1, 9, 1));
    await renewDue(t.db, provider(), settings, clock);
    expect(await business(id)).toMatchObject({ status: "PAYMENT_FAILED" });
    const renewal = (await payments(id)).filter((p) => p.kind === "RENEWAL");
    expect(renewal.map((p) => [p.status, p.failure_code])).toEqual([["FAILED", "authentication_required"]]);

    // Stripe unreachable: nothing changes, the owner is told to try again.
    fake.fail(2);
    clock = new Date(Date.UTC(2027, 3, 2, 10));
    await expect(payNow(t.db, provider(), settings, { businessId: id, businessName: "Harbour Fish Bar", newCard: true, returnUrl: "/subscription/confirm/{id}" }, clock)).rejects.toMatchObject({
      code: "PY007",
    });
    expect(await business(id)).toMatchObject({ status: "PAYMENT_FAILED" });

    const out = await payNow(t.db, provider(), settings, { businessId: id, businessName: "Harbour Fish Bar", newCard: true, returnUrl: "/subscription/confirm/{id}" }, clock);
    if (out.status !== "requires_action") throw new Error("expected the Checkout page");
    const session = [...fake.sessions.values()].find((s) => s.url === out.actionUrl)!;
    fake.completeCheckout(session.id as string);
    // The owner closes the tab: Stripe's event alone settles the payment and lifts the account.
    const event = { id: `evt_${id}_completed`, type: "checkout.session.completed", object: { ...session, status: "complete" } };
    await expect(handlePaymentEvent(t.db, provider(), settings, event, clock)).resolves.toBe("processed");
    await expect(handlePaymentEvent(t.db, provider(), settings, event, clock)).resolves.toBe("duplicate");
    expect(await business(id)).toMatchObject({ status: "SUBSCRIBED", payment_grace_ends_at: null, message_allowance: 250 });
    expect((await payments(id)).filter((p) => p.kind === "RENEWAL" && p.status === "PAID")).toHaveLength(1);
    const sub = await t.db.selectFrom("subscriptions").selectAll().where("business_id", "=", id).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ status: "ACTIVE", payment_method: "pm_card_visa", failed_at: null });
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("refunds part of an invoice through Stripe as a credit note, once per key and once per refund", async () => {
    const { id } = await activated();
    const paid = (await payments(id))[0];
    const key = `refund-test:${id}`;
    const note = await refundInvoice(t.db, provider(), settings, { invoiceNumber: paid.invoice_number!, amountPence: 600, reason: "Goodwill", idempotencyKey: key }, clock);
    expect(note).toMatchObject({ status: "ISSUED", total_pence: 600, vat_pence: 100, net_pence: 500 });
    await refundInvoice(t.db, provider(), settings, { invoiceNumber: paid.invoice_number!, amountPence: 600, reason: "Goodwill", idempotencyKey: key }, clock);
    const mine = fake.refunds.filter((r) => r.payment_intent === paid.provider_ref);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ amount: 600, metadata: { textcircle_refund: `creditnote:${note.id}` } });
    // Stripe's own event for our refund issues nothing new; a refund made on Stripe's dashboard is a new note.
    await handlePaymentEvent(t.db, provider(), settings, { id: `evt_${id}_r1`, type: "refund.created", object: mine[0] }, clock);
    await handlePaymentEvent(t.db, provider(), settings, { id: `evt_${id}_r2`, type: "refund.created", object: { id: `re_dash_${id}`, object: "refund", amount: 300, payment_intent: paid.provider_ref, status: "succeeded", metadata: {} } }, clock);
    const notes = await t.db.selectFrom("credit_notes").selectAll().where("business_id", "=", id).orderBy("number").execute();
    expect(notes.map((n) => [n.status, n.total_pence, n.provider_ref])).toEqual([
      ["ISSUED", 600, mine[0].id],
      ["ISSUED", 300, `re_dash_${id}`],
    ]);
    expect(notes[1].number).toBe(notes[0].number! + 1);
    // No more than the invoice's total is ever refunded.
    await expect(refundInvoice(t.db, provider(), settings, { invoiceNumber: paid.invoice_number!, amountPence: 1000, reason: "Too much", idempotencyKey: `${key}:2` }, clock)).rejects.toMatchObject({
      code: "PY009",
      data: { left: 900 },
    });
  });
});
