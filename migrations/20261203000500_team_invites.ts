import { type Kysely, sql } from "kysely";
import { idType, withId } from "./helpers";

// The team: invitations to join a business as a team member (only a hash of each code is kept; one open
// invitation per person and business, enforced by a partial unique index), removed team members kept for the
// record (their name still shows on what they did), and who did what: the user behind an edit, an ending or
// a member added by hand, plus an audit trail for actions whose row does not survive (a deleted group message)
// and for the team's own changes. Every actor column is nullable: an API client or the system acts as nobody.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("team_invites"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("channel", "text", (c) => c.notNull()) // SMS | EMAIL
    .addColumn("sent_to", "text", (c) => c.notNull()) // E.164 mobile or lower-case email
    .addColumn("code_hash", "text", (c) => c.notNull().unique()) // SHA-256 of the code in the link
    .addColumn("code_hint", "text", (c) => c.notNull()) // the code's last characters, to tell invitations apart
    .addColumn("status", "text", (c) => c.notNull()) // OPEN | ACCEPTED | REVOKED | EXPIRED
    .addColumn("invited_by_user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("issued_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("sent_count", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("ended_at", "text")
    .addColumn("ended_by_user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("accepted_user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    // What the invitee typed, kept until their mobile is verified by the texted PIN.
    .addColumn("pending_name", "text")
    .addColumn("pending_email", "text")
    .addColumn("pending_mobile", "text")
    .addColumn("pending_password_hash", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("team_invites_open_person_idx")
    .on("team_invites")
    .columns(["business_id", "sent_to"])
    .unique()
    .where(sql.ref("status"), "=", "OPEN")
    .execute();
  await db.schema.createIndex("team_invites_business_idx").on("team_invites").columns(["business_id", "status", "id"]).execute();

  await db.schema.alterTable("users").addColumn("removed_at", "text").execute();
  await db.schema.alterTable("users").addColumn("removed_by_user_id", idType).execute();

  await db.schema.alterTable("messages").addColumn("updated_by", idType).execute();
  await db.schema.alterTable("campaigns").addColumn("updated_by", idType).execute();
  await db.schema.alterTable("campaigns").addColumn("ended_by", idType).execute();
  await db.schema.alterTable("members").addColumn("created_by", idType).execute();
  await db.schema.alterTable("members").addColumn("updated_by", idType).execute();

  await withId(db, db.schema.createTable("audit_events"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull()) // e.g. group-message.deleted, team.removed
    .addColumn("subject_type", "text", (c) => c.notNull())
    .addColumn("subject_id", idType)
    .addColumn("detail", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("audit_events_business_idx").on("audit_events").columns(["business_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_events").ifExists().execute();
  await db.schema.alterTable("members").dropColumn("updated_by").execute();
  await db.schema.alterTable("members").dropColumn("created_by").execute();
  await db.schema.alterTable("campaigns").dropColumn("ended_by").execute();
  await db.schema.alterTable("campaigns").dropColumn("updated_by").execute();
  await db.schema.alterTable("messages").dropColumn("updated_by").execute();
  await db.schema.alterTable("users").dropColumn("removed_by_user_id").execute();
  await db.schema.alterTable("users").dropColumn("removed_at").execute();
  await db.schema.dropTable("team_invites").ifExists().execute();
}
