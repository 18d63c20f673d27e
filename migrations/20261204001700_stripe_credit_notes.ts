import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// A real card processor beside the simulator, credit notes, and group messages sent to part of their group.
//   payment_customers: the processor's customer for a business (one per business and provider).
//   payment_events: every signed webhook event taken in, by its id, so that each is acted on once.
//   credit_notes: a refund of an invoice (or of part of it), with its own unbroken number, once issued.
//   message_left_out: the members a group message was not sent to because the credit ran out first.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("payment_customers"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("customer_ref", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("payment_customers_once_idx").on("payment_customers").columns(["business_id", "provider"]).unique().execute();

  await withId(db, db.schema.createTable("payment_events"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("received_at", "text", (c) => c.notNull())
    .addColumn("processed_at", "text")
    .execute();
  await db.schema.createIndex("payment_events_once_idx").on("payment_events").columns(["provider", "event_id"]).unique().execute();

  await withId(db, db.schema.createTable("credit_notes"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("payment_id", idType, (c) => c.notNull().references("payments.id").onDelete("cascade")) // the invoice it credits
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | ISSUED | FAILED
    .addColumn("idempotency_key", "text", (c) => c.notNull().unique())
    .addColumn("provider_ref", "text", (c) => c.unique()) // the processor's refund
    .addColumn("reason", "text", (c) => c.notNull())
    .addColumn("net_pence", "integer", (c) => c.notNull())
    .addColumn("vat_pence", "integer", (c) => c.notNull())
    .addColumn("total_pence", "integer", (c) => c.notNull())
    .addColumn("number", "integer", (c) => c.unique())
    .addColumn("customer_name", "text")
    .addColumn("customer_address", "text")
    .addColumn("customer_vat_number", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("issued_at", "text")
    .execute();
  await db.schema.createIndex("credit_notes_business_idx").on("credit_notes").columns(["business_id", "number"]).execute();

  await withId(db, db.schema.createTable("message_left_out"))
    .addColumn("message_id", idType, (c) => c.notNull().references("messages.id").onDelete("cascade"))
    .addColumn("business_id", idType, (c) => c.notNull())
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .execute();
  await db.schema.createIndex("message_left_out_message_idx").on("message_left_out").columns(["message_id", "id"]).execute();
  await db.schema.alterTable("messages").addColumn("left_out", "integer", (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("messages").dropColumn("left_out").execute();
  for (const t of ["message_left_out", "credit_notes", "payment_events", "payment_customers"]) await db.schema.dropTable(t).ifExists().execute();
}
