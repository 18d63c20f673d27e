// Monthly subscriptions: activate from a trial, increase now (pro rata), increase for this month only, lower at
// the next renewal, and the renewals themselves with their failures, grace period and retries.
//
// Money is taken in three steps, so that a click, a retry or a crash can never take it twice:
//   1. a `payments` row is written first under an idempotency key that names what is being bought (one
//      activation per account, one increase per plan change and period, one renewal per period): a second
//      click finds the same row instead of making a new one;
//   2. the provider is asked for the money with the row's own key (it takes it at most once per key);
//   3. the outcome is settled in one transaction that moves the row from PENDING or REQUIRES_ACTION, so a
//      second settle of the same row does nothing. A paid row gets the next invoice number and its credits
//      are granted through the ledger under the row's key (never twice).
// A declined row frees its idempotency key, so the owner can try again with another card.
import { sql } from "kysely";
import type { Database } from "#db/index";
import type { Payment, PaymentKind, Subscription } from "#db/types";
import { anyFree, claimRows, writeTransaction } from "#db/claim";
import { AppError } from "~/lib/errors";
import type { CardInput, ChargeResult, PaymentProvider } from "~/providers/payments/types";
import { PaymentProviderError } from "~/providers/payments/types";
import { grantAllowance, sendingStoppedForPayment, startAllowancePeriod } from "./credits.server";
import { queueEmail } from "~/domain/email/email.server";
import { invoiceLabel, renderInvoicePdf } from "./invoices.server";
import { holdAwards, redeemReferrals, referralDiscountFor, releaseAwards } from "./referrals.server";
import { amounts, findPlan, formatBillingDate, formatPounds, nextMonthly, proRata, type BillingSettings, type Plan } from "./money";

type Db = Database;

export type ChangeKind = "activate" | "increase" | "month" | "lower";

export interface SubscriptionView {
  status: "TRIAL" | "ACTIVE" | "PAYMENT_FAILED";
  plan: Plan | null;
  /** The lower plan that takes over at the next renewal. */
  nextPlan: Plan | null;
  /** This period's allowance (more than the plan's after an increase for this month). */
  allowance: number;
  used: number;
  remaining: number;
  periodStart: string | null;
  nextPaymentDate: string | null;
  discount: { percent: number; endsAt: string | null } | null;
  cardLabel: string | null;
  /** After a failed renewal: when sending stops, and whether it has. */
  graceEndsAt: string | null;
  sendingStopped: boolean;
  /** A payment waiting for the owner's 3-D Secure confirmation. */
  pending: { id: number; actionUrl: string } | null;
  /** True when the increase for this month has been used this period. */
  monthIncreaseUsed: boolean;
  trial: { creditsRemaining: number; endsAt: string | null; ended: boolean };
}

export async function getSubscription(db: Db, businessId: number): Promise<Subscription | undefined> {
  return db.selectFrom("subscriptions").selectAll().where("business_id", "=", businessId).executeTakeFirst();
}

function activeDiscount(sub: Pick<Subscription, "discount_percent" | "discount_ends_at">, at: Date): number {
  if (!sub.discount_percent) return 0;
  if (sub.discount_ends_at && sub.discount_ends_at <= at.toISOString()) return 0;
  return sub.discount_percent;
}

