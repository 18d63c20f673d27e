import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Referral discounts: when a referred business pays its first monthly subscription, it and its referrer each
// get a fixed discount once. A reward is AWARDED, held by a payment while that payment is open (payment_id),
// and REDEEMED when the payment is made.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("referral_rewards"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade")) // who gets the discount
    .addColumn("referral_id", idType, (c) => c.notNull()) // the referred business
    .addColumn("role", "text", (c) => c.notNull()) // REFERRER | REFERRED
    .addColumn("amount_pence", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // AWARDED | REDEEMED
    .addColumn("payment_id", idType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("redeemed_at", "text")
    .execute();
  await db.schema.createIndex("referral_rewards_once_idx").on("referral_rewards").columns(["referral_id", "role"]).unique().execute();
  await db.schema.createIndex("referral_rewards_business_idx").on("referral_rewards").columns(["business_id", "status"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("referral_rewards").ifExists().execute();
}
