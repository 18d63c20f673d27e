import { type Kysely, sql } from "kysely";
import { idType, withId } from "./helpers";

// Times are stored as ISO-8601 UTC text ("2026-11-21T14:05:00.000Z"): portable and sortable.
// Booleans are stored as integers 0/1 on both databases.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("businesses"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("name_key", "text", (c) => c.notNull().unique())
    .addColumn("phone_number", "text", (c) => c.unique())
    .addColumn("join_keyword", "text", (c) => c.notNull().defaultTo("JOIN"))
    .addColumn("onboarding", "text", (c) => c.notNull().defaultTo("NEW"))
    .addColumn("onboarding_error", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("TRIAL"))
    .addColumn("locale", "text", (c) => c.notNull().defaultTo("en-GB"))
    .addColumn("trial_credits", "integer", (c) => c.notNull().defaultTo(50))
    .addColumn("trial_ends_at", "text")
    .addColumn("message_allowance", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowance_used", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allowance_period_start", "text")
    .addColumn("referral_code", "text", (c) => c.notNull().unique())
    .addColumn("referred_by_id", idType, (c) => c.references("businesses.id").onDelete("set null"))
    .addColumn("terms_version", "text")
    .addColumn("opt_in_message", "text")
    .addColumn("opt_out_message", "text")
    .addColumn("help_message", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("users"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("mobile", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("failed_logins", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("locked_until", "text")
    .addColumn("disabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_login_at", "text")
    .addColumn("last_active_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_business_idx").on("users").column("business_id").execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey()) // SHA-256 of the secret token
    .addColumn("user_id", idType, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull()) // WEB | API
    .addColumn("admin_access", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_idx").on("sessions").column("user_id").execute();

  await db.schema
    .createTable("signups")
    .addColumn("id", "text", (c) => c.primaryKey()) // SHA-256 of the token kept in the visitor's cookie
    .addColumn("company", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("mobile", "text", (c) => c.notNull())
    .addColumn("referral_code", "text")
    .addColumn("verified_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();

  // Single-use codes texted to a phone: sign-up PINs and password-reset codes.
  await withId(db, db.schema.createTable("verification_codes"))
    .addColumn("purpose", "text", (c) => c.notNull()) // SIGNUP | RESET
    .addColumn("subject", "text", (c) => c.notNull()) // signup id or user id
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("used_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("verification_codes_subject_idx")
    .on("verification_codes")
    .columns(["purpose", "subject", "created_at"])
    .execute();

  await db.schema
    .createTable("rate_limits")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("window_start", "text", (c) => c.notNull())
    .addColumn("count", "integer", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("help_sections_viewed")
    .addColumn("user_id", idType, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("section", "text", (c) => c.notNull())
    .addColumn("viewed_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("help_sections_viewed_pk", ["user_id", "section"])
    .execute();

  await withId(db, db.schema.createTable("track_events"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("notices"))
    // Information items for a business's feed (INFO panels).
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("support_sessions"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("user_id", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull().defaultTo("OPEN"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  await withId(db, db.schema.createTable("support_messages"))
    .addColumn("session_id", idType, (c) => c.notNull().references("support_sessions.id").onDelete("cascade"))
    .addColumn("sender", "text", (c) => c.notNull()) // USER | AGENT
    .addColumn("text", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();

  // The built-in SMS simulator: numbers it handed out and the texts its virtual phones sent and received.
  await db.schema
    .createTable("sim_numbers")
    .addColumn("number", "text", (c) => c.primaryKey())
    .addColumn("assigned_at", "text", (c) => c.notNull())
    .execute();
  await withId(db, db.schema.createTable("sim_messages"))
    .addColumn("sid", "text", (c) => c.notNull().unique())
    .addColumn("direction", "text", (c) => c.notNull()) // TO_PHONE | FROM_PHONE
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("business_number", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sim_messages_phone_idx").on("sim_messages").columns(["phone", "id"]).execute();
  await db.schema
    .createTable("sim_settings")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("admin_access_tokens")
    .addColumn("id", "text", (c) => c.primaryKey()) // SHA-256 of the token
    .addColumn("user_id", idType, (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("used_at", "text")
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();

  void sql;
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "admin_access_tokens", "sim_settings", "sim_messages", "sim_numbers", "support_messages",
    "support_sessions", "notices", "track_events", "help_sections_viewed", "rate_limits",
    "verification_codes", "signups", "sessions", "users", "businesses",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
