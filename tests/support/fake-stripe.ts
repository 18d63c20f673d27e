// A local HTTP server that answers like Stripe's REST API (v1), for the Stripe adapter's tests:
//   POST /v1/customers, POST /v1/payment_intents (confirmed at once), GET /v1/payment_intents/{id},
//   POST /v1/checkout/sessions, GET /v1/checkout/sessions/{id}, POST /v1/refunds.
// It checks the secret key (Bearer), replays a POST with an Idempotency-Key it has seen (as Stripe does),
// records every request, and can be told to fail the next requests with a 500. Test payment methods behave
// like Stripe's own: pm_card_visa succeeds, pm_card_chargeDeclined is declined, pm_card_authenticationRequired
// asks for 3-D Secure (and is declined with authentication_required off-session). What a person does on
// Stripe's pages (pay on the Checkout page, pass or fail 3-D Secure) is done with completeCheckout and
// authenticate; signEvent signs a webhook event with the package's own test-header helper.
import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

export interface RecordedStripeRequest {
  method: string;
  path: string;
  form: URLSearchParams;
  idempotencyKey: string | null;
}

type Obj = Record<string, unknown>;

export interface FakeStripe {
  /** Give as STRIPE_API_BASE: http://127.0.0.1:port */
  readonly url: string;
  readonly requests: RecordedStripeRequest[];
  readonly intents: Map<string, Obj>;
  readonly sessions: Map<string, Obj>;
  readonly refunds: Obj[];
  readonly customers: Obj[];
  /** The person pays on the Checkout page with this test payment method. */
  completeCheckout(sessionId: string, paymentMethod?: string): Obj;
  expireCheckout(sessionId: string): void;
  /** The person passes (or fails) the bank's 3-D Secure check. */
  authenticate(intentId: string, ok: boolean): void;
  /** Answer the next `times` requests with HTTP 500. */
  fail(times?: number): void;
  /** A webhook body and its Stripe-Signature header (timestamp in seconds, now by default). */
  signEvent(type: string, object: Obj, options?: { secret?: string; id?: string; timestamp?: number }): { id: string; payload: string; header: string };
  close(): Promise<void>;
}

const CARDS: Record<string, { brand: string; last4: string; behaviour: "succeeds" | "declines" | "authenticates" }> = {
  pm_card_visa: { brand: "visa", last4: "4242", behaviour: "succeeds" },
  pm_card_chargeDeclined: { brand: "visa", last4: "0002", behaviour: "declines" },
  pm_card_authenticationRequired: { brand: "visa", last4: "3184", behaviour: "authenticates" },
};

function paymentMethod(id: string): Obj {
  const c = CARDS[id] ?? { brand: "visa", last4: "0000" };
  return { id, object: "payment_method", type: "card", card: { brand: c.brand, last4: c.last4, exp_month: 12, exp_year: 2040 } };
}

function metadataOf(form: URLSearchParams, prefix = "metadata"): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = new RegExp(`^${prefix.replace(/[[\]]/g, "\\$&")}\\[([^\\]]+)\\]$`).exec(k);
    if (m) out[m[1]] = v;
  }
  return out;
}

