import { type Kysely, sql } from "kysely";
import { idType, withId } from "./helpers";

// The messaging engine's durable core: members (core columns; the community issue adds attributes),
// the consent log, messages (one logical send), outbound (one row per recipient: the durable work the
// workers claim) and DM conversations. Businesses gain quiet hours (UK local time, HH:MM).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("businesses").addColumn("quiet_start", "text", (c) => c.notNull().defaultTo("21:00")).execute();
  await db.schema.alterTable("businesses").addColumn("quiet_end", "text", (c) => c.notNull().defaultTo("08:00")).execute();

  await withId(db, db.schema.createTable("members"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("phone", "text", (c) => c.notNull()) // E.164
    .addColumn("first_name", "text")
    .addColumn("full_name", "text")
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | SUBSCRIBED | OPTED_OUT | DELETED
    .addColumn("unique_ref", "text", (c) => c.notNull().unique()) // >= 128 random bits: the member form link
    .addColumn("joined_at", "text")
    .addColumn("invited_at", "text")
    .addColumn("opted_out_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addUniqueConstraint("members_business_phone_uq", ["business_id", "phone"])
    .execute();
  await db.schema.createIndex("members_business_status_idx").on("members").columns(["business_id", "status", "id"]).execute();

  // Kept when the member is deleted (member_id becomes NULL; the phone stays).
  await withId(db, db.schema.createTable("consent_log"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.references("members.id").onDelete("set null"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull()) // OPT_IN_REQUESTED | OPTED_IN | OPTED_OUT | REJOINED
    .addColumn("channel", "text", (c) => c.notNull()) // SMS | INVITE | WEB | IMPORT | API
    .addColumn("evidence", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("consent_log_member_idx").on("consent_log").columns(["business_id", "phone", "id"]).execute();
  await db.schema.createIndex("consent_log_member_id_idx").on("consent_log").column("member_id").execute();

  await withId(db, db.schema.createTable("messages"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull()) // DM | GROUP | CAMPAIGN | SYSTEM
    .addColumn("body", "text", (c) => c.notNull()) // template with merge tags
    .addColumn("group_id", idType) // -1 = all subscribers
    .addColumn("member_id", idType, (c) => c.references("members.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull()) // SCHEDULED | SENDING_SOON | SENDING | COMPLETE | FAILED
    .addColumn("send_at", "text", (c) => c.notNull())
    .addColumn("editable_until", "text", (c) => c.notNull())
    .addColumn("recipients", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("credits", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("error", "text")
    .addColumn("created_by", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("messages_business_idx").on("messages").columns(["business_id", "status", "id"]).execute();

  // One row per recipient. No foreign key to members: the row is the durable record of what was sent,
  // and the worker's last-step guard reads the member's status itself.
  await withId(db, db.schema.createTable("outbound"))
    .addColumn("message_id", idType, (c) => c.notNull().references("messages.id").onDelete("cascade"))
    .addColumn("business_id", idType, (c) => c.notNull())
    .addColumn("member_id", idType)
    .addColumn("to_phone", "text", (c) => c.notNull())
    .addColumn("from_phone", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull()) // rendered
    .addColumn("segments", "integer", (c) => c.notNull())
    .addColumn("priority", "integer", (c) => c.notNull()) // 0 = DM/system, 1 = bulk
    .addColumn("status", "text", (c) => c.notNull()) // QUEUED | SENDING | SENT | DELIVERED | FAILED | UNKNOWN
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("worker_id", "text")
    .addColumn("provider_id", "text")
    .addColumn("error_code", "text")
    .addColumn("error", "text")
    .addColumn("quiet_hours", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("charged", "integer", (c) => c.notNull().defaultTo(1)) // 1 when its segments were charged (refund on failure)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("sent_at", "text")
    .addColumn("delivered_at", "text")
    .execute();
  // Claiming walks this index in (priority, id) order among QUEUED rows and filters on next_attempt_at
  // without touching the table; expired leases are found through the same index (status = SENDING).
  await db.schema.createIndex("outbound_claim_idx").on("outbound").columns(["status", "priority", "id", "next_attempt_at"]).execute();
  await db.schema.createIndex("outbound_lease_idx").on("outbound").columns(["status", "lease_until"]).execute();
  await db.schema.createIndex("outbound_provider_idx").on("outbound").column("provider_id").execute();
  await db.schema.createIndex("outbound_message_idx").on("outbound").columns(["message_id", "status"]).execute();

  await withId(db, db.schema.createTable("conversations"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addColumn("state", "text", (c) => c.notNull()) // UNREAD | READ | ACTIVE | SNOOZED | INACTIVE
    .addColumn("last_message_at", "text", (c) => c.notNull())
    .addColumn("unread_count", "integer", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("conversations_member_uq", ["business_id", "member_id"])
    .execute();
  await db.schema.createIndex("conversations_business_idx").on("conversations").columns(["business_id", "state", "last_message_at"]).execute();

  // The simulator remembers the client reference (our outbound id) so a worker can reconcile.
  await db.schema.alterTable("sim_messages").addColumn("reference", "text").execute();
  await db.schema.alterTable("sim_messages").addColumn("error_code", "text").execute();
  await db.schema.createIndex("sim_messages_reference_idx").on("sim_messages").column("reference").execute();

  // Inbound processing records who sent the text and what it was (keyword or conversation message).
  await db.schema.alterTable("inbound_messages").addColumn("member_id", idType).execute();
  await db.schema.alterTable("inbound_messages").addColumn("kind", "text").execute();
  await db.schema.createIndex("inbound_messages_member_idx").on("inbound_messages").columns(["member_id", "id"]).execute();
  void sql;
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("sim_messages_reference_idx").ifExists().execute();
  for (const t of ["conversations", "outbound", "messages", "consent_log", "members"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
