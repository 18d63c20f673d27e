import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Emails: written in the same transaction as what they tell (an invoice, a receipt), sent by a worker round
// through the configured provider (the embedded outbox by default, SMTP when configured), retried with backoff.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("emails"))
    .addColumn("business_id", idType, (c) => c.references("businesses.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull()) // e.g. invoice, payment-failed
    .addColumn("to_address", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text")
    .addColumn("attachments", "text") // JSON: [{filename, contentType, contentBase64}]
    .addColumn("status", "text", (c) => c.notNull()) // QUEUED | SENDING | SENT | FAILED
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("provider", "text")
    .addColumn("provider_id", "text")
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .execute();
  await db.schema.createIndex("emails_due_idx").on("emails").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("emails_business_idx").on("emails").columns(["business_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("emails").ifExists().execute();
}
