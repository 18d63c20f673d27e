import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Group messages (issue 5): an idempotency key on messages (unique per business: a double-submitted
// send form creates one message), an index to list a group's messages newest first, and the drafts
// that carry the three-step composer (Compose, Schedule, Preview) between page loads server-side.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("messages").addColumn("idempotency_key", "text").execute();
  // NULLs never collide on either database, so messages without a key are unaffected.
  await db.schema.createIndex("messages_idempotency_uq").on("messages").columns(["business_id", "idempotency_key"]).unique().execute();
  await db.schema.createIndex("messages_group_list_idx").on("messages").columns(["business_id", "kind", "group_id", "id"]).execute();

  await withId(db, db.schema.createTable("group_message_drafts"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("group_id", idType) // -1 = all subscribers; NULL until the Schedule step
    .addColumn("send_mode", "text") // NOW | LATER
    .addColumn("send_at", "text") // ISO UTC when LATER
    .addColumn("token", "text", (c) => c.notNull()) // random: the idempotency key of the final send
    .addColumn("message_id", idType) // set once sent
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("group_message_drafts_business_idx").on("group_message_drafts").columns(["business_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("group_message_drafts").ifExists().execute();
  await db.schema.dropIndex("messages_group_list_idx").ifExists().execute();
  await db.schema.dropIndex("messages_idempotency_uq").ifExists().execute();
  await db.schema.alterTable("messages").dropColumn("idempotency_key").execute();
}
