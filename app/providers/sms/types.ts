// The SMS provider interface. Adapters: the built-in simulator (default) and Twilio.
// Errors say whether a retry can help, so the sending pipeline can decide (courier-style).

export interface OutboundSms {
  /** The business's dedicated number, E.164. */
  from: string;
  /** The recipient, E.164. */
  to: string;
  body: string;
  /** Where the provider should post delivery receipts, if it supports them. */
  statusCallbackUrl?: string;
  /**
   * The sender's own reference for this text (the outbound row id), kept by providers that can, so
   * a message whose outcome is unknown can be looked up before any resend.
   */
  reference?: string;
}

export interface SendResult {
  /** The provider's own id for the message (Twilio's SID). */
  providerId: string;
  /** "failed": accepted, but the provider already knows it was not delivered (errorCode says why). */
  status: "queued" | "sent" | "delivered" | "failed";
  errorCode?: string | null;
}

export interface ProvisionedNumber {
  number: string;
}

/**
 * Why a provider refused or failed a request, independent of the provider (the pipeline shows it to
 * the user and treats "opted-out" as the recipient's STOP).
 */
export type SmsFailureReason =
  | "opted-out" // the recipient blocked the sender (Twilio 21610)
  | "invalid-number" // not a valid or reachable mobile number (Twilio 21211, 21614, 21408…)
  | "rate-limited" // too many requests: retry later (HTTP 429, Twilio 20429)
  | "unavailable" // the provider failed or could not be reached (HTTP 5xx, connection refused or reset)
  | "timeout" // no answer in time
  | "bad-response" // an answer that could not be understood
  | "auth" // the provider refused our credentials
  | "rejected" // any other refusal of the request (other HTTP 4xx)
  | "unknown";

/** The i18n key (locales messaging.json) that tells a person what a failure reason means. */
export const FAILURE_REASON_KEYS: Readonly<Record<SmsFailureReason, string>> = {
  "opted-out": "messaging.providerFailure.optedOut",
  "invalid-number": "messaging.providerFailure.invalidNumber",
  "rate-limited": "messaging.providerFailure.rateLimited",
  unavailable: "messaging.providerFailure.unavailable",
  timeout: "messaging.providerFailure.timeout",
  "bad-response": "messaging.providerFailure.badResponse",
  auth: "messaging.providerFailure.auth",
  rejected: "messaging.providerFailure.rejected",
  unknown: "messaging.providerFailure.unknown",
};

export class SmsProviderError extends Error {
  readonly retryable: boolean;
  readonly providerCode: string | undefined;
  readonly reason: SmsFailureReason;
  /**
   * True when the provider may have accepted the message although we saw an error (a timeout, a
   * reset connection, a 5xx, an unreadable answer): look it up (`findMessages`) before sending again.
   */
  readonly outcomeUnknown: boolean;
  /** The HTTP status the provider answered, when it answered. */
  readonly httpStatus: number | undefined;
  constructor(
    message: string,
    options: { retryable: boolean; providerCode?: string; reason?: SmsFailureReason; outcomeUnknown?: boolean; httpStatus?: number },
  ) {
    super(message);
    this.name = "SmsProviderError";
    this.retryable = options.retryable;
    this.providerCode = options.providerCode;
    this.reason = options.reason ?? "unknown";
    this.outcomeUnknown = options.outcomeUnknown ?? false;
    this.httpStatus = options.httpStatus;
  }
}

/** A provider's delivery state, reduced to what the pipeline acts on. */
export type DeliveryState = "pending" | "sent" | "delivered" | "failed";

/** A message as the provider has it on record (for reconciliation). */
export interface ProviderMessage {
  providerId: string;
  /** The provider's own status word, e.g. Twilio's "queued", "sent", "undelivered". */
  status: string;
  state: DeliveryState;
  errorCode: string | null;
  from: string;
  to: string;
  body: string;
  createdAt: string | null;
}

/** A text a phone sent to a business number, as the provider's webhook reported it. */
export interface InboundSms {
  providerId: string;
  from: string;
  to: string;
  body: string;
}

/** A delivery status callback. */
export interface StatusReport {
  providerId: string;
  status: string;
  state: DeliveryState;
  errorCode: string | null;
  /** The business number the message was sent from, when the provider says. */
  from: string | null;
  to: string | null;
}

/** A webhook request as the route read it: the public URL it was addressed to and its form fields. */
export interface WebhookRequest {
  /** `${PUBLIC_URL}${path}${search}`: signatures are computed over the configured public URL, never the Host header. */
  url: string;
  signature: string | null;
  params: Record<string, string | string[]>;
}

/** One text's outcome in a batch: accepted, or refused with a typed error. */
export type SendOutcome = { ok: true; result: SendResult } | { ok: false; error: SmsProviderError };

/** What a worker knows about a text whose outcome is unknown, to find it at the provider. */
export interface ReferenceQuery {
  reference: string;
  from: string;
  to: string;
  body: string;
  /** The text cannot have been accepted before this (the row's claim time minus the lease). */
  sentAfter: Date;
}

/** A text the provider holds: its id and the status it reports. */
export interface FoundMessage {
  providerId: string;
  status: "queued" | "sent" | "delivered" | "failed";
  errorCode?: string | null;
}

export interface SmsProvider {
  readonly name: "simulator" | "twilio";
  send(message: OutboundSms): Promise<SendResult>;
  /** Sends many texts in one call where the provider can (the simulator); outcomes in input order. */
  sendMany?(messages: OutboundSms[]): Promise<SendOutcome[]>;
  /**
   * Reconciliation: the provider's own record of texts sent with these references, keyed by
   * reference (missing = the provider never accepted it). Throws SmsProviderError when the provider
   * cannot be asked right now.
   */
  findByReferences?(queries: ReferenceQuery[]): Promise<Map<string, FoundMessage>>;
  /** Buys or assigns a dedicated UK number for a business. Throws SmsProviderError on failure. */
  provisionNumber(request: { businessName: string }): Promise<ProvisionedNumber>;
  /** Gives a number back to the provider (an account was cancelled). Absent: the provider keeps it. */
  releaseNumber?(number: string): Promise<void>;
  /** The provider's record of a message; null when it has none. Throws SmsProviderError when it cannot tell. */
  fetchMessage?(providerId: string): Promise<ProviderMessage | null>;
  /**
   * Messages the provider has on record from one number to another since a time (newest first):
   * reconciles a send whose outcome is unknown and whose id we never learnt.
   */
  findMessages?(query: { from: string; to: string; since: Date }): Promise<ProviderMessage[]>;
  /** Whether a webhook really comes from the provider (its signature). */
  verifyWebhook?(request: WebhookRequest): boolean;
  /** An inbound text from webhook fields; null when fields are missing or malformed. */
  parseInbound?(params: Record<string, string | string[]>): InboundSms | null;
  /** A delivery status from webhook fields; null when fields are missing or malformed. */
  parseStatus?(params: Record<string, string | string[]>): StatusReport | null;
}