export async function subscriptionView(db: Db, businessId: number, settings: BillingSettings, now: Date): Promise<SubscriptionView> {
  const b = await db
    .selectFrom("businesses")
    .select(["status", "message_allowance", "allowance_used", "trial_credits", "trial_ends_at", "payment_grace_ends_at", "allowance_period_start"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  const sub = await getSubscription(db, businessId);
  const pending = await db
    .selectFrom("payments")
    .select(["id", "action_url"])
    .where("business_id", "=", businessId)
    .where("status", "=", "REQUIRES_ACTION")
    .orderBy("id", "desc")
    .executeTakeFirst();
  const monthIncrease = sub
    ? await db
        .selectFrom("payments")
        .select("id")
        .where("business_id", "=", businessId)
        .where("kind", "=", "MONTH_INCREASE")
        .where("status", "=", "PAID")
        .where("period_start", "=", sub.period_start)
        .executeTakeFirst()
    : undefined;
  const trialEnded = !b.trial_ends_at || b.trial_ends_at <= now.toISOString();
  const discountPercent = sub ? activeDiscount(sub, now) : 0;
  return {
    status: sub ? sub.status : "TRIAL",
    plan: sub ? (findPlan(settings, sub.plan_id) ?? { id: sub.plan_id, allowance: sub.allowance, pricePence: sub.price_pence }) : null,
    nextPlan: sub?.next_plan_id ? (findPlan(settings, sub.next_plan_id) ?? null) : null,
    allowance: sub ? b.message_allowance : 0,
    used: sub ? b.allowance_used : 0,
    remaining: sub ? Math.max(0, b.message_allowance - b.allowance_used) : 0,
    periodStart: sub?.period_start ?? null,
    nextPaymentDate: sub?.period_end ?? null,
    discount: discountPercent ? { percent: discountPercent, endsAt: sub?.discount_ends_at ?? null } : null,
    cardLabel: sub?.card_label ?? null,
    graceEndsAt: b.payment_grace_ends_at,
    sendingStopped: sendingStoppedForPayment(b, now),
    pending: pending?.action_url ? { id: Number(pending.id), actionUrl: pending.action_url } : null,
    monthIncreaseUsed: Boolean(monthIncrease),
    trial: { creditsRemaining: Math.max(0, b.trial_credits), endsAt: b.trial_ends_at, ended: trialEnded },
  };
}

/** A price for a change, before it is made (the confirmation shows it). */
export interface Quote {
  kind: ChangeKind;
  plan: Plan;
  /** Credits the change adds to this period (0 for a lower plan). */
  credits: number;
  netPence: number;
  companyDiscountPence: number;
  referralDiscountPence: number;
  vatPence: number;
  totalPence: number;
  /** For a lower plan: the date it takes over. */
  effectiveAt: string | null;
}

/** Checks a change and prices it; AppError when it cannot be made. */
export async function quoteChange(db: Db, businessId: number, settings: BillingSettings, kind: ChangeKind, planId: string, now: Date): Promise<Quote> {
  const plan = findPlan(settings, planId);
  if (!plan) throw new AppError("BR025", undefined, { field: "plan" });
  const sub = await getSubscription(db, businessId);
  if (kind === "activate") {
    if (sub) throw new AppError("PY005");
    const referral = await referralDiscountFor(db, businessId, "ACTIVATE", settings);
    const a = amounts(plan.pricePence, settings.vatRatePercent, { referralPence: referral.totalPence });
    return {
      kind,
      plan,
      credits: plan.allowance,
      netPence: a.netPence,
      companyDiscountPence: a.companyDiscountPence,
      referralDiscountPence: a.referralDiscountPence,
      vatPence: a.vatPence,
      totalPence: a.totalPence,
      effectiveAt: null,
    };
  }
  if (!sub) throw new AppError("PY006");
  if (kind === "lower") {
    if (plan.allowance >= sub.allowance) throw new AppError("PY004", undefined, { field: "plan" });
    const b = await db.selectFrom("businesses").select("allowance_used").where("id", "=", businessId).executeTakeFirstOrThrow();
    if (plan.allowance < b.allowance_used) throw new AppError("PY003", { used: b.allowance_used, allowance: plan.allowance }, { field: "plan" });
    return { kind, plan, credits: 0, netPence: plan.pricePence, companyDiscountPence: 0, referralDiscountPence: 0, vatPence: 0, totalPence: 0, effectiveAt: sub.period_end };
  }
  if (sub.status === "PAYMENT_FAILED") throw new AppError("BR033");
  if (plan.allowance <= sub.allowance) throw new AppError("PY004", undefined, { field: "plan" });
  if (kind === "month") {
    const used = await db
      .selectFrom("payments")
      .select("id")
      .where("business_id", "=", businessId)
      .where("kind", "=", "MONTH_INCREASE")
      .where("status", "in", ["PAID", "PENDING", "REQUIRES_ACTION"])
      .where("period_start", "=", sub.period_start)
      .executeTakeFirst();
    if (used) throw new AppError("PY008");
  }
  const net = proRata(plan.pricePence - sub.price_pence, new Date(sub.period_start), new Date(sub.period_end), now);
  const referral = await referralDiscountFor(db, businessId, kind === "month" ? "MONTH_INCREASE" : "INCREASE", settings);
  const a = amounts(net, settings.vatRatePercent, { companyPercent: activeDiscount(sub, now), referralPence: referral.totalPence });
  return {
    kind,
    plan,
    credits: plan.allowance - sub.allowance,
    netPence: a.netPence,
    companyDiscountPence: a.companyDiscountPence,
    referralDiscountPence: a.referralDiscountPence,
    vatPence: a.vatPence,
    totalPence: a.totalPence,
    effectiveAt: null,
  };
}

export type PaymentOutcome = { status: "paid"; paymentId: number } | { status: "requires_action"; paymentId: number; actionUrl: string };

export interface ChangeRequest {
  businessId: number;
  businessName: string;
  kind: ChangeKind;
  planId: string;
  /** A new card; without one the card on file is used. */
  card?: CardInput;
  /** Where the 3-D Secure page sends the owner back to; `{id}` becomes the payment id. */
  returnUrl: string;
}

/**
 * Makes a change the owner asked for. A lower plan is only scheduled; the others take money first and change
 * nothing unless it was taken. AppError PY001/PY002 when the card is declined or not confirmed.
 */
export async function changeSubscription(db: Db, provider: PaymentProvider, settings: BillingSettings, req: ChangeRequest, now: Date): Promise<PaymentOutcome | { status: "scheduled"; effectiveAt: string }> {
  const quote = await quoteChange(db, req.businessId, settings, req.kind, req.planId, now);
  const sub = await getSubscription(db, req.businessId);
  if (req.kind === "lower") {
    await db.updateTable("subscriptions").set({ next_plan_id: quote.plan.id, updated_at: now.toISOString() }).where("business_id", "=", req.businessId).execute();
    return { status: "scheduled", effectiveAt: quote.effectiveAt! };
  }
  // A processor with its own card page collects a new card there; with our form one must have been typed.
  if (!req.card && !sub?.payment_method && provider.cardEntry === "form") throw new AppError("BR025", undefined, { field: "number" });
  const kind: PaymentKind = req.kind === "activate" ? "ACTIVATE" : req.kind === "increase" ? "INCREASE" : "MONTH_INCREASE";
  const periodStart = req.kind === "activate" ? now : new Date(sub!.period_start);
  const periodEnd = req.kind === "activate" ? nextMonthly(now, now) : new Date(sub!.period_end);
  const key =
    req.kind === "activate"
      ? `activate:${req.businessId}`
      : `${req.kind}:${req.businessId}:${sub!.period_start}:${sub!.plan_id}>${quote.plan.id}`;
  const payment = await openPayment(db, {
    business_id: req.businessId,
    kind,
    idempotency_key: key,
    description: describe(kind, quote.plan),
    plan_id: quote.plan.id,
    plan_price_pence: quote.plan.pricePence,
    allowance: quote.credits,
    net_pence: quote.netPence,
    company_discount_pence: quote.companyDiscountPence,
    referral_discount_pence: quote.referralDiscountPence,
    vat_pence: quote.vatPence,
    total_pence: quote.totalPence,
    period_start: periodStart.toISOString(),
    period_end: periodEnd.toISOString(),
    created_at: now.toISOString(),
  }, settings);
  return collect(db, provider, settings, payment, { name: req.businessName, card: req.card, paymentMethod: sub?.payment_method ?? null, offSession: false, returnUrl: req.returnUrl }, now);
}

/**
 * The company discount an operator gives a business: a whole percentage off the net price of every invoice
 * opened from now on (increases now, renewals from their period's start), until the end of `endsOn` (a day,
 * YYYY-MM-DD, UK time) or with no end. 0 removes it. Invoices already issued keep what they had. BR025 for a
 * percentage or date that cannot be used, PY006 for an account that has no monthly plan yet.
 */
export async function setCompanyDiscount(db: Db, businessId: number, input: { percent: number; endsOn: string | null }, now: Date): Promise<{ percent: number; endsAt: string | null }> {
  if (!Number.isInteger(input.percent) || input.percent < 0 || input.percent > 100) throw new AppError("BR025", undefined, { field: "percent" });
  let endsAt: string | null = null;
  if (input.endsOn) {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(input.endsOn);
    const day = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
    if (!day || day.toISOString().slice(0, 10) !== input.endsOn) throw new AppError("BR025", undefined, { field: "endsOn" });
    // The discount lasts the whole of its last day in the UK: it ends at the next midnight, London time.
    const next = new Date(day.getTime() + 86400_000);
    const londonOffset = new Date(next.toLocaleString("en-US", { timeZone: "Europe/London" })).getTime() - new Date(next.toLocaleString("en-US", { timeZone: "UTC" })).getTime();
    endsAt = new Date(next.getTime() - londonOffset).toISOString();
    if (endsAt <= now.toISOString()) throw new AppError("BR025", undefined, { field: "endsOn" });
  }
  const sub = await getSubscription(db, businessId);
  if (!sub) throw new AppError("PY006");
  const percent = input.percent;
  await db
    .updateTable("subscriptions")
    .set({ discount_percent: percent, discount_ends_at: percent ? endsAt : null, updated_at: now.toISOString() })
    .where("business_id", "=", businessId)
    .execute();
  return { percent, endsAt: percent ? endsAt : null };
}

/** Stops a scheduled lower plan: the current plan renews as before. */
export async function keepCurrentPlan(db: Db, businessId: number, now: Date): Promise<void> {
  await db.updateTable("subscriptions").set({ next_plan_id: null, updated_at: now.toISOString() }).where("business_id", "=", businessId).execute();
}

/** After a failed renewal: pays what is due now, with a new card or the card on file. */
export async function payNow(
  db: Db,
  provider: PaymentProvider,
  settings: BillingSettings,
  req: { businessId: number; businessName: string; card?: CardInput; newCard?: boolean; returnUrl: string },
  now: Date,
): Promise<PaymentOutcome> {
  const sub = await getSubscription(db, req.businessId);
  if (!sub || sub.status !== "PAYMENT_FAILED") throw new AppError("PY006");
  const newCard = Boolean(req.card) || Boolean(req.newCard);
  if (!newCard && !sub.payment_method) throw new AppError("BR025", undefined, { field: "number" });
  if (req.newCard && !req.card && provider.cardEntry === "form") throw new AppError("BR025", undefined, { field: "number" });
  const payment = await openRenewal(db, settings, sub, now);
  return collect(db, provider, settings, payment, { name: req.businessName, card: req.card, paymentMethod: newCard ? null : sub.payment_method, offSession: false, returnUrl: req.returnUrl }, now);
}

/** The owner is back from 3-D Secure: asks the provider how it went and settles the payment. */
export async function confirmPayment(db: Db, provider: PaymentProvider, settings: BillingSettings, businessId: number, paymentId: number, now: Date): Promise<PaymentOutcome> {
  const payment = await db.selectFrom("payments").selectAll().where("id", "=", paymentId).where("business_id", "=", businessId).executeTakeFirst();
  if (!payment) throw new AppError("NF001", undefined, { status: 404 });
  if (payment.status === "PAID") return { status: "paid", paymentId };
  if (payment.status !== "REQUIRES_ACTION" || !payment.provider_ref) throw new AppError("PY002");
  const result = await retrieveOrThrow(provider, payment.provider_ref);
  return settleOrThrow(db, settings, payment, result, now);
}

function describe(kind: PaymentKind, plan: Plan): string {
  // Stored in English on the invoice (an invoice is a fixed document).
  const n = plan.allowance.toLocaleString("en-GB");
  switch (kind) {
    case "ACTIVATE":
    case "RENEWAL":
      return `Monthly plan: ${n} texts a month`;
    case "INCREASE":
      return `Plan increased to ${n} texts a month (rest of this month)`;
    case "MONTH_INCREASE":
      return `Extra texts for this month, up to ${n}`;
  }
}

type NewPayment = Omit<
  Payment,
  "id" | "status" | "credit_pence" | "provider_ref" | "action_url" | "failure_code" | "invoice_number" | "paid_at" | "customer_name" | "customer_address" | "customer_vat_number"
>;

/**
 * The payment row for this key: the one already open (a second click), or a new one, which takes the referral
 * awards its discount counted.
 */
async function openPayment(db: Db, values: NewPayment, settings: BillingSettings): Promise<Payment> {
  const inserted = await db
    .insertInto("payments")
    .values({ ...values, status: "PENDING" })
    .onConflict((oc) => oc.column("idempotency_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted && values.referral_discount_pence > 0) {
    const referral = await referralDiscountFor(db, values.business_id, values.kind, settings);
    await holdAwards(db, Number(inserted.id), referral.awards.map((a) => a.id));
  }
  return db.selectFrom("payments").selectAll().where("idempotency_key", "=", values.idempotency_key).executeTakeFirstOrThrow();
}

/** The renewal payment for the subscription's current due date. */
async function openRenewal(db: Db, settings: BillingSettings, sub: Subscription, now: Date): Promise<Payment> {
  const plan = findPlan(settings, sub.next_plan_id ?? sub.plan_id) ?? { id: sub.plan_id, allowance: sub.allowance, pricePence: sub.price_pence };
  const start = new Date(sub.period_end);
  const referral = await referralDiscountFor(db, sub.business_id, "RENEWAL", settings);
  const a = amounts(plan.pricePence, settings.vatRatePercent, { companyPercent: activeDiscount(sub, start), referralPence: referral.totalPence });
  return openPayment(db, {
    business_id: sub.business_id,
    kind: "RENEWAL",
    idempotency_key: `renewal:${sub.business_id}:${sub.period_end}`,
    description: describe("RENEWAL", plan),
    plan_id: plan.id,
    plan_price_pence: plan.pricePence,
    allowance: plan.allowance,
    net_pence: a.netPence,
    company_discount_pence: a.companyDiscountPence,
    referral_discount_pence: a.referralDiscountPence,
    vat_pence: a.vatPence,
    total_pence: a.totalPence,
    period_start: sub.period_end,
    period_end: nextMonthly(new Date(sub.created_at), start).toISOString(),
    created_at: now.toISOString(),
  }, settings);
}

async function collect(
  db: Db,
  provider: PaymentProvider,
  settings: BillingSettings,
  payment: Payment,
  who: { name: string; card?: CardInput; paymentMethod: string | null; offSession: boolean; returnUrl: string },
  now: Date,
): Promise<PaymentOutcome> {
  if (payment.status === "PAID") return { status: "paid", paymentId: Number(payment.id) };
  let result: ChargeResult;
  if (payment.status === "REQUIRES_ACTION" && payment.provider_ref) {
    // A second click while 3-D Secure is waiting: the same confirmation, never a second charge.
    result = await retrieveOrThrow(provider, payment.provider_ref);
  } else {
    try {
      result = await provider.charge({
        customer: { businessId: payment.business_id, name: who.name },
        amountPence: payment.total_pence,
        description: payment.description,
        idempotencyKey: `payment:${payment.id}`,
        card: who.card,
        paymentMethod: who.card ? null : who.paymentMethod,
        offSession: who.offSession,
        returnUrl: who.returnUrl.replace("{id}", String(payment.id)),
        cancelUrl: "/subscription",
      });
    } catch (error) {
      if (error instanceof PaymentProviderError) throw new AppError("PY007");
      throw error;
    }
  }
  return settleOrThrow(db, settings, payment, result, now);
}

/** The provider's current answer for a payment; PY007 (nothing changed) when it cannot be had now. */
async function retrieveOrThrow(provider: PaymentProvider, reference: string): Promise<ChargeResult> {
  try {
    return await provider.retrieve(reference);
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError("PY007");
    throw error;
  }
}

async function settleOrThrow(db: Db, settings: BillingSettings, payment: Payment, result: ChargeResult, now: Date): Promise<PaymentOutcome> {
  const settled = await settle(db, Number(payment.id), result, now, settings);
  if (settled.status === "PAID") return { status: "paid", paymentId: Number(payment.id) };
  if (settled.status === "REQUIRES_ACTION") return { status: "requires_action", paymentId: Number(payment.id), actionUrl: settled.action_url! };
  throw new AppError(settled.failure_code === "authentication_failed" || settled.failure_code === "authentication_required" ? "PY002" : "PY001", undefined, {
    status: 402,
    field: settled.failure_code === "invalid_card" || settled.failure_code === "expired_card" ? "number" : undefined,
  });
}

const isUnique = (e: unknown) => {
  const x = e as { code?: string; message?: string };
  return x?.code === "23505" || /UNIQUE constraint failed/i.test(x?.message ?? "");
};

/**
 * Records the provider's answer for a payment, once: only a PENDING or REQUIRES_ACTION row moves. A paid
 * row gets the next invoice number and makes its change (subscription, account status, ledger grant).
 */
export async function settle(db: Db, paymentId: number, result: ChargeResult, now: Date, settings?: BillingSettings): Promise<Payment> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        const p = await trx.selectFrom("payments").selectAll().where("id", "=", paymentId).executeTakeFirstOrThrow();
        if (p.status === "PAID" || p.status === "FAILED") return p;
        if (result.status === "requires_action") {
          await trx.updateTable("payments").set({ status: "REQUIRES_ACTION", provider_ref: result.reference, action_url: result.actionUrl }).where("id", "=", paymentId).execute();
        } else if (result.status === "declined") {
          // The key is freed (suffixed with the row's id) so the owner can try again with another card.
          await trx
            .updateTable("payments")
            .set({ status: "FAILED", failure_code: result.code, provider_ref: result.reference, action_url: null, idempotency_key: `${p.idempotency_key}#failed:${p.id}` })
            .where("id", "=", paymentId)
            .execute();
          await releaseAwards(trx, paymentId);
        } else {
          const last = await trx.selectFrom("payments").select((eb) => eb.fn.max("invoice_number").as("n")).executeTakeFirst();
          const invoiceNumber = Number(last?.n ?? 0) + 1;
          const customer = await trx.selectFrom("businesses").select(["name", "billing_address", "billing_vat_number"]).where("id", "=", p.business_id).executeTakeFirstOrThrow();
          await trx
            .updateTable("payments")
            .set({
              status: "PAID",
              provider_ref: result.reference,
              action_url: null,
              invoice_number: invoiceNumber,
              paid_at: now.toISOString(),
              customer_name: customer.name,
              customer_address: customer.billing_address,
              customer_vat_number: customer.billing_vat_number,
            })
            .where("id", "=", paymentId)
            .execute();
          await applyPaid(trx, p, result, now);
          await redeemReferrals(trx, { id: paymentId, business_id: p.business_id, kind: p.kind, referral_discount_pence: p.referral_discount_pence }, settings ?? {}, now);
          if (settings?.supplier) await emailInvoice(trx, paymentId, settings, now);
        }
        return trx.selectFrom("payments").selectAll().where("id", "=", paymentId).executeTakeFirstOrThrow();
      });
    } catch (error) {
      // Two payments settled at the same instant on PostgreSQL can pick the same invoice number: the unique
      // index refuses the second, which takes the next one.
      if (attempt < 5 && isUnique(error)) continue;
      throw error;
    }
  }
}

