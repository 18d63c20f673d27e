// The Stripe adapter, through Stripe's official Node library. Money is taken with PaymentIntents: our own
// renewal round decides when a period is due, what it costs (pro rata, discounts, VAT) and numbers the invoice,
// so Stripe is asked for exactly one amount per payment row, under that row's idempotency key.
//
//   - A business is a Stripe Customer (created once, remembered in payment_customers).
//   - A new card is never typed into our pages: charge without a saved card opens a Stripe Checkout page (mode
//     payment, the card saved for later off-session use) and answers requires_action with its address; the
//     owner comes back to our confirmation page, which asks retrieve how it went.
//   - The card on file is charged with a confirmed PaymentIntent; a card that needs 3-D Secure answers
//     requires_action with the bank's page (next_action.redirect_to_url) when the owner is there, and is a
//     decline (authentication_required) in a renewal nobody is there to confirm.
//   - Webhooks are checked with stripe.webhooks.constructEvent (signature and age).
// A card decline is an answer (declined); a network fault, Stripe's 5xx or 429 is a retryable
// PaymentProviderError; a request Stripe refuses as malformed or unauthorised is a permanent one.
import Stripe from "stripe";
import type { Database } from "#db/index";
import { PaymentProviderError, type ChargeRequest, type ChargeResult, type DeclineCode, type PaymentEvent, type PaymentProvider, type RefundRequest } from "./types";

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Only for tests against a local fake: http://127.0.0.1:port */
  apiBase?: string;
  /** Where Stripe sends the owner back (our public address). */
  publicUrl: string;
}

type PaymentIntent = Stripe.PaymentIntent;
type CheckoutSession = Awaited<ReturnType<Stripe["checkout"]["sessions"]["retrieve"]>>;

const PROVIDER = "stripe";

export class StripePaymentProvider implements PaymentProvider {
  readonly name = PROVIDER;
  readonly cardEntry = "hosted" as const;
  private readonly stripe: Stripe;

  constructor(
    private readonly db: Database,
    private readonly settings: StripeSettings,
    private readonly now: () => Date,
  ) {
    const base = settings.apiBase ? new URL(settings.apiBase) : null;
    this.stripe = new Stripe(settings.secretKey, {
      // Our own retries (the renewal round, the owner's next click) decide when to ask again.
      maxNetworkRetries: 1,
      timeout: 20_000,
      telemetry: false,
      ...(base ? { host: base.hostname, port: base.port || (base.protocol === "https:" ? 443 : 80), protocol: base.protocol === "https:" ? "https" : "http" } : {}),
    });
  }

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    // Card numbers never reach our server with a real processor: a new card is entered on Stripe's page.
    if (request.card) return { status: "declined", reference: null, code: "invalid_card" };
    return this.call(async () => {
      const customer = await this.customerFor(request.customer.businessId, request.customer.name);
      const metadata = { textcircle_payment: request.idempotencyKey, business_id: String(request.customer.businessId) };
      if (!request.paymentMethod) {
        if (request.offSession) return { status: "declined", reference: null, code: "authentication_required" } as const;
        const back = this.absolute(request.returnUrl);
        const session = await this.stripe.checkout.sessions.create(
          {
            mode: "payment",
            customer,
            line_items: [{ quantity: 1, price_data: { currency: "gbp", unit_amount: request.amountPence, product_data: { name: request.description } } }],
            payment_intent_data: { setup_future_usage: "off_session", description: request.description, metadata },
            metadata,
            success_url: back,
            // Giving up on Stripe's page is not a decline: the owner is back on their plan, where the payment
            // waits with a link to continue it (Stripe ends the page after a day, and its event closes the payment).
            cancel_url: request.cancelUrl ? this.absolute(request.cancelUrl) : back,
          },
          { idempotencyKey: `${request.idempotencyKey}:checkout` },
        );
        if (!session.url) throw new PaymentProviderError("Stripe gave no checkout address", { retryable: false });
        return { status: "requires_action", reference: session.id, actionUrl: session.url, paymentMethod: "", cardLabel: "" } as const;
      }
      try {
        const intent = await this.stripe.paymentIntents.create(
          {
            amount: request.amountPence,
            currency: "gbp",
            customer,
            payment_method: request.paymentMethod,
            confirm: true,
            off_session: request.offSession,
            ...(request.offSession ? {} : { return_url: this.absolute(request.returnUrl) }),
            description: request.description,
            metadata,
            expand: ["payment_method"],
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return fromIntent(intent);
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          const raw = error.raw as { payment_intent?: { id?: string } } | undefined;
          return { status: "declined", reference: raw?.payment_intent?.id ?? null, code: declineCode(error.code) } as const;
        }
        throw error;
      }
    });
  }

  async retrieve(reference: string): Promise<ChargeResult> {
    return this.call(async () => {
      if (reference.startsWith("cs_")) {
        const session = await this.stripe.checkout.sessions.retrieve(reference, { expand: ["payment_intent", "payment_intent.payment_method"] });
        return fromSession(session);
      }
      const intent = await this.stripe.paymentIntents.retrieve(reference, { expand: ["payment_method"] });
      return fromIntent(intent);
    });
  }

