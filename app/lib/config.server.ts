// Typed configuration, read once from the environment and validated at start-up.
// A bad value stops the process with a message naming the variable and what is expected.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { z } from "zod";
import { DEFAULT_BILLING, type BillingSettings, type Plan } from "~/domain/billing/money";

export { APP_VERSION_CLIENT as APP_VERSION } from "./version";
import { APP_VERSION_CLIENT as APP_VERSION } from "./version";
/** Version of the terms and conditions; accounts that accepted an older one are sent to /termsupdated. */
export const TERMS_VERSION = "2026-11-01";

const bool = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const schema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z
      .string()
      .max(253)
      .regex(/^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]+)$/, "must be an IP address or a host name (127.0.0.1, ::1, 0.0.0.0…)")
      .default("127.0.0.1"),
    SIMULATOR_PUBLIC: bool.default(false),
    SESSION_IDLE_HOURS: z.coerce.number().min(0.05).max(30 * 24).default(12),
    ACCESS_LOG_SLOW_MS: z.coerce.number().int().min(0).max(3_600_000).default(1000),
    DATABASE_URL: z.string().min(1).default("data/app.db"),
    PUBLIC_URL: z.string().url().optional(),
    SESSION_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
    SMS_PROVIDER: z.enum(["simulator", "twilio"]).default("simulator"),
    TWILIO_ACCOUNT_SID: z.string().regex(/^AC[0-9a-fA-F]{32}$/, "must look like AC followed by 32 hex digits").optional(),
    TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
    TWILIO_API_BASE: z.string().url().optional(),
    SMS_SYSTEM_SENDER: z
      .string()
      .regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32})$/, "must be an E.164 number (+44…) or a Twilio Messaging Service SID (MG…)")
      .optional(),
    SEED_DEMO: bool.optional(),
    RUN_WORKER: bool.default(true),
    WEB_PROCESSES: z.coerce.number().int().min(1).max(64).optional(),
    MESSAGE_SEND_DELAY_SECONDS: z.coerce.number().int().min(0).max(24 * 3600).default(60),
    DM_SEND_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(5),
    SMS_RATE_PER_SECOND: z.coerce.number().min(0).max(10000).default(10),
    WORKER_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(1000),
    WORKER_POLL_MS: z.coerce.number().int().min(10).max(60000).default(500),
    WORKER_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
    WORKER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
    WORKER_BACKOFF_MS: z.coerce.number().int().min(1).max(3_600_000).default(2000),
    LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
    LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(24 * 60).default(15),
    PIN_MAX_ISSUES: z.coerce.number().int().min(1).max(20).default(3),
    INVITE_TTL_DAYS: z.coerce.number().int().min(1).max(90).default(7),
    GA_ID: z.string().max(40).default(""),
    META_PIXEL_ID: z.string().max(40).default(""),
    RUM_ACCOUNT_ID: z.string().max(40).default(""),
    RUM_APPLICATION_ID: z.string().max(40).default(""),
    RUM_LICENCE_KEY: z.string().max(80).default(""),
    RUM_AGENT_ID: z.string().max(40).default(""),
    // --- billing ---
    PAYMENT_PROVIDER: z.enum(["simulator", "stripe"]).default("simulator"),
    STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/, "must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)").optional(),
    STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=]{8,}$/, "must be a webhook signing secret (whsec_…)").optional(),
    STRIPE_API_BASE: z.string().url().optional(),
    PLANS_FILE: z.string().min(1).default("config/plans.json"),
    VAT_RATE_PERCENT: z.coerce.number().min(0).max(100).default(20),
    BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(60).default(7),
    BILLING_RETRY_DAYS: z
      .string()
      .regex(/^\d{1,2}(,\d{1,2})*$/, "must be day numbers separated by commas, e.g. 1,3,5")
      .default("1,3,5"),
    // Who issues the invoices and credit notes. The defaults are a plausible demonstration company (the VAT
    // number passes HMRC's check-digit test but is nobody's): a real deployment sets all three (a warning says so).
    SUPPLIER_NAME: z.string().min(1).max(200).optional(),
    SUPPLIER_ADDRESS: z
      .string()
      .min(1)
      .max(500)
      .refine((v) => v.split("|").filter((l) => l.trim()).length >= 2, "must be at least two address lines separated by |, e.g. 20 Station Road|Cambridge|CB1 2JD")
      .optional(),
    SUPPLIER_VAT_NUMBER: z
      .string()
      .regex(/^[A-Z]{2} ?[0-9A-Z][0-9A-Z ]{1,16}$/, "must be a VAT registration number such as GB 274 1834 51")
      .optional(),
    REFERRAL_DISCOUNT_PENCE: z.coerce.number().int().min(0).max(1_000_000).default(1000),
    EMAIL_PROVIDER: z.enum(["outbox", "smtp"]).default("outbox"),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, "must start with smtp:// or smtps://").optional(),
    EMAIL_FROM: z.string().min(3).max(200).default("Textcircle <no-reply@textcircle.invalid>"),
    WEBHOOKS_ALLOW_PRIVATE: bool.optional(),
    SUPPORT_HOURS: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]|24):[0-5]\d$/, "must be opening and closing times in UK time, e.g. 09:00-17:30")
      .default("09:00-17:30"),
    SUPPORT_DAYS: z
      .string()
      .regex(/^[1-7](,[1-7])*$/, "must be ISO weekday numbers separated by commas (1 is Monday), e.g. 1,2,3,4,5")
      .default("1,2,3,4,5"),
    // --- the public API (/api/v1/) ---
    API_RATE_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(10),
    API_RATE_BURST: z.coerce.number().int().min(1).max(100_000).default(10),
    // --- shop integration (discount codes) ---
    SHOP_PROVIDER: z.enum(["simulator", "shopify"]).default("simulator"),
    SHOPIFY_API_VERSION: z.string().regex(/^(\d{4}-\d{2}|unstable)$/, "must look like 2025-10").default("2025-10"),
    SHOPIFY_API_BASE: z.string().url().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.SMS_PROVIDER === "twilio") {
      if (!env.TWILIO_ACCOUNT_SID) ctx.addIssue({ code: "custom", path: ["TWILIO_ACCOUNT_SID"], message: "is required when SMS_PROVIDER=twilio" });
      if (!env.TWILIO_AUTH_TOKEN) ctx.addIssue({ code: "custom", path: ["TWILIO_AUTH_TOKEN"], message: "is required when SMS_PROVIDER=twilio" });
      if (!env.PUBLIC_URL) ctx.addIssue({ code: "custom", path: ["PUBLIC_URL"], message: "is required when SMS_PROVIDER=twilio (webhook signatures are computed over it)" });
      if (!env.SMS_SYSTEM_SENDER) ctx.addIssue({ code: "custom", path: ["SMS_SYSTEM_SENDER"], message: "is required when SMS_PROVIDER=twilio: a number or Messaging Service the account owns, for sign-up PINs and reset codes" });
    }
    if (env.PAYMENT_PROVIDER === "stripe") {
      if (!env.STRIPE_SECRET_KEY) ctx.addIssue({ code: "custom", path: ["STRIPE_SECRET_KEY"], message: "is required when PAYMENT_PROVIDER=stripe" });
      if (!env.STRIPE_WEBHOOK_SECRET) ctx.addIssue({ code: "custom", path: ["STRIPE_WEBHOOK_SECRET"], message: "is required when PAYMENT_PROVIDER=stripe (webhooks are refused without a signature check)" });
      if (!env.PUBLIC_URL) ctx.addIssue({ code: "custom", path: ["PUBLIC_URL"], message: "is required when PAYMENT_PROVIDER=stripe (Stripe sends the owner back to it after paying)" });
    }
    if (env.EMAIL_PROVIDER === "smtp" && !env.SMTP_URL) ctx.addIssue({ code: "custom", path: ["SMTP_URL"], message: "is required when EMAIL_PROVIDER=smtp" });
    if (env.NODE_ENV === "production" && env.SMS_PROVIDER !== "simulator" && !env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "is required in production with a real provider" });
    }
  });