async function applyPaid(trx: Db, p: Payment, result: Extract<ChargeResult, { status: "succeeded" }>, now: Date): Promise<void> {
  const at = now.toISOString();
  const card = { payment_method: result.paymentMethod, card_label: result.cardLabel };
  const key = `payment:${p.id}`;
  switch (p.kind) {
    case "ACTIVATE":
      await trx
        .insertInto("subscriptions")
        .values({
          business_id: p.business_id,
          plan_id: p.plan_id,
          allowance: p.allowance,
          price_pence: p.plan_price_pence,
          status: "ACTIVE",
          period_start: p.period_start,
          period_end: p.period_end,
          ...card,
          created_at: p.period_start,
          updated_at: at,
        })
        .execute();
      await setBillingStatus(trx, p.business_id, "SUBSCRIBED", null);
      await startAllowancePeriod(trx, p.business_id, p.allowance, key, { reason: "allowance", reference: key, now });
      return;
    case "INCREASE": {
      const sub = await trx.selectFrom("subscriptions").select("allowance").where("business_id", "=", p.business_id).executeTakeFirstOrThrow();
      await trx
        .updateTable("subscriptions")
        .set({ plan_id: p.plan_id, allowance: sub.allowance + p.allowance, price_pence: p.plan_price_pence, next_plan_id: null, ...card, updated_at: at })
        .where("business_id", "=", p.business_id)
        .execute();
      await grantAllowance(trx, p.business_id, p.allowance, key, { reason: "increase", reference: key, now });
      return;
    }
    case "MONTH_INCREASE":
      await trx.updateTable("subscriptions").set({ ...card, updated_at: at }).where("business_id", "=", p.business_id).execute();
      await grantAllowance(trx, p.business_id, p.allowance, key, { reason: "increase-this-month", reference: key, now });
      return;
    case "RENEWAL":
      await trx
        .updateTable("subscriptions")
        .set({
          plan_id: p.plan_id,
          allowance: p.allowance,
          price_pence: p.plan_price_pence,
          next_plan_id: null,
          status: "ACTIVE",
          period_start: p.period_start,
          period_end: p.period_end,
          failed_at: null,
          retry_at: null,
          renewing_until: null,
          ...card,
          updated_at: at,
        })
        .where("business_id", "=", p.business_id)
        .execute();
      await setBillingStatus(trx, p.business_id, "SUBSCRIBED", null);
      await startAllowancePeriod(trx, p.business_id, p.allowance, key, { reason: "allowance", reference: key, now });
      return;
  }
}

