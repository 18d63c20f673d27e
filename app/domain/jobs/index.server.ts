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
import { fireNow, runDueFires } from "~/domain/campaigns/engine.server";
import { runExportFiles } from "~/domain/exports/exports.server";
import { deliverDue } from "~/domain/webhooks/delivery.server";
import { HttpWebhookTransport } from "~/providers/webhooks/http.server";
import type { WebhookTransport } from "~/providers/webhooks/types";
import { purgeIdempotency } from "~/domain/apikeys/idempotency.server";
import { runShopCodeRequests } from "~/domain/shop/codes.server";
import { sendWaitingDraft } from "~/domain/group-messages/group-messages.server";
import { createShopProvider } from "~/providers/shop/index.server";
import type { ShopProvider } from "~/providers/shop/types";

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
    /** The shop integration's adapter (the shop simulator when absent). */
    shop?: Config["shop"];
    /** Seals stored secrets (shop access tokens). */
    sessionSecret?: string;
  };
  /** The email provider (from config.email when absent). */
  email?: EmailProvider;
  /** The payment provider (the payment simulator when absent). */
  payments?: PaymentProvider;
  /** How webhook deliveries are posted (HTTP(S) from config.webhooks when absent). */
  webhookTransport?: WebhookTransport;
  /** The shop provider for discount codes (from config.shop when absent; the shop simulator by default). */
  shop?: ShopProvider;
}

/** The rounds, in the order a single `tick()` runs them. */
export function workerRounds(deps: JobDeps): WorkerRound[] {
  const payments = deps.payments ?? new SimulatorPaymentProvider(deps.db, deps.now);
  const billing = deps.config.billing ?? DEFAULT_BILLING;
  const webhookTransport = deps.webhookTransport ?? new HttpWebhookTransport({ allowPrivate: deps.config.webhooks?.allowPrivate ?? false });
  const email = deps.email ?? createEmailProvider({ email: deps.config.email ?? { provider: "outbox", smtpUrl: null, from: "", outboxServed: false } });
  const shop = deps.shop ?? createShopProvider({ provider: deps.config.shop?.provider ?? "simulator", shopify: deps.config.shop?.shopify }, deps.db, deps.now);
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
    // Discount codes asked for by sends that use {{shopify.code}}; a group message waiting for them is then sent.
    {
      name: "shop-codes",
      run: () =>
        runShopCodeRequests({
          db: deps.db,
          now: deps.now,
          shop,
          secret: deps.config.sessionSecret ?? "",
          onReady: async (r) => {
            if (r.draftId !== null) await sendWaitingDraft(deps, r.businessId, r.draftId);
            if (r.fireId !== null) await fireNow(deps.db, r.fireId, deps.now());
          },
        }),
    },
  ];
}
