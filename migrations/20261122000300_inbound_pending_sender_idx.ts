import { sql, type Kysely } from "kysely";

// Inbound processing keeps each sender's texts in order: before handling a text it looks for an older
// unprocessed one from the same phone to the same business. This partial index answers that at once,
// however long the backlog.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("inbound_messages_pending_sender_idx")
    .on("inbound_messages")
    .columns(["business_id", "from_number", "id"])
    .where(sql.ref("processed_at"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("inbound_messages_pending_sender_idx").execute();
}
