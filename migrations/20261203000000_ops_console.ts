import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// The operator console: Textcircle's own staff (operators) with their own sessions, apart from any
// business's users; an audit row for every operator action; saved replies for the support inbox; the
// support chat's assignment and read marks; and the status a business had before an operator stopped it
// (disabled or suspended), so that lifting the stop gives it back.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("operators"))
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("must_change_password", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("failed_logins", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", "text")
    .addColumn("last_login_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("operator_sessions")
    .addColumn("id", "text", (c) => c.primaryKey()) // SHA-256 of the cookie's token
    .addColumn("operator_id", idType, (c) => c.notNull().references("operators.id").onDelete("cascade"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("last_seen_at", "text")
    .execute();

  await withId(db, db.schema.createTable("operator_audit"))
    .addColumn("operator_id", idType, (c) => c.references("operators.id").onDelete("set null"))
    .addColumn("operator_email", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("business_id", idType, (c) => c.references("businesses.id").onDelete("set null"))
    .addColumn("target", "text")
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("operator_audit_business_idx").on("operator_audit").columns(["business_id", "id"]).execute();

  await withId(db, db.schema.createTable("saved_replies"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();

  await db.schema.alterTable("support_sessions").addColumn("assigned_operator_id", idType).execute();
  await db.schema.alterTable("support_sessions").addColumn("agent_read_at", "text").execute();
  await db.schema.alterTable("support_sessions").addColumn("closed_at", "text").execute();
  await db.schema.alterTable("support_messages").addColumn("operator_id", idType).execute();
  await db.schema.createIndex("support_sessions_status_idx").on("support_sessions").columns(["status", "id"]).execute();
  await db.schema.createIndex("support_messages_session_idx").on("support_messages").columns(["session_id", "id"]).execute();

  await db.schema.alterTable("businesses").addColumn("held_status", "text").execute();
  await db.schema.createIndex("track_events_created_idx").on("track_events").columns(["created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("track_events_created_idx").ifExists().execute();
  await db.schema.alterTable("businesses").dropColumn("held_status").execute();
  await db.schema.dropIndex("support_messages_session_idx").ifExists().execute();
  await db.schema.dropIndex("support_sessions_status_idx").ifExists().execute();
  await db.schema.alterTable("support_messages").dropColumn("operator_id").execute();
  await db.schema.alterTable("support_sessions").dropColumn("closed_at").execute();
  await db.schema.alterTable("support_sessions").dropColumn("agent_read_at").execute();
  await db.schema.alterTable("support_sessions").dropColumn("assigned_operator_id").execute();
  for (const t of ["saved_replies", "operator_audit", "operator_sessions", "operators"]) await db.schema.dropTable(t).ifExists().execute();
}
