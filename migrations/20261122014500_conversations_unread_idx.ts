import type { Kysely } from "kysely";

// The unread count (home tile, UNREADMESSAGESTOTAL) sums unread_count over a business's UNREAD
// conversations, and the inbox tab labels count conversations per state: this index answers both
// without reading the table.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("conversations_unread_idx").on("conversations").columns(["business_id", "state", "unread_count"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("conversations_unread_idx").ifExists().execute();
}
