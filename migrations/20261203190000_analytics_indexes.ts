import type { Kysely } from "kysely";

// Owner analytics reads one business's rows over a period by their time: texts sent, credits used, members
// joined and left, and the group and campaign messages of the period. Each index leads with business_id and
// then the time column, so a period is one range of one index.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("outbound_business_sent_idx").on("outbound").columns(["business_id", "sent_at"]).execute();
  await db.schema.createIndex("credit_ledger_business_created_idx").on("credit_ledger").columns(["business_id", "created_at"]).execute();
  await db.schema.createIndex("consent_log_business_created_idx").on("consent_log").columns(["business_id", "created_at"]).execute();
  await db.schema.createIndex("messages_business_kind_send_idx").on("messages").columns(["business_id", "kind", "send_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("messages_business_kind_send_idx").ifExists().execute();
  await db.schema.dropIndex("consent_log_business_created_idx").ifExists().execute();
  await db.schema.dropIndex("credit_ledger_business_created_idx").ifExists().execute();
  await db.schema.dropIndex("outbound_business_sent_idx").ifExists().execute();
}
