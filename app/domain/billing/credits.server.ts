// Credits: what a business may still send, and the atomic charge and refund of sends.
//
// A monthly plan (message_allowance > 0) counts segments against the allowance (allowance_used);
// a trial spends trial_credits. Both movements are single conditional UPDATEs, so concurrent
// senders (several workers, several processes) can never overdraw: the database re-checks the
// condition under its row lock. Every movement is written to credit_ledger in the same transaction.
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
  const plan = planOf(await getBusiness(db, businessId), now);
  if (plan.kind === "trial" && plan.daysLeftOfTrial < 1) return 0;
  return plan.creditsRemaining;
}

/**
 * Refuses a send the business cannot pay for: AppError BR012 with {needed, remaining}.
 * A check for the user's benefit before work is queued; `charge` is what really guards the balance.
 */
export async function assertCredit(db: Db, businessId: number, creditsNeeded: number, now: Date): Promise<{ remaining: number }> {
  if (!Number.isInteger(creditsNeeded) || creditsNeeded < 0) throw new RangeError("creditsNeeded must be a whole number, 0 or more");
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

async function record(trx: Db, businessId: number, kind: "CHARGE" | "REFUND", pool: CreditPool, credits: number, entry: LedgerEntry) {
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
    })
    .execute();
}

/**
 * Takes `credits` from the business's allowance (monthly plan) or trial credits, only if they are
 * there. Returns false, and changes nothing, when they are not.
 */
export async function charge(trx: Db, businessId: number, credits: number, entry: LedgerEntry = { reason: "send" }): Promise<boolean> {
  checkAmount(credits);
  return inTransaction(trx, async (t) => {
    const allowance = await t
      .updateTable("businesses")
      .set((eb) => ({ allowance_used: eb("allowance_used", "+", credits) }))
      .where("id", "=", businessId)
      .where("message_allowance", ">", 0)
      .where((eb) => eb(eb("allowance_used", "+", credits), "<=", eb.ref("message_allowance")))
      .executeTakeFirst();
    if (Number(allowance.numUpdatedRows) === 1) {
      await record(t, businessId, "CHARGE", "ALLOWANCE", credits, entry);
      return true;
    }
    const trial = await t
      .updateTable("businesses")
      .set((eb) => ({ trial_credits: eb("trial_credits", "-", credits) }))
      .where("id", "=", businessId)
      .where("message_allowance", "<=", 0)
      .where("trial_credits", ">=", credits)
      .executeTakeFirst();
    if (Number(trial.numUpdatedRows) === 1) {
      await record(t, businessId, "CHARGE", "TRIAL", credits, entry);
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
            .executeTakeFirst()
        : await t
            .updateTable("businesses")
            .set((eb) => ({ trial_credits: eb("trial_credits", "+", credits) }))
            .where("id", "=", businessId)
            .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await record(t, businessId, "REFUND", pool, credits, entry);
    return true;
  });
}

/** A business's ledger, newest first (for audits and the billing pages). */
export async function ledger(db: Db, businessId: number, limit = 100) {
  return db
    .selectFrom("credit_ledger")
    .select(["id", "kind", "pool", "credits", "reason", "reference", "created_at"])
    .where("business_id", "=", businessId)
    .orderBy("id", "desc")
    .limit(Math.max(1, Math.min(1000, limit)))
    .execute();
}
