// The payment provider interface. Adapters: the built-in payment simulator (default) and Stripe. Like the SMS
// providers, an adapter answers with an outcome the billing service understands, and throws
// PaymentProviderError only when it could not get an answer (retryable: try again later).

/** Card details as typed into the card form (only the simulator ever sees them). */
export interface CardInput {
  number: string;
  expiry: string;
  cvc: string;
  name: string;
}

export interface ChargeRequest {
  /** Whose money: the business and how it is named on the provider's side. */
  customer: { businessId: number; name: string };
  amountPence: number;
  description: string;
  /** Unique per payment: the provider takes the money at most once for it. */
  idempotencyKey: string;
  /** A new card (typed in the form) or the card on file (the provider's reference). */
  card?: CardInput;
  paymentMethod?: string | null;
  /** True when nobody is there to confirm (a renewal): a card asking for 3-D Secure then fails. */
  offSession: boolean;
  /** Where the provider sends the person back after a 3-D Secure confirmation. */
  returnUrl: string;
  /** Where a provider's own payment page sends the person who gives up (the returnUrl when not given). */
  cancelUrl?: string;
}

export type DeclineCode = "card_declined" | "authentication_failed" | "authentication_required" | "invalid_card" | "expired_card";

export type ChargeResult =
  | { status: "succeeded"; reference: string; paymentMethod: string; cardLabel: string }
  | { status: "requires_action"; reference: string; actionUrl: string; paymentMethod: string; cardLabel: string }
  | { status: "declined"; reference: string | null; code: DeclineCode };

export interface RefundRequest {
  /** The charge's reference, as charge or retrieve answered it. */
  reference: string;
  amountPence: number;
  /** Unique per refund: the provider gives the money back at most once for it. */
  idempotencyKey: string;
}

/** A signed webhook event, checked by the provider's own library. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** The event's object as the provider sent it. */
  object: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly name: string;
  /**
   * Where a new card is typed: "form" on our own card form (the simulator only), "hosted" on the provider's
   * own page (charge without a card then answers requires_action with the page's address).
   */
  readonly cardEntry: "form" | "hosted";
  /** Takes a payment (once per idempotency key: a repeat answers as the first did). */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The current outcome of an earlier charge (after a 3-D Secure confirmation). */
  retrieve(reference: string): Promise<ChargeResult>;
  /** Gives money back on an earlier successful charge (once per idempotency key); the refund's reference. */
  refund(request: RefundRequest): Promise<{ reference: string }>;
  /** The event when the signature over the raw body is right (and recent), otherwise null. Providers with webhooks only. */
  verifyWebhook?(payload: string, signature: string | null): PaymentEvent | null;
}

export class PaymentProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean }) {
    super(message);
    this.name = "PaymentProviderError";
    this.retryable = options.retryable;
  }
}