/**
 * One renewal round: takes the subscriptions whose period has ended (and failed ones whose retry is due),
 * charges the card on file for the next period, and settles. A declined card puts the account in
 * payment-failed with a grace period and a retry schedule; a provider that cannot be reached leaves the
 * renewal for a later round. Returns how many subscriptions it took.
 */
export async function renewDue(db: Db, provider: PaymentProvider, settings: BillingSettings, now: Date, limit = 20): Promise<number> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + 10 * 60_000).toISOString();
  const due = sql`period_end <= ${at} and (renewing_until is null or renewing_until <= ${at})
        and (status = 'ACTIVE' or (status = 'PAYMENT_FAILED' and retry_at is not null and retry_at <= ${at}))`;
  if (!(await anyFree(db, "subscriptions", due))) return 0;
  const claimed = await writeTransaction(db, (trx) =>
    claimRows<{ business_id: number | string }>(trx, {
      table: "subscriptions",
      set: sql`renewing_until = ${lease}`,
      where: sql`period_end <= ${at} and (renewing_until is null or renewing_until <= ${at})
        and (status = 'ACTIVE' or (status = 'PAYMENT_FAILED' and retry_at is not null and retry_at <= ${at}))`,
      orderBy: sql`period_end, id`,
      limit,
      returning: sql`business_id`,
    }),
  );
  for (const row of claimed) await renewOne(db, provider, settings, Number(row.business_id), now);
  return claimed.length;
}

