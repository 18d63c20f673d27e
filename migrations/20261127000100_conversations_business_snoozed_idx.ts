import { sql, type Kysely } from "kysely";

// Reading a business's inbox counts the snoozes whose time has come (they read as unread until the worker wakes
// them): a partial index on that business's snoozed conversations by time keeps it an index read. And the inbox
// marks a conversation whose latest text may be an objection: that flag is kept on the conversation when the text
// arrives, so listing the inbox needs no lookup per row.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("conversations_business_snoozed_idx")
    .on("conversations")
    .columns(["business_id", "snoozed_until"])
    .where(sql.ref("state"), "=", "SNOOZED")
    .execute();
  await db.schema.alterTable("conversations").addColumn("last_in_flag", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").dropColumn("last_in_flag").execute();
  await db.schema.dropIndex("conversations_business_snoozed_idx").ifExists().execute();
}
