import type { Kysely } from "kysely";

// The DM inbox (issue 5): a conversation can be snoozed until a time (it wakes as unread when the time
// passes or the member texts), and remembers when it was last read. Indexes for the inbox's "active"
// tab (newest activity first across read and unread) and for a member's thread of outbound texts.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("conversations").addColumn("snoozed_until", "text").execute();
  await db.schema.alterTable("conversations").addColumn("read_at", "text").execute();
  await db.schema.createIndex("conversations_business_recent_idx").on("conversations").columns(["business_id", "last_message_at", "id"]).execute();
  await db.schema.createIndex("outbound_member_idx").on("outbound").columns(["member_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("outbound_member_idx").ifExists().execute();
  await db.schema.dropIndex("conversations_business_recent_idx").ifExists().execute();
  await db.schema.alterTable("conversations").dropColumn("read_at").execute();
  await db.schema.alterTable("conversations").dropColumn("snoozed_until").execute();
}
