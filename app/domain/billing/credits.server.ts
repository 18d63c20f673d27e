// Credits: what a business may still send, and every movement of them.
//
// The ledger (credit_ledger) is the record: every grant (the trial's credits, each period's allowance, an
// increase) and every charge and refund of a send is a row, and the balances follow from the rows
// (`derivedBalances`). The business row carries the same figures as a running total (trial_credits,
// message_allowance, allowance_used), written only here and in the same transaction as the row, because a
// single conditional UPDATE of that row is what lets concurrent senders (several workers, several processes)
// never overdraw: the database re-checks the condition under its row lock. `reconcile` compares the two.
//
// A monthly plan (message_allowance > 0) counts segments against the allowance of the current period
// (allowance_period_start); a trial spends trial credits.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { getBusiness, planOf } from "~/domain/accounts/status.server";

/** A database handle or an open transaction. */
type Db = Kysely<DB>;

export type CreditPool = "TRIAL" | "ALLOWANCE";

export interface LedgerEntry {
  /** Why credits moved, e.g. "send", "failed-before-provider". */
  reason: string;
  /** What they moved for, e.g. "message:42" or "campaign:7"; used to audit and to find a charge to refund. */
  reference?: string | null;
  /** Time of the movement (defaults to now). */
  now?: Date;
}

/** Credits the business can still spend now: 0 once a trial has ended. */
export async function creditsRemaining(db: Db, businessId: number, now: Date): Promise<number> {
  const business = await getBusiness(db, businessId);
  if (sendingStoppedForPayment(business, now)) return 0;
  const plan = planOf(business, now);
  if (plan.kind === "trial" && plan.daysLeftOfTrial < 1) return 0;
  return plan.creditsRemaining;
}

/** True once the grace period after a failed renewal has passed without a payment. */
export function sendingStoppedForPayment(business: { payment_grace_ends_at: string | null }, now: Date): boolean {
  return business.payment_grace_ends_at !== null && business.payment_grace_ends_at <= now.toISOString();
}

/**
 * Refuses a send the business cannot pay for: AppError BR012 with {needed, remaining}.
 * A check for the user's benefit before work is queued; `charge` is what really guards the balance.
 */
export async function assertCredit(db: Db, businessId: number, creditsNeeded: number, now: Date): Promise<{ remaining: number }> {
  if (!Number.isInteger(creditsNeeded) || creditsNeeded < 0) throw new RangeError("creditsNeeded must be a whole number, 0 or more");
  if (creditsNeeded > 0 && sendingStoppedForPayment(await getBusiness(db, businessId), now)) throw new AppError("BR033");
  const remaining = await creditsRemaining(db, businessId, now);
  if (creditsNeeded > remaining) throw new AppError("BR012", { needed: creditsNeeded, remaining });
  return { remaining };
}

function checkAmount(credits: number) {
  if (!Number.isInteger(credits) || credits <= 0) throw new RangeError("credits must be a whole number above 0");
}

/** Runs `fn` in the caller's transaction, or in a new one when given the root handle. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

async function record(trx: Db, businessId: number, kind: "GRANT" | "CHARGE" | "REFUND", pool: CreditPool, credits: number, entry: LedgerEntry, period: string | null, grantKey: string | null = null) {
  await trx
    .insertInto("credit_ledger")
    .values({
      business_id: businessId,
      kind,
      pool,
      credits,
      reason: entry.reason.slice(0, 200),
      reference: entry.reference?.slice(0, 200) ?? null,
      created_at: (entry.now ?? new Date()).toISOString(),
      period: pool === "ALLOWANCE" ? period : null,
      grant_key: grantKey,
    })
    .execute();
}

/**
 * Takes `credits` from the business's allowance (monthly plan) or trial credits, only if they are
 * there. Returns false, and changes nothing, when they are not.
 */
