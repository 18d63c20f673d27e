// The Twilio adapter, with the official `twilio` package.
//
// - send: POST Messages.json with a status callback to `${PUBLIC_URL}/webhooks/twilio/status`.
// - provisionNumber: search GB mobile numbers, buy the first, point its SMS webhook at `${PUBLIC_URL}/webhooks/twilio/sms`.
// - fetchMessage / findMessages: the provider's own record, to reconcile a send whose outcome is unknown.
// - verifyWebhook / parseInbound / parseStatus: X-Twilio-Signature over the configured public URL, and the form fields.
// Every failure becomes an SmsProviderError saying whether a retry can help (5xx, 429, network errors,
// timeouts) or not (other 4xx), with Twilio's error code as providerCode (21610: the recipient opted out).
import crypto from "node:crypto";
import twilio from "twilio";
import type RequestClient from "twilio/lib/base/RequestClient";
import {
  SmsProviderError,
  type DeliveryState,
  type InboundSms,
  type OutboundSms,
  type ProviderMessage,
  type ProvisionedNumber,
  type SendResult,
  type SmsFailureReason,
  type SmsProvider,
  type StatusReport,
  type WebhookRequest,
} from "./types";

function signatureMatches(authToken: string, request: WebhookRequest): boolean {
  const hmac = crypto.createHmac("sha1", authToken);
  hmac.update(request.url);
  for (const key of Object.keys(request.params).sort()) {
    const value = request.params[key];
    // A repeated field is signed as name+value for each distinct value, values sorted.
    if (Array.isArray(value)) for (const v of [...new Set(value)].sort()) hmac.update(key + v);
    else hmac.update(key + value);
  }
  const expected = hmac.digest();
  const given = Buffer.from(request.signature ?? "", "base64");
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}

export const TWILIO_API_ORIGIN = "https://api.twilio.com";
export const SMS_WEBHOOK_PATH = "/webhooks/twilio/sms";
export const STATUS_WEBHOOK_PATH = "/webhooks/twilio/status";
/** Request time-out. */
export const DEFAULT_TIMEOUT_MS = 10_000;

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  /** Public base URL of this app, e.g. https://textcircle.example (no trailing slash). */
  publicUrl: string;
  /** Replaces https://api.twilio.com (a local fake in tests, a proxy in some deployments). */
  apiBase?: string;
  timeoutMs?: number;
}

/** The package's HTTP client, sending requests for api.twilio.com to another base URL. */
export class RebasedRequestClient extends twilio.RequestClient {
  private readonly base: string;
  constructor(base: string, options: RequestClient.RequestClientOptions = {}) {
    super(options);
    this.base = base.replace(/\/+$/, "");
  }
  override request<TData>(opts: RequestClient.RequestOptions<TData>) {
    const uri = opts.uri.startsWith(TWILIO_API_ORIGIN) ? this.base + opts.uri.slice(TWILIO_API_ORIGIN.length) : opts.uri;
    return super.request<TData>({ ...opts, uri });
  }
}

// Twilio error codes with a meaning the pipeline acts on.
const INVALID_NUMBER_CODES = new Set([21211, 21214, 21217, 21401, 21407, 21408, 21612, 21614]);
const OPTED_OUT_CODE = 21610;
const RATE_LIMIT_CODES = new Set([20429, 14107]);
const TIMEOUT_CODES = new Set(["ECONNABORTED", "ETIMEDOUT", "ESOCKETTIMEDOUT"]);
/** Network failures where the request never reached Twilio: a resend is safe without a lookup. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"]);

interface RestLike {
  status: number;
  code?: number;
  message?: string;
}

function isRestException(error: unknown): error is RestLike {
  return error instanceof twilio.RestException || (typeof error === "object" && error !== null && (error as { name?: string }).name === "RestException");
}

/** Maps anything the twilio package threw to an SmsProviderError. */
export function mapTwilioError(error: unknown, action: string): SmsProviderError {
  if (error instanceof SmsProviderError) return error;
  if (isRestException(error)) {
    const status = Number(error.status);
    const code = typeof error.code === "number" ? error.code : undefined;
    const providerCode = String(code ?? status);
    const text = `Twilio refused to ${action}: HTTP ${status}${code ? ` error ${code}` : ""}${error.message ? ` (${String(error.message).slice(0, 200)})` : ""}`;
    if (status === 429 || (code !== undefined && RATE_LIMIT_CODES.has(code))) {
      return new SmsProviderError(text, { retryable: true, providerCode, reason: "rate-limited", httpStatus: status });
    }
    if (status >= 500) {
      return new SmsProviderError(text, { retryable: true, providerCode, reason: "unavailable", outcomeUnknown: true, httpStatus: status });
    }
    let reason: SmsFailureReason = "rejected";
    if (code === OPTED_OUT_CODE) reason = "opted-out";
    else if (code !== undefined && INVALID_NUMBER_CODES.has(code)) reason = "invalid-number";
    else if (status === 401 || status === 403 || code === 20003) reason = "auth";
    return new SmsProviderError(text, { retryable: false, providerCode, reason, httpStatus: status });
  }
  const e = error as { code?: unknown; message?: unknown; response?: { status?: number } } | null;
  const netCode = typeof e?.code === "string" ? e.code : undefined;
  const message = typeof e?.message === "string" ? e.message.slice(0, 200) : String(error).slice(0, 200);
  if (netCode && TIMEOUT_CODES.has(netCode)) {
    return new SmsProviderError(`Twilio did not answer in time to ${action}: ${message}`, { retryable: true, providerCode: netCode, reason: "timeout", outcomeUnknown: true });
  }
  if (netCode && NOT_SENT_CODES.has(netCode)) {
    return new SmsProviderError(`Could not reach Twilio to ${action}: ${message}`, { retryable: true, providerCode: netCode, reason: "unavailable" });
  }
  if (netCode) {
    // ECONNRESET, ERR_NETWORK, EPIPE…: the request may have arrived.
    return new SmsProviderError(`Network error while asking Twilio to ${action}: ${message}`, { retryable: true, providerCode: netCode, reason: "unavailable", outcomeUnknown: true });
  }
  // A SyntaxError from an unreadable body, a TypeError from an unexpected shape…
  return new SmsProviderError(`Twilio gave an answer that could not be read (${action}): ${message}`, { retryable: true, providerCode: "BAD_RESPONSE", reason: "bad-response", outcomeUnknown: true });
}

