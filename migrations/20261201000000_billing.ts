import { sql, type Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Billing: the credit ledger becomes the record of every grant as well as every charge and refund; monthly
// subscriptions, the payments (each paid one an invoice with an unbroken number) and the payment simulator.

export async function up(db: Kysely<any>): Promise<void> {
  // A grant (trial credits, a period's allowance, an increase) carries a key that makes it happen once only.
  await db.schema.alterTable("credit_ledger").addColumn("grant_key", "text").execute();
  await db.schema.createIndex("credit_ledger_grant_key_idx").on("credit_ledger").column("grant_key").unique().execute();
  // The allowance period an ALLOWANCE row belongs to (the business's allowance_period_start when it was written).
  await db.schema.alterTable("credit_ledger").addColumn("period", "text").execute();

  // Opening grants for the accounts that exist already, so their balances can be derived from the ledger:
  // the trial credits they started with (what is left plus what they spent) and the current period's allowance.
  await sql`
    INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, reference, created_at, grant_key)
    SELECT b.id, 'GRANT', 'TRIAL',
      b.trial_credits
        + COALESCE((SELECT SUM(l.credits) FROM credit_ledger l WHERE l.business_id = b.id AND l.pool = 'TRIAL' AND l.kind = 'CHARGE'), 0)
        - COALESCE((SELECT SUM(l.credits) FROM credit_ledger l WHERE l.business_id = b.id AND l.pool = 'TRIAL' AND l.kind = 'REFUND'), 0),
      'trial', NULL, b.created_at, 'trial:' || CAST(b.id AS TEXT)
    FROM businesses b`.execute(db);
  await sql`UPDATE businesses SET allowance_period_start = created_at WHERE message_allowance > 0 AND allowance_period_start IS NULL`.execute(db);
  await sql`
    UPDATE credit_ledger SET period = (SELECT b.allowance_period_start FROM businesses b WHERE b.id = credit_ledger.business_id)
    WHERE pool = 'ALLOWANCE'`.execute(db);
  await sql`
    INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, reference, created_at, grant_key, period)
    SELECT b.id, 'GRANT', 'ALLOWANCE', b.message_allowance, 'allowance', NULL, b.allowance_period_start,
      'allowance:' || CAST(b.id AS TEXT) || ':' || b.allowance_period_start, b.allowance_period_start
    FROM businesses b WHERE b.message_allowance > 0`.execute(db);

  // After a failed renewal the account may keep sending until this moment (the grace period).
  await db.schema.alterTable("businesses").addColumn("payment_grace_ends_at", "text").execute();
  // Who the invoices are made out to: the postal address and, if registered, the VAT number.
  await db.schema.alterTable("businesses").addColumn("billing_address", "text").execute();
  await db.schema.alterTable("businesses").addColumn("billing_vat_number", "text").execute();

  // One row per business that has had a monthly plan.
  await withId(db, db.schema.createTable("subscriptions"))
    .addColumn("business_id", idType, (c) => c.notNull().unique().references("businesses.id").onDelete("cascade"))
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("allowance", "integer", (c) => c.notNull())
    .addColumn("price_pence", "integer", (c) => c.notNull()) // excluding VAT
    .addColumn("status", "text", (c) => c.notNull()) // ACTIVE | PAYMENT_FAILED
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("period_end", "text", (c) => c.notNull()) // the next payment date
    .addColumn("next_plan_id", "text") // a lower plan that takes over at the next renewal
    .addColumn("discount_percent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("discount_ends_at", "text")
    .addColumn("payment_method", "text") // the provider's reference to the card on file
    .addColumn("card_label", "text") // e.g. "Visa ending 4242"
    .addColumn("failed_at", "text")
    .addColumn("retry_at", "text")
    .addColumn("renewing_until", "text") // a worker's claim on the renewal
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("subscriptions_due_idx").on("subscriptions").columns(["period_end"]).execute();

  // Every attempt to take money. A paid one gets the next invoice number, never reused and never skipped.
  await withId(db, db.schema.createTable("payments"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull()) // ACTIVATE | RENEWAL | INCREASE | MONTH_INCREASE
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | REQUIRES_ACTION | PAID | FAILED
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("plan_id", "text", (c) => c.notNull())
    .addColumn("plan_price_pence", "integer", (c) => c.notNull()) // the plan's full monthly price, excluding VAT
    .addColumn("allowance", "integer", (c) => c.notNull()) // the allowance (or extra credits) bought
    .addColumn("net_pence", "integer", (c) => c.notNull()) // before discounts, excluding VAT
    .addColumn("company_discount_pence", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("referral_discount_pence", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credit_pence", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("vat_pence", "integer", (c) => c.notNull())
    .addColumn("total_pence", "integer", (c) => c.notNull())
    .addColumn("period_start", "text", (c) => c.notNull())
    .addColumn("period_end", "text", (c) => c.notNull())
    .addColumn("provider_ref", "text")
    .addColumn("action_url", "text")
    .addColumn("failure_code", "text")
    .addColumn("invoice_number", "integer", (c) => c.unique())
    // The customer as the invoice names them, fixed when it is issued.
    .addColumn("customer_name", "text")
    .addColumn("customer_address", "text")
    .addColumn("customer_vat_number", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("paid_at", "text")
    .execute();
  await db.schema.createIndex("payments_business_idx").on("payments").columns(["business_id", "id"]).execute();

  // The payment simulator's record of what it was asked to do, shown on /paymentsimulator.
  await withId(db, db.schema.createTable("sim_payments"))
    .addColumn("business_id", idType)
    .addColumn("reference", "text", (c) => c.notNull().unique())
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("card", "text", (c) => c.notNull())
    .addColumn("amount_pence", "integer", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // SUCCEEDED | DECLINED | REQUIRES_ACTION | ABANDONED
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["sim_payments", "payments", "subscriptions"]) await db.schema.dropTable(t).ifExists().execute();
  await sql`DELETE FROM credit_ledger WHERE kind = 'GRANT'`.execute(db);
  await db.schema.alterTable("businesses").dropColumn("payment_grace_ends_at").execute();
  await db.schema.alterTable("businesses").dropColumn("billing_address").execute();
  await db.schema.alterTable("businesses").dropColumn("billing_vat_number").execute();
  await db.schema.dropIndex("credit_ledger_grant_key_idx").ifExists().execute();
  await db.schema.alterTable("credit_ledger").dropColumn("period").execute();
  await db.schema.alterTable("credit_ledger").dropColumn("grant_key").execute();
}