export async function charge(trx: Db, businessId: number, credits: number, entry: LedgerEntry = { reason: "send" }): Promise<boolean> {
  checkAmount(credits);
  const at = (entry.now ?? new Date()).toISOString();
  return inTransaction(trx, async (t) => {
    const allowance = await t
      .updateTable("businesses")
      .set((eb) => ({ allowance_used: eb("allowance_used", "+", credits) }))
      .where("id", "=", businessId)
      .where("message_allowance", ">", 0)
      .where((eb) => eb(eb("allowance_used", "+", credits), "<=", eb.ref("message_allowance")))
      .where((eb) => eb.or([eb("payment_grace_ends_at", "is", null), eb("payment_grace_ends_at", ">", at)]))
      .returning("allowance_period_start")
      .executeTakeFirst();
    if (allowance) {
      await record(t, businessId, "CHARGE", "ALLOWANCE", credits, entry, allowance.allowance_period_start);
      return true;
    }
    const trial = await t
      .updateTable("businesses")
      .set((eb) => ({ trial_credits: eb("trial_credits", "-", credits) }))
      .where("id", "=", businessId)
      .where("message_allowance", "<=", 0)
      .where("trial_credits", ">=", credits)
      .where((eb) => eb.or([eb("payment_grace_ends_at", "is", null), eb("payment_grace_ends_at", ">", at)]))
      .executeTakeFirst();
    if (Number(trial.numUpdatedRows) === 1) {
      await record(t, businessId, "CHARGE", "TRIAL", credits, entry, null);
      return true;
    }
    return false;
  });
}

/**
 * Gives `credits` back (a message that failed permanently before reaching the provider). They go
 * back to the pool the matching charge came from when `entry.reference` names one, else to the
 * business's current plan. An allowance is never taken below zero used. Returns false when nothing
 * could be refunded (unknown business, or more than was used).
 */
export async function refund(trx: Db, businessId: number, credits: number, entry: LedgerEntry = { reason: "refund" }): Promise<boolean> {
  checkAmount(credits);
  return inTransaction(trx, async (t) => {
    let pool: CreditPool | undefined;
    if (entry.reference) {
      const charged = await t
        .selectFrom("credit_ledger")
        .select("pool")
        .where("business_id", "=", businessId)
        .where("kind", "=", "CHARGE")
        .where("reference", "=", entry.reference)
        .orderBy("id", "desc")
        .executeTakeFirst();
      pool = charged?.pool;
    }
    if (!pool) {
      const b = await t.selectFrom("businesses").select("message_allowance").where("id", "=", businessId).executeTakeFirst();
      if (!b) return false;
      pool = b.message_allowance > 0 ? "ALLOWANCE" : "TRIAL";
    }
    const result =
      pool === "ALLOWANCE"
        ? await t
            .updateTable("businesses")
            .set((eb) => ({ allowance_used: eb("allowance_used", "-", credits) }))
            .where("id", "=", businessId)
            .where("allowance_used", ">=", credits)
            .returning("allowance_period_start")
            .executeTakeFirst()
        : await t
            .updateTable("businesses")
            .set((eb) => ({ trial_credits: eb("trial_credits", "+", credits) }))
            .where("id", "=", businessId)
            .returning("allowance_period_start")
            .executeTakeFirst();
    if (!result) return false;
    await record(t, businessId, "REFUND", pool, credits, entry, result.allowance_period_start);
    return true;
  });
}

/** A business's ledger, newest first (for audits and the billing pages). */
export async function ledger(db: Db, businessId: number, limit = 100) {
  return db
    .selectFrom("credit_ledger")
    .select(["id", "kind", "pool", "credits", "reason", "reference", "created_at", "period"])
    .where("business_id", "=", businessId)
    .orderBy("id", "desc")
    .limit(Math.max(1, Math.min(1000, limit)))
    .execute();
}

/** True when the error is a unique-constraint violation (SQLite or PostgreSQL). */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

/**
 * Records a grant once: a second grant with the same key changes nothing and returns false. Runs in the
 * caller's transaction (or a new one); `apply` moves the running total on the business row.
 */
async function grantOnce(db: Db, businessId: number, pool: CreditPool, credits: number, key: string, entry: LedgerEntry, apply: (t: Db) => Promise<string | null>): Promise<boolean> {
  checkAmount(credits);
  const seen = await db.selectFrom("credit_ledger").select("id").where("grant_key", "=", key).executeTakeFirst();
  if (seen) return false;
  try {
    return await inTransaction(db, async (t) => {
      const period = await apply(t);
      await record(t, businessId, "GRANT", pool, credits, entry, period, key);
      return true;
    });
  } catch (error) {
    // Another process recorded the same grant first: on PostgreSQL the caller's transaction is now aborted,
    // so let it fail there; on SQLite (one writer at a time) the check above already saw it.
    if (isUniqueViolation(error) && !db.isTransaction) return false;
    throw error;
  }
}