/** Twilio's message statuses reduced to the pipeline's four states. */
export function deliveryState(status: string): DeliveryState {
  switch (status) {
    case "delivered":
    case "read":
      return "delivered";
    case "sent":
    case "partially_delivered":
      return "sent";
    case "failed":
    case "undelivered":
    case "canceled":
      return "failed";
    default:
      return "pending"; // accepted, scheduled, queued, sending, receiving, received
  }
}

interface TwilioMessageLike {
  sid?: unknown;
  status?: unknown;
  errorCode?: unknown;
  from?: unknown;
  to?: unknown;
  body?: unknown;
  dateCreated?: unknown;
}

const SID = /^(SM|MM)[0-9a-f]{32}$/i;

function toProviderMessage(m: TwilioMessageLike): ProviderMessage {
  if (typeof m.sid !== "string" || !SID.test(m.sid) || typeof m.status !== "string") {
    throw new SmsProviderError("Twilio answered without a message SID and status", { retryable: true, providerCode: "BAD_RESPONSE", reason: "bad-response", outcomeUnknown: true });
  }
  const created = m.dateCreated instanceof Date && !Number.isNaN(m.dateCreated.getTime()) ? m.dateCreated.toISOString() : null;
  return {
    providerId: m.sid,
    status: m.status,
    state: deliveryState(m.status),
    errorCode: typeof m.errorCode === "number" || typeof m.errorCode === "string" ? String(m.errorCode) : null,
    from: typeof m.from === "string" ? m.from : "",
    to: typeof m.to === "string" ? m.to : "",
    body: typeof m.body === "string" ? m.body : "",
    createdAt: created,
  };
}

/** The first value of a form field, or undefined. */
function field(params: Record<string, string | string[]>, name: string): string | undefined {
  const v = params[name];
  return Array.isArray(v) ? v[0] : v;
}

const E164 = /^\+[1-9]\d{6,14}$/;
/** A sender may be a number or, for some senders, a short alphanumeric id. */
const SENDER = /^\+?[0-9A-Za-z]{2,20}$/;
const STATUS_WORD = /^[a-z_]{2,30}$/;
const ERROR_CODE = /^[0-9]{1,6}$/;
/** Twilio joins the parts of a long text into at most 1,600 characters; leave room, refuse absurd bodies. */
export const MAX_INBOUND_BODY = 5000;

export class TwilioSmsProvider implements SmsProvider {
  readonly name = "twilio" as const;
  private readonly client: twilio.Twilio;
  private readonly authToken: string;
  private readonly publicUrl: string;

  constructor(options: TwilioOptions) {
    const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const httpClient = options.apiBase ? new RebasedRequestClient(options.apiBase, { timeout }) : new twilio.RequestClient({ timeout });
    this.client = twilio(options.accountSid, options.authToken, { httpClient, autoRetry: false });
    this.authToken = options.authToken;
    this.publicUrl = options.publicUrl.replace(/\/+$/, "");
  }

  get smsWebhookUrl(): string {
    return this.publicUrl + SMS_WEBHOOK_PATH;
  }

  get statusWebhookUrl(): string {
    return this.publicUrl + STATUS_WEBHOOK_PATH;
  }

