import { sql, type Kysely, type SqlBool } from "kysely";
import { idType, withId } from "./helpers";

// The campaign engine (decision record 008): one table for every campaign type, the durable planned sends
// (fires, claimed by the workers; a fire planned for an older version of its campaign is skipped), the questions
// waiting for a member's reply, every answer (one per inbound text: a replayed webhook counts once), the running
// totals per answer (+1 for a new answer, -1 for the one it replaces), and the winners of a draw.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("campaigns"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull()) // ONETIME | ONGOING
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("keyword", "text") // upper case; unique per business among scheduled and live campaigns
    .addColumn("message_text", "text")
    .addColumn("thank_you_text", "text")
    .addColumn("group_id", idType) // -1 = every subscribed member
    .addColumn("issue_at", "text", (c) => c.notNull())
    .addColumn("close_at", "text")
    .addColumn("status", "text", (c) => c.notNull()) // SCHEDULED | LIVE | ONGOING | SUSPENDED | FAILED | ENDED
    .addColumn("error_code", "text")
    .addColumn("version", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("settings", "text", (c) => c.notNull()) // JSON, the type's own settings
    .addColumn("public_ref", "text", (c) => c.notNull().unique())
    .addColumn("result_group_id", idType) // a CAMPAIGN group it fills (an invitation's acceptances)
    .addColumn("seed_hash", "text")
    .addColumn("seed", "text")
    .addColumn("issued_at", "text")
    .addColumn("ended_at", "text")
    .addColumn("idempotency_key", "text")
    .addColumn("created_by", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("campaigns_business_status_idx").on("campaigns").columns(["business_id", "status", "id"]).execute();
  await db.schema
    .createIndex("campaigns_keyword_uq")
    .on("campaigns")
    .columns(["business_id", "keyword"])
    .unique()
    .where(sql<SqlBool>`keyword is not null and status in ('SCHEDULED', 'LIVE', 'ONGOING')`)
    .execute();
  await db.schema.createIndex("campaigns_idempotency_uq").on("campaigns").columns(["business_id", "idempotency_key"]).unique().where(sql<SqlBool>`idempotency_key is not null`).execute();

  await withId(db, db.schema.createTable("campaign_fires"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.notNull()) // 0 for a step of the whole campaign (issue, close, draw)
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("occurrence", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("fire_at", "text", (c) => c.notNull())
    .addColumn("version", "integer", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull()) // DUE | DONE | SKIPPED | CANCELLED
    .addColumn("reason", "text")
    .addColumn("message_id", idType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("done_at", "text")
    .execute();
  await db.schema.createIndex("campaign_fires_uq").on("campaign_fires").columns(["campaign_id", "member_id", "step", "occurrence"]).unique().execute();
  await db.schema.createIndex("campaign_fires_due_idx").on("campaign_fires").columns(["fire_at", "id"]).where(sql<SqlBool>`status = 'DUE'`).execute();

  await withId(db, db.schema.createTable("campaign_waits"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addColumn("status", "text", (c) => c.notNull()) // OPEN | ANSWERED | CLOSED
    .addColumn("step", "text", (c) => c.notNull().defaultTo("answer")) // which question it waits on (a survey has two)
    .addColumn("helped", "integer", (c) => c.notNull().defaultTo(0)) // the "reply with 1, 2 or 3" help was sent
    .addColumn("opened_at", "text", (c) => c.notNull())
    .addColumn("closes_at", "text")
    .execute();
  await db.schema.createIndex("campaign_waits_uq").on("campaign_waits").columns(["campaign_id", "member_id"]).unique().execute();
  await db.schema.createIndex("campaign_waits_open_idx").on("campaign_waits").columns(["member_id", "opened_at"]).where(sql<SqlBool>`status = 'OPEN'`).execute();

  await withId(db, db.schema.createTable("campaign_responses"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("member_id", idType) // null for a keyword text from a number that is not a member
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("step", "text", (c) => c.notNull())
    .addColumn("answer", "text") // the option or status it counted as (null: free text)
    .addColumn("raw", "text", (c) => c.notNull())
    .addColumn("inbound_id", idType)
    .addColumn("party_size", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("is_current", "integer", (c) => c.notNull().defaultTo(1)) // 0 once a later answer replaced it
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("campaign_responses_inbound_uq").on("campaign_responses").column("inbound_id").unique().where(sql<SqlBool>`inbound_id is not null`).execute();
  await db.schema.createIndex("campaign_responses_campaign_idx").on("campaign_responses").columns(["campaign_id", "created_at"]).execute();
  await db.schema.createIndex("campaign_responses_member_idx").on("campaign_responses").columns(["member_id", "campaign_id"]).execute();

  await db.schema
    .createTable("campaign_answer_counts")
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("answer", "text", (c) => c.notNull())
    .addColumn("total", "integer", (c) => c.notNull())
    .addColumn("places", "integer", (c) => c.notNull().defaultTo(0)) // party sizes added up (invitations)
    .addPrimaryKeyConstraint("campaign_answer_counts_pk", ["campaign_id", "answer"])
    .execute();

  await withId(db, db.schema.createTable("campaign_checkins"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.references("members.id").onDelete("set null"))
    .addColumn("phone", "text", (c) => c.notNull())
    .addColumn("ref", "text", (c) => c.notNull().unique()) // the personal check-out link
    .addColumn("source", "text", (c) => c.notNull()) // SMS | QR
    .addColumn("checked_in_at", "text", (c) => c.notNull())
    .addColumn("checked_out_at", "text")
    .execute();
  await db.schema.createIndex("campaign_checkins_campaign_idx").on("campaign_checkins").columns(["campaign_id", "checked_in_at"]).execute();

  await db.schema
    .createTable("campaign_winners")
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addColumn("rank", "integer", (c) => c.notNull())
    .addColumn("drawn_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("campaign_winners_pk", ["campaign_id", "rank"])
    .execute();
  await db.schema.createIndex("campaign_winners_business_idx").on("campaign_winners").columns(["business_id", "drawn_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["campaign_checkins", "campaign_winners", "campaign_answer_counts", "campaign_responses", "campaign_waits", "campaign_fires", "campaigns"]) {
    await db.schema.dropTable(t).execute();
  }
}