async function renewOne(db: Db, provider: PaymentProvider, settings: BillingSettings, businessId: number, now: Date): Promise<void> {
  const sub = await getSubscription(db, businessId);
  if (!sub) return;
  const business = await db.selectFrom("businesses").select("name").where("id", "=", businessId).executeTakeFirstOrThrow();
  const payment = await openRenewal(db, settings, sub, now);
  try {
    await collect(db, provider, settings, payment, { name: business.name, paymentMethod: sub.payment_method, offSession: true, returnUrl: "/subscription" }, now);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === "PY007") {
      // The provider could not be reached: the lease runs out and a later round tries again.
      return;
    }
    await markFailed(db, settings, sub, now);
  }
}

async function markFailed(db: Db, settings: BillingSettings, sub: Subscription, now: Date): Promise<void> {
  const failedAt = sub.failed_at ? new Date(sub.failed_at) : now;
  const failures = await db
    .selectFrom("payments")
    .select((eb) => eb.fn.countAll<string | number>().as("n"))
    .where("business_id", "=", sub.business_id)
    .where("kind", "=", "RENEWAL")
    .where("status", "=", "FAILED")
    .where("period_start", "=", sub.period_end)
    .executeTakeFirstOrThrow();
  const n = Number(failures.n);
  const nextDay = settings.retryDays.find((d) => failedAt.getTime() + d * 86400_000 > now.getTime());
  const retryAt = n <= settings.retryDays.length && nextDay !== undefined ? new Date(failedAt.getTime() + nextDay * 86400_000).toISOString() : null;
  const graceEnds = new Date(failedAt.getTime() + settings.graceDays * 86400_000).toISOString();
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("subscriptions")
      .set({ status: "PAYMENT_FAILED", failed_at: failedAt.toISOString(), retry_at: retryAt, renewing_until: null, updated_at: now.toISOString() })
      .where("business_id", "=", sub.business_id)
      .execute();
    await setBillingStatus(trx, sub.business_id, "PAYMENT_FAILED", graceEnds);
    if (!sub.failed_at) {
      // The first failure of this renewal: tell the Administrator (retries that fail again do not repeat it).
      for (const to of await adminEmails(trx, sub.business_id)) {
        await queueEmail(
          trx,
          {
            businessId: sub.business_id,
            to,
            kind: "payment-failed",
            subject: "Your Textcircle payment failed",
            text: [
              "We could not take your monthly payment for Textcircle.",
              `You can keep sending until ${formatBillingDate(graceEnds, "en-GB")}. After that, sending stops until the payment is made; nothing is deleted.`,
              "Pay now, with the card on file or another card, on Your plan: /subscription",
            ].join("\n\n"),
          },
          now,
        );
      }
    }
  });
}

