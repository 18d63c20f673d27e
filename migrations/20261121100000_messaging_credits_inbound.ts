import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Messaging engine, part 1: an audit trail of credit movements, raw inbound texts as the provider
// delivered them (deduplicated by the provider's message id) and delivery receipts.

export async function up(db: Kysely<any>): Promise<void> {
  // Every charge and refund of trial credits or monthly allowance, so the figures can be audited.
  await withId(db, db.schema.createTable("credit_ledger"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull()) // CHARGE | REFUND
    .addColumn("pool", "text", (c) => c.notNull()) // TRIAL | ALLOWANCE
    .addColumn("credits", "integer", (c) => c.notNull()) // always positive; kind gives the direction
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("reference", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("credit_ledger_business_idx").on("credit_ledger").columns(["business_id", "id"]).execute();
  await db.schema.createIndex("credit_ledger_reference_idx").on("credit_ledger").column("reference").execute();

  // Texts received on a business number, exactly as the provider's webhook gave them.
  await withId(db, db.schema.createTable("inbound_messages"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("provider_id", "text", (c) => c.notNull().unique())
    .addColumn("from_number", "text", (c) => c.notNull())
    .addColumn("to_number", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    .execute();
  await db.schema.createIndex("inbound_messages_pending_idx").on("inbound_messages").columns(["processed_at", "id"]).execute();
  await db.schema.createIndex("inbound_messages_business_idx").on("inbound_messages").columns(["business_id", "received_at"]).execute();

  // Delivery status callbacks, one row per (message, status) the provider reported.
  await withId(db, db.schema.createTable("delivery_receipts"))
    .addColumn("business_id", idType, (c) => c.references("businesses.id").onDelete("cascade"))
    .addColumn("provider_id", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("error_code", "text")
    .addColumn("received_at", "text", (c) => c.notNull())
    .addUniqueConstraint("delivery_receipts_provider_status_uq", ["provider_id", "status"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["delivery_receipts", "inbound_messages", "credit_ledger"]) await db.schema.dropTable(t).ifExists().execute();
}
