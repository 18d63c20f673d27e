import { sql, type Kysely } from "kysely";

// The inbound pipeline claims the oldest waiting texts (processed_at NULL) in id order. A partial index
// on id over just those texts lets the claim read them in order and stop after a few, however many
// texts have been processed before.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("inbound_messages_waiting_idx").on("inbound_messages").column("id").where(sql.ref("processed_at"), "is", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("inbound_messages_waiting_idx").ifExists().execute();
}