export type Env = z.infer<typeof schema>;

export interface Config {
  env: Env["NODE_ENV"];
  production: boolean;
  port: number;
  /** The address the HTTP server listens on (loopback unless set). */
  host: string;
  /** True when the SMS simulator's page and JSON are served: the simulator is the provider, and the server only listens on loopback or SIMULATOR_PUBLIC=true. */
  simulatorServed: boolean;
  /** A web session ends after this long without a request (it also ends 30 days after sign-in). */
  sessionIdleMinutes: number;
  /** Requests that take this long or longer are written to the access log, like every 5xx (0: every request). */
  accessLogSlowMs: number;
  databaseUrl: string;
  publicUrl: string;
  sessionSecret: string;
  smsProvider: Env["SMS_PROVIDER"];
  twilio: { accountSid: string; authToken: string; apiBase?: string } | null;
  /** The sender of texts from the platform itself (sign-up PINs, password-reset codes). */
  systemSender: string;
  seedDemo: boolean;
  runWorker: boolean;
  /** Web server processes sharing the port (server.js): one per CPU in production unless set, one otherwise. */
  webProcesses: number;
  /** The outbound pipeline (messages, outbound rows, workers). */
  messaging: {
    /** The "sending soon" pause in which a message can still be edited or deleted. */
    sendDelaySeconds: number;
    /** The shorter pause for a direct message: long enough to undo a slip, short enough not to feel stuck. */
    dmSendDelaySeconds: number;
    /** Segments per second per from-number; 0 = unlimited. */
    ratePerSecond: number;
    batchSize: number;
    pollMs: number;
    leaseSeconds: number;
    maxAttempts: number;
    backoffMs: number;
  };
  loginMaxFailures: number;
  lockoutMinutes: number;
  pinMaxIssues: number;
  /** Days a team invitation's link works (a resend starts a new period). */
  inviteTtlDays: number;
  monitor: { gaId: string; metaPixelId: string; rumScript: { accountId: string; applicationId: string; licenceKey: string; agentId: string } };
  appVersion: string;
  /** Plans, VAT, the grace period after a failed payment, and the payment provider. */
  billing: BillingSettings & {
    provider: Env["PAYMENT_PROVIDER"];
    /** Stripe's keys when PAYMENT_PROVIDER=stripe (apiBase only for tests against a local fake). */
    stripe: { secretKey: string; webhookSecret: string; apiBase?: string } | null;
    simulatorServed: boolean;
    /** Who issues the invoices: name, postal address lines and VAT registration number. */
    supplier: { name: string; address: string[]; vatNumber: string };
    /** False while the invoices name the demonstration supplier (SUPPLIER_* not all set). */
    supplierConfigured: boolean;
  };
  /** Emails: the embedded outbox (shown at /outbox where the simulator is served) or SMTP. */
  email: { provider: Env["EMAIL_PROVIDER"]; smtpUrl: string | null; from: string; outboxServed: boolean };
  /** Outbound webhooks: whether endpoints may be private or loopback addresses (and http:// to loopback). */
  webhooks: { allowPrivate: boolean };
  /** The support chat's opening hours in UK time: ISO weekdays (1 = Monday) and minutes past midnight. */
  support: { days: number[]; openMinute: number; closeMinute: number };
  /** The public API's per-key rate limit: a token bucket of `burst` requests refilled at `ratePerSecond`. */
  apiRateLimit?: { ratePerSecond: number; burst: number };
  /** The shop integration: the shop simulator (its page served where the SMS simulator's is) or Shopify. */
  shop: { provider: Env["SHOP_PROVIDER"]; simulatorServed: boolean; shopify: { apiVersion: string; apiBase?: string } };
}

