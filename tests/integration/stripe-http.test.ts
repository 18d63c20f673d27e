// The built app with PAYMENT_PROVIDER=stripe and a local fake of Stripe's API: the subscription page has no card
// fields (the card is typed on Stripe's page, where activating sends the owner), and POST /webhooks/stripe
// takes an event signed with the webhook secret once: a forged, stale or missing signature is refused with
// nothing done, a replayed event changes nothing. Start-up refuses a Stripe configuration without its keys.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { grantTrialCredits } from "~/domain/billing/credits.server";
import { ConfigError, loadConfig } from "~/lib/config.server";
import { DIALECTS } from "../support/db";
import { createAccount } from "../support/factories";
import { startFakeStripe, type FakeStripe } from "../support/fake-stripe";
import { pageText, startTestApp, type TestApp } from "../support/server";

const SECRET = "sk_test_fakehttp0123456789";
const WEBHOOK_SECRET = "whsec_fakehttp0123456789";

describe("Stripe configuration", () => {
  it("is checked at start-up: the keys and the public address are required, and must look right", () => {
    expect(() => loadConfig({ PAYMENT_PROVIDER: "stripe" })).toThrow(ConfigError);
    const bad = () => loadConfig({ PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: "pk_test_wrongkind123" });
    expect(bad).toThrow("STRIPE_SECRET_KEY: must be a Stripe secret key");
    expect(bad).toThrow("STRIPE_WEBHOOK_SECRET: is required when PAYMENT_PROVIDER=stripe");
    expect(bad).toThrow("PUBLIC_URL: is required when PAYMENT_PROVIDER=stripe");
    const ok = loadConfig({ PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: SECRET, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, PUBLIC_URL: "https://textcircle.test" });
    expect(ok.billing.stripe).toEqual({ secretKey: SECRET, webhookSecret: WEBHOOK_SECRET, apiBase: undefined });
    expect(ok.billing.simulatorServed).toBe(false);
  });
});

describe("supplier configuration", () => {
  it("names a plausible demonstration supplier until all three are set, and checks them", () => {
    const demo = loadConfig({});
    expect(demo.billing.supplier).toEqual({ name: "Textcircle Ltd", address: ["20 Station Road", "Cambridge", "CB1 2JD", "United Kingdom"], vatNumber: "GB 274 1834 51" });
    expect(demo.billing.supplierConfigured).toBe(false);
    const real = loadConfig({ SUPPLIER_NAME: "Circle Texts Ltd", SUPPLIER_ADDRESS: "4 Quay Street|Bristol|BS1 4DB", SUPPLIER_VAT_NUMBER: "GB 198 7654 32" });
    expect(real.billing.supplier).toEqual({ name: "Circle Texts Ltd", address: ["4 Quay Street", "Bristol", "BS1 4DB"], vatNumber: "GB 198 7654 32" });
    expect(real.billing.supplierConfigured).toBe(true);
    expect(() => loadConfig({ SUPPLIER_ADDRESS: "Only one line" })).toThrow("SUPPLIER_ADDRESS: must be at least two address lines");
    expect(() => loadConfig({ SUPPLIER_VAT_NUMBER: "123" })).toThrow("SUPPLIER_VAT_NUMBER: must be a VAT registration number");
  });
});