/** Gives a new account its trial credits (once per account). */
export async function grantTrialCredits(db: Db, businessId: number, credits: number, now: Date): Promise<boolean> {
  return grantOnce(db, businessId, "TRIAL", credits, `trial:${businessId}`, { reason: "trial", now }, async (t) => {
    await t
      .updateTable("businesses")
      .set((eb) => ({ trial_credits: eb("trial_credits", "+", credits) }))
      .where("id", "=", businessId)
      .execute();
    return null;
  });
}

/**
 * Starts a new allowance period of `allowance` credits: the used count starts again at 0 and the grant is
 * recorded under `key` (once). The boundary is the moment it happens, so sends either side of it count in
 * the period they were made in.
 */
export async function startAllowancePeriod(db: Db, businessId: number, allowance: number, key: string, entry: LedgerEntry & { now: Date }): Promise<boolean> {
  const period = entry.now.toISOString();
  return grantOnce(db, businessId, "ALLOWANCE", allowance, key, entry, async (t) => {
    await t
      .updateTable("businesses")
      .set({ message_allowance: allowance, allowance_used: 0, allowance_period_start: period })
      .where("id", "=", businessId)
      .execute();
    return period;
  });
}

/** Adds `credits` to the current period's allowance (an increase, for good or for this month), once per key. */
export async function grantAllowance(db: Db, businessId: number, credits: number, key: string, entry: LedgerEntry): Promise<boolean> {
  return grantOnce(db, businessId, "ALLOWANCE", credits, key, entry, async (t) => {
    const row = await t
      .updateTable("businesses")
      .set((eb) => ({ message_allowance: eb("message_allowance", "+", credits) }))
      .where("id", "=", businessId)
      .where("allowance_period_start", "is not", null)
      .returning("allowance_period_start")
      .executeTakeFirst();
    if (!row) throw new RangeError("an allowance can only be increased once a monthly plan has started");
    return row.allowance_period_start;
  });
}

export interface Balances {
  trial: { granted: number; used: number; remaining: number };
  /** The current allowance period (null on a trial). */
  allowance: { period: string | null; granted: number; used: number; remaining: number };
}

/** The balances as the ledger's rows give them. */
export async function derivedBalances(db: Db, businessId: number): Promise<Balances> {
  const b = await db.selectFrom("businesses").select("allowance_period_start").where("id", "=", businessId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("credit_ledger")
    .select(["pool", "kind", "period", (eb) => eb.fn.sum<string | number>("credits").as("total")])
    .where("business_id", "=", businessId)
    .groupBy(["pool", "kind", "period"])
    .execute();
  const sum = (pool: CreditPool, kind: string, period?: string | null) =>
    rows.filter((r) => r.pool === pool && r.kind === kind && (period === undefined || r.period === period)).reduce((n, r) => n + Number(r.total), 0);
  const trialGranted = sum("TRIAL", "GRANT");
  const trialUsed = sum("TRIAL", "CHARGE") - sum("TRIAL", "REFUND");
  const period = b.allowance_period_start;
  const granted = period ? sum("ALLOWANCE", "GRANT", period) : 0;
  const used = period ? sum("ALLOWANCE", "CHARGE", period) - sum("ALLOWANCE", "REFUND", period) : 0;
  return {
    trial: { granted: trialGranted, used: trialUsed, remaining: trialGranted - trialUsed },
    allowance: { period, granted, used, remaining: Math.max(0, granted - used) },
  };
}

/**
 * Compares the running totals on the business row with what the ledger gives. Returns the differences
 * (an empty list when they agree).
 */
export async function reconcile(db: Db, businessId: number): Promise<string[]> {
  const b = await db.selectFrom("businesses").select(["trial_credits", "message_allowance", "allowance_used"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  const d = await derivedBalances(db, businessId);
  const problems: string[] = [];
  if (b.trial_credits !== d.trial.remaining) problems.push(`trial credits ${b.trial_credits} but the ledger gives ${d.trial.remaining}`);
  if (b.message_allowance !== d.allowance.granted) problems.push(`allowance ${b.message_allowance} but the ledger gives ${d.allowance.granted}`);
  if (b.allowance_used !== d.allowance.used) problems.push(`allowance used ${b.allowance_used} but the ledger gives ${d.allowance.used}`);
  return problems;
}