/** The supplier the invoices name until SUPPLIER_NAME, SUPPLIER_ADDRESS and SUPPLIER_VAT_NUMBER are set. */
export const DEMO_SUPPLIER = { name: "Textcircle Ltd", address: ["20 Station Road", "Cambridge", "CB1 2JD", "United Kingdom"], vatNumber: "GB 274 1834 51" };

export class ConfigError extends Error {}

/** Reads and validates the environment. Throws ConfigError listing every bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ""));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".") || "(environment)"}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    production: e.NODE_ENV === "production",
    port: e.PORT,
    host: e.HOST,
    simulatorServed: e.SMS_PROVIDER === "simulator" && (isLoopback(e.HOST) || e.SIMULATOR_PUBLIC),
    sessionIdleMinutes: Math.round(e.SESSION_IDLE_HOURS * 60),
    accessLogSlowMs: e.ACCESS_LOG_SLOW_MS,
    databaseUrl: e.DATABASE_URL,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ""),
    sessionSecret: e.SESSION_SECRET ?? localSecret(e.DATABASE_URL),
    smsProvider: e.SMS_PROVIDER,
    twilio: e.SMS_PROVIDER === "twilio" ? { accountSid: e.TWILIO_ACCOUNT_SID!, authToken: e.TWILIO_AUTH_TOKEN!, apiBase: e.TWILIO_API_BASE } : null,
    // The simulator's system number (07700 900000) by default.
    systemSender: e.SMS_SYSTEM_SENDER ?? "+447700900000",
    seedDemo: e.SEED_DEMO ?? e.SMS_PROVIDER === "simulator",
    runWorker: e.RUN_WORKER,
    webProcesses: e.NODE_ENV === "production" ? (e.WEB_PROCESSES ?? os.availableParallelism()) : 1,
    messaging: {
      sendDelaySeconds: e.MESSAGE_SEND_DELAY_SECONDS,
      dmSendDelaySeconds: e.DM_SEND_DELAY_SECONDS,
      ratePerSecond: e.SMS_RATE_PER_SECOND,
      batchSize: e.WORKER_BATCH_SIZE,
      pollMs: e.WORKER_POLL_MS,
      leaseSeconds: e.WORKER_LEASE_SECONDS,
      maxAttempts: e.WORKER_MAX_ATTEMPTS,
      backoffMs: e.WORKER_BACKOFF_MS,
    },
    loginMaxFailures: e.LOGIN_MAX_FAILURES,
    lockoutMinutes: e.LOCKOUT_MINUTES,
    pinMaxIssues: e.PIN_MAX_ISSUES,
    inviteTtlDays: e.INVITE_TTL_DAYS,
    monitor: {
      gaId: e.GA_ID,
      metaPixelId: e.META_PIXEL_ID,
      rumScript: { accountId: e.RUM_ACCOUNT_ID, applicationId: e.RUM_APPLICATION_ID, licenceKey: e.RUM_LICENCE_KEY, agentId: e.RUM_AGENT_ID },
    },
    appVersion: APP_VERSION,
    billing: {
      provider: e.PAYMENT_PROVIDER,
      stripe: e.PAYMENT_PROVIDER === "stripe" ? { secretKey: e.STRIPE_SECRET_KEY!, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiBase: e.STRIPE_API_BASE } : null,
      plans: loadPlans(e.PLANS_FILE),
      vatRatePercent: e.VAT_RATE_PERCENT,
      graceDays: e.BILLING_GRACE_DAYS,
      retryDays: e.BILLING_RETRY_DAYS.split(",").map(Number).sort((a, b) => a - b),
      referralDiscountPence: e.REFERRAL_DISCOUNT_PENCE,
      // The payment simulator's pages are served where the SMS simulator's are (this machine only, by default).
      simulatorServed: e.PAYMENT_PROVIDER === "simulator" && (isLoopback(e.HOST) || e.SIMULATOR_PUBLIC),
      supplier: {
        name: e.SUPPLIER_NAME ?? DEMO_SUPPLIER.name,
        address: e.SUPPLIER_ADDRESS ? e.SUPPLIER_ADDRESS.split("|").map((l) => l.trim()).filter(Boolean) : DEMO_SUPPLIER.address,
        vatNumber: e.SUPPLIER_VAT_NUMBER ?? DEMO_SUPPLIER.vatNumber,
      },
      supplierConfigured: Boolean(e.SUPPLIER_NAME && e.SUPPLIER_ADDRESS && e.SUPPLIER_VAT_NUMBER),
    },
    email: {
      provider: e.EMAIL_PROVIDER,
      smtpUrl: e.SMTP_URL ?? null,
      from: e.EMAIL_FROM,
      outboxServed: e.EMAIL_PROVIDER === "outbox" && (isLoopback(e.HOST) || e.SIMULATOR_PUBLIC),
    },
    // Private, loopback and link-local endpoints are refused in production (server-side request forgery).
    webhooks: { allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE ?? e.NODE_ENV !== "production" },
    support: supportHours(e.SUPPORT_HOURS, e.SUPPORT_DAYS),
    apiRateLimit: { ratePerSecond: e.API_RATE_PER_SECOND, burst: e.API_RATE_BURST },
    shop: {
      provider: e.SHOP_PROVIDER,
      simulatorServed: e.SHOP_PROVIDER === "simulator" && (isLoopback(e.HOST) || e.SIMULATOR_PUBLIC),
      shopify: { apiVersion: e.SHOPIFY_API_VERSION, apiBase: e.SHOPIFY_API_BASE },
    },
  };
}

function supportHours(hours: string, days: string): Config["support"] {
  const [open, close] = hours.split("-").map((hm) => Number(hm.slice(0, 2)) * 60 + Number(hm.slice(3, 5)));
  if (close <= open) throw new ConfigError("Invalid configuration:\n  SUPPORT_HOURS: the closing time must come after the opening time");
  return { days: [...new Set(days.split(",").map(Number))].sort(), openMinute: open, closeMinute: Math.min(close, 24 * 60) };
}

const plansSchema = z.object({
  plans: z
    .array(z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,40}$/), allowance: z.number().int().min(1).max(10_000_000), pricePence: z.number().int().min(0).max(100_000_000) }))
    .min(1)
    .refine((plans) => new Set(plans.map((p) => p.id)).size === plans.length, "plan ids must be unique")
    .refine((plans) => new Set(plans.map((p) => p.allowance)).size === plans.length, "each plan needs its own allowance"),
});

/** The plan table (PLANS_FILE, JSON): a bad file stops the process with what is wrong; a missing one gives the built-in plans. */
function loadPlans(file: string): Plan[] {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(file), "utf8");
  } catch {
    return DEFAULT_BILLING.plans;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(`Invalid configuration:\n  PLANS_FILE: ${file} is not valid JSON`);
  }
  const parsed = plansSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`Invalid configuration:\n  PLANS_FILE: ${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`);
  return [...parsed.data.plans].sort((a, b) => a.allowance - b.allowance);
}

/** True for an address only this machine can reach: 127.0.0.0/8, ::1 or localhost. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127(\.\d{1,3}){3}$/.test(h) || /^::ffff:127(\.\d{1,3}){3}$/.test(h);
}

/** Without SESSION_SECRET, a random secret is kept beside the SQLite file so that restarts keep sessions. */
function localSecret(databaseUrl: string): string {
  const dir = /^postgres/i.test(databaseUrl) ? "data" : path.dirname(path.resolve(databaseUrl.replace(/^sqlite:(\/\/)?/i, "")));
  const file = path.join(dir, ".session-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = crypto.randomBytes(32).toString("base64url");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