describe.each(DIALECTS)("Stripe over HTTP (%s)", (dialect) => {
  let fake: FakeStripe;
  let app: TestApp;

  beforeAll(async () => {
    fake = await startFakeStripe({ secretKey: SECRET, webhookSecret: WEBHOOK_SECRET });
    app = await startTestApp({
      dialect,
      env: { PAYMENT_PROVIDER: "stripe", STRIPE_SECRET_KEY: SECRET, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url, PUBLIC_URL: "https://textcircle.test" },
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  const post = (payload: string, headers: Record<string, string>) =>
    fetch(`${app.url}/webhooks/stripe`, { method: "POST", body: payload, headers: { "Content-Type": "application/json", ...headers } });

  async function activatingOwner() {
    const account = await createAccount(app.db, { trialCredits: 0 });
    await grantTrialCredits(app.db, account.businessId, 50, new Date());
    const client = app.client();
    const { token } = await createSession(app.db, account.id, "WEB", new Date());
    client.cookies.set("tc_session", token);
    return { account, client };
  }

  it("activates on Stripe's page: no card fields here, the owner is sent to Checkout, Stripe's event settles it once", async () => {
    const { account, client } = await activatingOwner();
    const html = await (await client.get("/subscription")).text();
    expect(html).not.toContain('name="number"');
    expect(pageText(html)).toContain("You will enter your card on our payment provider's secure page");
    const res = await client.post("/subscription", { intent: "activate", plan: "s500" });
    expect(res.status).toBe(302);
    const checkout = res.headers.get("location")!;
    expect(checkout.startsWith(`${fake.url}/checkout/cs_`)).toBe(true);
    const session = fake.sessions.get(checkout.split("/").pop()!)!;
    fake.completeCheckout(session.id as string);

    const event = fake.signEvent("checkout.session.completed", { ...session, status: "complete" });
    const first = await post(event.payload, { "Stripe-Signature": event.header });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, outcome: "processed" });
    const replay = await post(event.payload, { "Stripe-Signature": event.header });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: "duplicate" });
    const paid = await app.db.selectFrom("payments").select(["status", "invoice_number"]).where("business_id", "=", account.businessId).execute();
    expect(paid.map((p) => p.status)).toEqual(["PAID"]);
    expect(await app.db.selectFrom("payment_events").select("id").where("event_id", "=", event.id).execute()).toHaveLength(1);
    const b = await app.db.selectFrom("businesses").select(["status", "message_allowance"]).where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(b).toEqual({ status: "SUBSCRIBED", message_allowance: 500 });
    // The owner's return to the confirmation page afterwards changes nothing more.
    const back = await client.get(`/subscription/confirm/${new URL(session.success_url as string).pathname.split("/").pop()}`);
    expect(back.status).toBe(302);
    expect((await app.db.selectFrom("payments").select("id").where("business_id", "=", account.businessId).where("status", "=", "PAID").execute()).length).toBe(1);
  });

  it("refuses a forged, stale or missing signature, and does nothing with the event", async () => {
    const { account, client } = await activatingOwner();
    const res = await client.post("/subscription", { intent: "activate", plan: "s250" });
    const session = fake.sessions.get(res.headers.get("location")!.split("/").pop()!)!;
    // Giving up on Stripe's page leads back to the plan, where the payment waits with a link to continue it.
    expect(session.cancel_url).toBe("https://textcircle.test/subscription");
    expect(await (await client.get("/subscription")).text()).toContain(`href="${session.url as string}"`);
    fake.completeCheckout(session.id as string);
    const object = { ...session, status: "complete" };
    const forged = fake.signEvent("checkout.session.completed", object, { secret: "whsec_someoneelse0123456" });
    expect((await post(forged.payload, { "Stripe-Signature": forged.header })).status).toBe(400);
    const stale = fake.signEvent("checkout.session.completed", object, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect((await post(stale.payload, { "Stripe-Signature": stale.header })).status).toBe(400);
    const good = fake.signEvent("checkout.session.completed", object);
    expect((await post(good.payload, {})).status).toBe(400);
    // The body changed after signing.
    expect((await post(good.payload.replace('"complete"', '"expired"'), { "Stripe-Signature": good.header })).status).toBe(400);
    expect(await app.db.selectFrom("payment_events").select("id").where("event_id", "in", [forged.id, stale.id, good.id]).execute()).toEqual([]);
    const pay = await app.db.selectFrom("payments").select("status").where("business_id", "=", account.businessId).execute();
    expect(pay.map((p) => p.status)).toEqual(["REQUIRES_ACTION"]);
    // Not JSON, another method: refused before any signature check.
    expect((await fetch(`${app.url}/webhooks/stripe`, { method: "POST", body: "a=b", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(415);
    expect((await fetch(`${app.url}/webhooks/stripe`)).status).toBe(405);
    // The signed event, once, settles it.
    expect((await post(good.payload, { "Stripe-Signature": good.header })).status).toBe(200);
    const after = await app.db.selectFrom("payments").select("status").where("business_id", "=", account.businessId).execute();
    expect(after.map((p) => p.status)).toEqual(["PAID"]);
    expect(app.serverErrors).not.toMatch(/webhook failed/);
  });
});