async function adminEmails(db: Db, businessId: number): Promise<string[]> {
  const rows = await db.selectFrom("users").select("email").where("business_id", "=", businessId).where("role", "=", "ADMIN").where("disabled", "=", 0).execute();
  return rows.map((r) => r.email);
}

/** Emails a paid payment's VAT invoice (the PDF attached) to the Administrator, in the settling transaction. */
async function emailInvoice(trx: Db, paymentId: number, settings: BillingSettings, now: Date): Promise<void> {
  const p = await trx.selectFrom("payments").selectAll().where("id", "=", paymentId).executeTakeFirstOrThrow();
  const pdf = await renderInvoicePdf(p, settings.supplier!, settings.vatRatePercent);
  const label = invoiceLabel(p.invoice_number!);
  const gbp = (pence: number) => formatPounds(pence, "en-GB");
  for (const to of await adminEmails(trx, p.business_id)) {
    await queueEmail(
      trx,
      {
        businessId: p.business_id,
        to,
        kind: "invoice",
        subject: `Your Textcircle VAT invoice ${label}`,
        text: [
          `Thank you for your payment of ${gbp(p.total_pence)}.`,
          `${p.description}\nExcluding VAT: ${gbp(p.total_pence - p.vat_pence)}\nVAT: ${gbp(p.vat_pence)}\nTotal: ${gbp(p.total_pence)}`,
          `Your VAT invoice ${label} is attached. Every invoice is also on Payment history: /paymenthistory`,
        ].join("\n\n"),
        attachments: [{ filename: `${label}.pdf`, contentType: "application/pdf", content: pdf }],
      },
      now,
    );
  }
}

/**
 * The billing status of a business (subscribed, payment failed). While an operator has the business
 * disabled or suspended, the status it will get back when the stop is lifted changes instead.
 */
export async function setBillingStatus(trx: Database, businessId: number, status: "SUBSCRIBED" | "PAYMENT_FAILED", graceEnds: string | null): Promise<void> {
  await trx
    .updateTable("businesses")
    .set({
      status: sql<string>`case when status in ('DISABLED', 'SUSPENDED') then status else ${status} end`,
      held_status: sql<string | null>`case when status in ('DISABLED', 'SUSPENDED') then ${status} else held_status end`,
      payment_grace_ends_at: graceEnds,
    })
    .where("id", "=", businessId)
    .execute();
}