  async send(message: OutboundSms): Promise<SendResult> {
    let created: TwilioMessageLike;
    try {
      // A sender that is a Messaging Service (MG…) is passed as one; anything else is a number the account owns.
      const sender = /^MG[0-9a-fA-F]{32}$/.test(message.from) ? { messagingServiceSid: message.from } : { from: message.from };
      created = await this.client.messages.create({
        ...sender,
        to: message.to,
        body: message.body,
        statusCallback: message.statusCallbackUrl ?? this.statusWebhookUrl,
      });
    } catch (error) {
      throw mapTwilioError(error, "send a message");
    }
    const m = toProviderMessage(created);
    if (m.state === "failed") {
      throw new SmsProviderError(`Twilio failed the message at once (status ${m.status}, error ${m.errorCode ?? "none"})`, {
        retryable: false,
        providerCode: m.errorCode ?? m.status,
        reason: m.errorCode === String(OPTED_OUT_CODE) ? "opted-out" : "rejected",
      });
    }
    return { providerId: m.providerId, status: m.state === "delivered" ? "delivered" : m.state === "sent" ? "sent" : "queued" };
  }

  async provisionNumber(request: { businessName: string }): Promise<ProvisionedNumber> {
    let candidates: { phoneNumber?: unknown }[];
    try {
      candidates = await this.client.availablePhoneNumbers("GB").mobile.list({ smsEnabled: true, limit: 10 });
    } catch (error) {
      throw mapTwilioError(error, "search for a number");
    }
    const phoneNumber = candidates.map((c) => c.phoneNumber).find((n): n is string => typeof n === "string" && E164.test(n));
    if (!phoneNumber) {
      throw new SmsProviderError("Twilio has no GB mobile numbers with SMS available", { retryable: true, providerCode: "NO_NUMBERS", reason: "unavailable" });
    }
    let bought: { phoneNumber?: unknown };
    try {
      bought = await this.client.incomingPhoneNumbers.create({
        phoneNumber,
        smsUrl: this.smsWebhookUrl,
        smsMethod: "POST",
        friendlyName: request.businessName.slice(0, 64),
      });
    } catch (error) {
      throw mapTwilioError(error, "buy a number");
    }
    const number = typeof bought.phoneNumber === "string" && E164.test(bought.phoneNumber) ? bought.phoneNumber : phoneNumber;
    return { number };
  }

  async fetchMessage(providerId: string): Promise<ProviderMessage | null> {
    if (!SID.test(providerId)) return null;
    try {
      return toProviderMessage(await this.client.messages(providerId).fetch());
    } catch (error) {
      if (isRestException(error) && Number(error.status) === 404) return null;
      throw mapTwilioError(error, "look up a message");
    }
  }

  async findMessages(query: { from: string; to: string; since: Date }): Promise<ProviderMessage[]> {
    let found: TwilioMessageLike[];
    try {
      // Twilio filters by day; the exact time is checked below.
      found = await this.client.messages.list({ from: query.from, to: query.to, dateSentAfter: query.since, limit: 50 });
    } catch (error) {
      throw mapTwilioError(error, "list messages");
    }
    const since = query.since.getTime();
    return found
      .map(toProviderMessage)
      .filter((m) => m.createdAt === null || Date.parse(m.createdAt) >= since - 1000)
      .sort((a, b) => (b.createdAt ?? "").localeCompare(a.createdAt ?? ""));
  }

  verifyWebhook(request: WebhookRequest): boolean {
    if (!request.signature) return false;
    // Twilio signs the URL it was given followed by every field name and value, names sorted, with HMAC-SHA1.
    // Checking that exact form first is one HMAC; the twilio package's check, tried only when it fails,
    // also accepts the variants Twilio has been seen to sign (with or without the port, legacy query strings).
    if (signatureMatches(this.authToken, request)) return true;
    return twilio.validateRequest(this.authToken, request.signature, request.url, request.params);
  }

  parseInbound(params: Record<string, string | string[]>): InboundSms | null {
    const providerId = field(params, "MessageSid") ?? field(params, "SmsSid");
    const from = field(params, "From");
    const to = field(params, "To");
    const body = field(params, "Body");
    if (!providerId || !SID.test(providerId) || !from || !SENDER.test(from) || !to || !E164.test(to) || body === undefined) return null;
    if (body.length > MAX_INBOUND_BODY) return null;
    // NUL cannot be stored in PostgreSQL text and is never typed on a phone.
    return { providerId, from, to, body: body.replace(/\u0000/g, "") };
  }

  parseStatus(params: Record<string, string | string[]>): StatusReport | null {
    const providerId = field(params, "MessageSid") ?? field(params, "SmsSid");
    const status = (field(params, "MessageStatus") ?? field(params, "SmsStatus"))?.toLowerCase();
    const errorCode = field(params, "ErrorCode") || null;
    const from = field(params, "From") || null;
    const to = field(params, "To") || null;
    if (!providerId || !SID.test(providerId) || !status || !STATUS_WORD.test(status)) return null;
    if (errorCode !== null && !ERROR_CODE.test(errorCode)) return null;
    if (from !== null && !SENDER.test(from)) return null;
    if (to !== null && !SENDER.test(to)) return null;
    return { providerId, status, state: deliveryState(status), errorCode, from, to };
  }
}
