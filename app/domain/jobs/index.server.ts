// Every background round the worker runs beside sending and inbound processing, in one list. A context that has
// durable work of its own (campaign fires, emails, renewals, webhook deliveries, file clean-up) adds its round here.
import type { Database } from "#db/index";
import { DEFAULT_BILLING, type BillingSettings } from "~/domain/billing/money";
import { renewDue } from "~/domain/billing/subscription.server";
import { sendDueEmails } from "~/domain/email/email.server";
import { createEmailProvider } from "~/providers/email/index.server";
import type { EmailProvider } from "~/providers/email/types";
import type { Config } from "~/lib/config.server";
import { SimulatorPaymentProvider } from "~/providers/payments/simulator.server";
import type { PaymentProvider } from "~/providers/payments/types";
import type { WorkerRound } from "./round";
import { runDueFires } from "~/domain/campaigns/engine.server";
import { runExportFiles } from "~/domain/exports/exports.server";
import { deliverDue } from "~/domain/webhooks/delivery.server";
import { HttpWebhookTransport } from "~/providers/webhooks/http.server";
import type { WebhookTransport } from "~/providers/webhooks/types";
import { purgeIdempotency } from "~/domain/apikeys/idempotency.server";

export type { WorkerRound } from "./round";

/** What the rounds may use: the database, the clock, and the configuration they read. */
export interface JobDeps {
  db: Database;
  now: () => Date;
  config: {
    messaging: { sendDelaySeconds: number; dmSendDelaySeconds?: number };
    publicUrl?: string;
    /** Plans, VAT, grace period and retries (the built-in defaults when absent). */
    billing?: BillingSettings;
    /** Where emails go (the embedded outbox when absent). */
    email?: Config["email"];
    /** Outbound webhooks (private addresses refused when absent). */
    webhooks?: Config["webhooks"];
  };
  /** The email provider (from config.email when absent). */
  email?: EmailProvider;
  /** The payment provider (the payment simulator when absent). */
  payments?: PaymentProvider;
  /** How webhook deliveries are posted (HTTP(S) from config.webhooks when absent). */
  webhookTransport?: WebhookTransport;
}

/** The rounds, in the order a single `tick()` runs them. */
export function workerRounds(deps: JobDeps): WorkerRound[] {
  const payments = deps.payments ?? new SimulatorPaymentProvider(deps.db, deps.now);
  const billing = deps.config.billing ?? DEFAULT_BILLING;
  const webhookTransport = deps.webhookTransport ?? new HttpWebhookTransport({ allowPrivate: deps.config.webhooks?.allowPrivate ?? false });
  const email = deps.email ?? createEmailProvider({ email: deps.config.email ?? { provider: "outbox", smtpUrl: null, from: "", outboxServed: false } });
  return [
    // Campaign steps that have come due: issues, closes, draws, reminders.
    { name: "campaign-fires", run: () => runDueFires(deps) },
    // Export files asked for on the export pages are made; files older than 14 days are deleted.
    { name: "export-files", run: () => runExportFiles(deps) },
    // Monthly renewals, and the retries of failed ones.
    { name: "renewals", run: () => renewDue(deps.db, payments, billing, deps.now()) },
    // Emails (invoices, payment failures…) through the outbox or SMTP.
    { name: "emails", run: () => sendDueEmails(deps.db, email, deps.now()) },
    // Outbound webhooks: signed deliveries to the businesses' endpoints, with retries.
    { name: "webhooks", run: () => deliverDue({ db: deps.db, now: deps.now, transport: webhookTransport }) },
    // The public API's idempotency records, once their 24 hours are up.
    { name: "api-idempotency-purge", run: () => purgeIdempotency(deps.db, deps.now()) },
  ];
}
