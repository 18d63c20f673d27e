// Referral discounts. A business that signed up with another's referral code gets the fixed discount
// (REFERRAL_DISCOUNT_PENCE) on its first monthly payment; when that payment is made, its referrer is awarded the
// same discount for its next invoice. Each happens once (a unique index on the referral and the role). While a
// payment is open it holds the awards it uses, so two payments cannot spend the same one; a declined payment
// lets them go, a paid one redeems them.
import type { Database } from "#db/index";
import type { PaymentKind } from "#db/types";
import type { BillingSettings } from "./money";

type Db = Database;

export interface ReferralDiscount {
  /** The business's own discount as a referred business (first monthly payment only). */
  ownPence: number;
  /** Awards earned by referring others, not yet used. */
  awards: { id: number; amountPence: number }[];
  totalPence: number;
}

export async function referralDiscountFor(db: Db, businessId: number, kind: PaymentKind, settings: BillingSettings): Promise<ReferralDiscount> {
  const amount = settings.referralDiscountPence ?? 0;
  let ownPence = 0;
  if (kind === "ACTIVATE" && amount > 0) {
    const b = await db.selectFrom("businesses").select("referred_by_id").where("id", "=", businessId).executeTakeFirst();
    if (b?.referred_by_id) {
      const referrer = await db.selectFrom("businesses").select("id").where("id", "=", b.referred_by_id).executeTakeFirst();
      const done = await db.selectFrom("referral_rewards").select("id").where("referral_id", "=", businessId).where("role", "=", "REFERRED").executeTakeFirst();
      if (referrer && !done) ownPence = amount;
    }
  }
  const awards = await db
    .selectFrom("referral_rewards")
    .select(["id", "amount_pence"])
    .where("business_id", "=", businessId)
    .where("status", "=", "AWARDED")
    .where("payment_id", "is", null)
    .orderBy("id")
    .execute();
  const list = awards.map((a) => ({ id: Number(a.id), amountPence: a.amount_pence }));
  return { ownPence, awards: list, totalPence: ownPence + list.reduce((n, a) => n + a.amountPence, 0) };
}

/** A new payment takes the awards its discount counted. */
export async function holdAwards(db: Db, paymentId: number, awardIds: number[]): Promise<void> {
  if (!awardIds.length) return;
  await db.updateTable("referral_rewards").set({ payment_id: paymentId }).where("id", "in", awardIds).where("payment_id", "is", null).where("status", "=", "AWARDED").execute();
}

/** A declined payment lets its awards go for the next one. */
export async function releaseAwards(trx: Db, paymentId: number): Promise<void> {
  await trx.updateTable("referral_rewards").set({ payment_id: null }).where("payment_id", "=", paymentId).where("status", "=", "AWARDED").execute();
}

/**
 * A paid payment redeems the awards it held; when it was a referred business's first monthly payment with its
 * own discount, the referral is recorded as redeemed for it and awarded to its referrer (once).
 */
export async function redeemReferrals(trx: Db, payment: { id: number; business_id: number; kind: PaymentKind; referral_discount_pence: number }, settings: { referralDiscountPence?: number }, now: Date): Promise<void> {
  const at = now.toISOString();
  const held = await trx.selectFrom("referral_rewards").select(["id", "amount_pence"]).where("payment_id", "=", payment.id).where("status", "=", "AWARDED").execute();
  if (held.length) await trx.updateTable("referral_rewards").set({ status: "REDEEMED", redeemed_at: at }).where("id", "in", held.map((h) => h.id)).execute();
  const own = payment.referral_discount_pence - held.reduce((n, h) => n + h.amount_pence, 0);
  if (payment.kind !== "ACTIVATE" || own <= 0) return;
  const b = await trx.selectFrom("businesses").select("referred_by_id").where("id", "=", payment.business_id).executeTakeFirst();
  if (!b?.referred_by_id) return;
  const amount = settings.referralDiscountPence ?? own;
  await trx
    .insertInto("referral_rewards")
    .values({ business_id: payment.business_id, referral_id: payment.business_id, role: "REFERRED", amount_pence: own, status: "REDEEMED", payment_id: payment.id, created_at: at, redeemed_at: at })
    .onConflict((oc) => oc.columns(["referral_id", "role"]).doNothing())
    .execute();
  const referrer = await trx.selectFrom("businesses").select("id").where("id", "=", b.referred_by_id).executeTakeFirst();
  if (!referrer) return;
  await trx
    .insertInto("referral_rewards")
    .values({ business_id: referrer.id, referral_id: payment.business_id, role: "REFERRER", amount_pence: amount, status: "AWARDED", payment_id: null, created_at: at, redeemed_at: null })
    .onConflict((oc) => oc.columns(["referral_id", "role"]).doNothing())
    .execute();
}

export type ReferralState = "pending" | "awarded" | "redeemed";

/** The businesses this one referred, newest first, with where each referral's discount stands. */
export async function listReferrals(db: Db, businessId: number, limit = 200) {
  const referred = await db
    .selectFrom("businesses")
    .leftJoin("referral_rewards", (j) => j.onRef("referral_rewards.referral_id", "=", "businesses.id").on("referral_rewards.role", "=", "REFERRER"))
    .select(["businesses.id", "businesses.name", "businesses.created_at", "referral_rewards.status", "referral_rewards.amount_pence", "referral_rewards.redeemed_at"])
    .where("businesses.referred_by_id", "=", businessId)
    .orderBy("businesses.id", "desc")
    .limit(limit)
    .execute();
  return referred.map((r) => ({
    id: Number(r.id),
    name: r.name,
    joinedAt: r.created_at,
    state: (r.status === "REDEEMED" ? "redeemed" : r.status === "AWARDED" ? "awarded" : "pending") as ReferralState,
    amountPence: r.amount_pence ?? null,
    redeemedAt: r.redeemed_at ?? null,
  }));
}