  async refund(request: RefundRequest): Promise<{ reference: string }> {
    return this.call(async () => {
      let intent = request.reference;
      if (intent.startsWith("cs_")) {
        const session = await this.stripe.checkout.sessions.retrieve(intent);
        const pi = session.payment_intent;
        intent = typeof pi === "string" ? pi : (pi?.id ?? "");
      }
      if (!intent.startsWith("pi_")) throw new PaymentProviderError("no Stripe payment to refund", { retryable: false });
      const refund = await this.stripe.refunds.create(
        { payment_intent: intent, amount: request.amountPence, metadata: { textcircle_refund: request.idempotencyKey } },
        { idempotencyKey: request.idempotencyKey },
      );
      return { reference: refund.id };
    });
  }

  verifyWebhook(payload: string, signature: string | null): PaymentEvent | null {
    if (!signature) return null;
    try {
      const event = this.stripe.webhooks.constructEvent(payload, signature, this.settings.webhookSecret);
      return { id: event.id, type: event.type, object: event.data.object as unknown as Record<string, unknown> };
    } catch {
      return null;
    }
  }

  /** The business's Stripe customer: created on its first payment and remembered. */
  private async customerFor(businessId: number, name: string): Promise<string> {
    const known = await this.db.selectFrom("payment_customers").select("customer_ref").where("business_id", "=", businessId).where("provider", "=", PROVIDER).executeTakeFirst();
    if (known) return known.customer_ref;
    const customer = await this.stripe.customers.create({ name, metadata: { business_id: String(businessId) } }, { idempotencyKey: `customer:${businessId}` });
    await this.db
      .insertInto("payment_customers")
      .values({ business_id: businessId, provider: PROVIDER, customer_ref: customer.id, created_at: this.now().toISOString() })
      .onConflict((oc) => oc.columns(["business_id", "provider"]).doNothing())
      .execute();
    const stored = await this.db.selectFrom("payment_customers").select("customer_ref").where("business_id", "=", businessId).where("provider", "=", PROVIDER).executeTakeFirstOrThrow();
    return stored.customer_ref;
  }

  private absolute(path: string): string {
    return new URL(path, `${this.settings.publicUrl}/`).toString();
  }

  /** Runs a call to Stripe; what is not an answer becomes a PaymentProviderError (retryable or not). */
  private async call<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      if (error instanceof Stripe.errors.StripeError) {
        const status = error.statusCode ?? 0;
        const retryable =
          error instanceof Stripe.errors.StripeConnectionError || error instanceof Stripe.errors.StripeAPIError || error instanceof Stripe.errors.StripeRateLimitError || status >= 500 || status === 0;
        throw new PaymentProviderError(`Stripe: ${error.message}`, { retryable });
      }
      throw new PaymentProviderError(`Stripe: ${(error as Error)?.message ?? String(error)}`, { retryable: true });
    }
  }
}

function declineCode(code: string | undefined): DeclineCode {
  switch (code) {
    case "authentication_required":
      return "authentication_required";
    case "payment_intent_authentication_failure":
      return "authentication_failed";
    case "expired_card":
      return "expired_card";
    case "incorrect_number":
    case "invalid_number":
    case "invalid_expiry_month":
    case "invalid_expiry_year":
    case "invalid_cvc":
    case "incorrect_cvc":
      return "invalid_card";
    default:
      return "card_declined";
  }
}

function cardOf(pm: PaymentIntent["payment_method"]): { paymentMethod: string; cardLabel: string } {
  if (!pm) return { paymentMethod: "", cardLabel: "" };
  if (typeof pm === "string") return { paymentMethod: pm, cardLabel: "" };
  const card = pm.card;
  const brand = card?.brand ? card.brand.charAt(0).toUpperCase() + card.brand.slice(1) : "Card";
  return { paymentMethod: pm.id, cardLabel: card?.last4 ? `${brand} •••• ${card.last4}` : brand };
}

function fromIntent(intent: PaymentIntent): ChargeResult {
  const card = cardOf(intent.payment_method);
  switch (intent.status) {
    case "succeeded":
      return { status: "succeeded", reference: intent.id, ...card };
    case "requires_action": {
      const url = intent.next_action?.redirect_to_url?.url;
      if (!url) return { status: "declined", reference: intent.id, code: "authentication_required" };
      return { status: "requires_action", reference: intent.id, actionUrl: url, ...card };
    }
    case "processing":
    case "requires_confirmation":
    case "requires_capture":
      // Not settled yet: the owner (or the webhook) asks again later.
      throw new PaymentProviderError(`Stripe payment ${intent.id} is ${intent.status}`, { retryable: true });
    default: {
      // requires_payment_method after a failed attempt (a 3-D Secure that failed or was abandoned), or canceled.
      const code = intent.last_payment_error?.code;
      return { status: "declined", reference: intent.id, code: code ? declineCode(code) : "authentication_failed" };
    }
  }
}

function fromSession(session: CheckoutSession): ChargeResult {
  const pi = session.payment_intent;
  if (session.status === "complete" && session.payment_status === "paid" && pi && typeof pi !== "string") return fromIntent(pi);
  if (session.status === "open" && session.url) return { status: "requires_action", reference: session.id, actionUrl: session.url, paymentMethod: "", cardLabel: "" };
  return { status: "declined", reference: typeof pi === "string" ? pi : (pi?.id ?? null), code: "authentication_failed" };
}