export async function startFakeStripe(options: { secretKey: string; webhookSecret: string }): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const intents = new Map<string, Obj>();
  const sessions = new Map<string, Obj>();
  const refunds: Obj[] = [];
  const customers: Obj[] = [];
  const replays = new Map<string, { status: number; body: string }>();
  let failures = 0;
  let n = 0;
  const id = (prefix: string) => `${prefix}_fake${String(++n).padStart(8, "0")}`;
  let base = "";

  const error = (status: number, body: Obj) => ({ status, body: { error: body } });

  function newIntent(fields: { amount: number; customer: string | null; paymentMethod: string | null; metadata: Record<string, string>; description: string | null }): Obj {
    const pi: Obj = {
      id: id("pi"),
      object: "payment_intent",
      amount: fields.amount,
      currency: "gbp",
      customer: fields.customer,
      description: fields.description,
      metadata: fields.metadata,
      payment_method: fields.paymentMethod,
      status: "requires_payment_method",
      next_action: null,
      last_payment_error: null,
      amount_refunded: 0,
    };
    intents.set(pi.id as string, pi);
    return pi;
  }
  const expandIntent = (pi: Obj): Obj => ({ ...pi, payment_method: pi.payment_method ? paymentMethod(pi.payment_method as string) : null });

  function route(method: string, path: string, form: URLSearchParams): { status: number; body: unknown } {
    if (method === "POST" && path === "/v1/customers") {
      const c = { id: id("cus"), object: "customer", name: form.get("name"), metadata: metadataOf(form) };
      customers.push(c);
      return { status: 200, body: c };
    }
    if (method === "POST" && path === "/v1/payment_intents") {
      const pmId = form.get("payment_method");
      const pi = newIntent({ amount: Number(form.get("amount")), customer: form.get("customer"), paymentMethod: pmId, metadata: metadataOf(form), description: form.get("description") });
      const card = pmId ? CARDS[pmId] : undefined;
      if (!card) return error(400, { type: "invalid_request_error", code: "resource_missing", message: `No such PaymentMethod: '${pmId}'` });
      const offSession = form.get("off_session") === "true";
      if (card.behaviour === "declines") {
        pi.last_payment_error = { code: "card_declined", decline_code: "generic_decline" };
        return error(402, { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined.", payment_intent: expandIntent(pi) });
      }
      if (card.behaviour === "authenticates") {
        if (offSession) {
          pi.last_payment_error = { code: "authentication_required" };
          return error(402, { type: "card_error", code: "authentication_required", decline_code: "authentication_required", message: "This payment needs authentication.", payment_intent: expandIntent(pi) });
        }
        pi.status = "requires_action";
        pi.next_action = { type: "redirect_to_url", redirect_to_url: { url: `${base}/3ds/${pi.id as string}`, return_url: form.get("return_url") } };
        return { status: 200, body: expandIntent(pi) };
      }
      pi.status = "succeeded";
      return { status: 200, body: expandIntent(pi) };
    }
    let m = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && m) {
      const pi = intents.get(m[1]);
      return pi ? { status: 200, body: expandIntent(pi) } : error(404, { type: "invalid_request_error", code: "resource_missing", message: "No such payment_intent" });
    }
    if (method === "POST" && path === "/v1/checkout/sessions") {
      const sid = id("cs");
      const session: Obj = {
        id: sid,
        object: "checkout.session",
        mode: form.get("mode"),
        customer: form.get("customer"),
        amount_total: Number(form.get("line_items[0][price_data][unit_amount]")),
        currency: form.get("line_items[0][price_data][currency]"),
        metadata: metadataOf(form),
        payment_intent_metadata: metadataOf(form, "payment_intent_data[metadata]"),
        setup_future_usage: form.get("payment_intent_data[setup_future_usage]"),
        success_url: form.get("success_url"),
        cancel_url: form.get("cancel_url"),
        status: "open",
        payment_status: "unpaid",
        payment_intent: null,
        url: `${base}/checkout/${sid}`,
      };
      sessions.set(sid, session);
      return { status: 200, body: session };
    }
    m = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && m) {
      const s = sessions.get(m[1]);
      if (!s) return error(404, { type: "invalid_request_error", code: "resource_missing", message: "No such checkout.session" });
      const pi = s.payment_intent ? intents.get(s.payment_intent as string) : null;
      return { status: 200, body: { ...s, payment_intent: pi ? expandIntent(pi) : null } };
    }
    if (method === "POST" && path === "/v1/refunds") {
      const pi = intents.get(form.get("payment_intent") ?? "");
      if (!pi || pi.status !== "succeeded") return error(400, { type: "invalid_request_error", code: "charge_not_refundable", message: "Nothing to refund" });
      const amount = Number(form.get("amount") ?? (pi.amount as number) - (pi.amount_refunded as number));
      if (amount > (pi.amount as number) - (pi.amount_refunded as number)) return error(400, { type: "invalid_request_error", code: "amount_too_large", message: "Refund is larger than what is left" });
      pi.amount_refunded = (pi.amount_refunded as number) + amount;
      const refund = { id: id("re"), object: "refund", amount, currency: "gbp", payment_intent: pi.id, status: "succeeded", metadata: metadataOf(form) };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return error(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${path})` });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const form = new URLSearchParams(req.method === "GET" ? url.search : Buffer.concat(chunks).toString("utf8"));
      const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
      requests.push({ method: req.method ?? "GET", path: url.pathname, form, idempotencyKey: key });
      const send = (status: number, body: string) => {
        res.writeHead(status, { "Content-Type": "application/json", "Request-Id": `req_${n}` });
        res.end(body);
      };
      if (req.headers.authorization !== `Bearer ${options.secretKey}`) {
        return send(401, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      }
      if (failures > 0) {
        failures--;
        return send(500, JSON.stringify({ error: { type: "api_error", message: "Something went wrong on Stripe's end." } }));
      }
      const replayKey = key && req.method === "POST" ? `${url.pathname} ${key}` : null;
      const seen = replayKey ? replays.get(replayKey) : undefined;
      if (seen) return send(seen.status, seen.body);
      const out = route(req.method ?? "GET", url.pathname, form);
      const body = JSON.stringify(out.body);
      if (replayKey) replays.set(replayKey, { status: out.status, body });
      send(out.status, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stripe = new Stripe(options.secretKey);

  return {
    url: base,
    requests,
    intents,
    sessions,
    refunds,
    customers,
    completeCheckout(sessionId, pm = "pm_card_visa") {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`no session ${sessionId}`);
      const pi = newIntent({ amount: s.amount_total as number, customer: s.customer as string, paymentMethod: pm, metadata: s.payment_intent_metadata as Record<string, string>, description: null });
      pi.status = CARDS[pm]?.behaviour === "declines" ? "requires_payment_method" : "succeeded";
      if (pi.status === "succeeded") Object.assign(s, { status: "complete", payment_status: "paid", payment_intent: pi.id });
      return expandIntent(pi);
    },
    expireCheckout(sessionId) {
      const s = sessions.get(sessionId);
      if (s) Object.assign(s, { status: "expired", url: null });
    },
    authenticate(intentId, ok) {
      const pi = intents.get(intentId);
      if (!pi) throw new Error(`no payment intent ${intentId}`);
      if (ok) Object.assign(pi, { status: "succeeded", next_action: null });
      else Object.assign(pi, { status: "requires_payment_method", next_action: null, last_payment_error: { code: "payment_intent_authentication_failure" } });
    },
    fail(times = 1) {
      failures = times;
    },
    signEvent(type, object, o = {}) {
      const eventId = o.id ?? id("evt");
      const payload = JSON.stringify({ id: eventId, object: "event", type, api_version: "2026-10-28.endive", created: Math.floor(Date.now() / 1000), data: { object }, livemode: false });
      const header = stripe.webhooks.generateTestHeaderString({ payload, secret: o.secret ?? options.webhookSecret, timestamp: o.timestamp });
      return { id: eventId, payload, header };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
