import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Community groups (§2 Groups): LIST groups have fixed membership (group_members); SMART groups keep a JSON
// filter over member attributes that is compiled to one SQL query at use (always current); CAMPAIGN groups
// are filled by campaigns. Also the CSV import jobs (§2 import): one row per upload, processed in chunks.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("groups"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull()) // LIST | SMART | CAMPAIGN
    .addColumn("filter", "text") // JSON (SMART only)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("groups_business_idx").on("groups").columns(["business_id", "name"]).execute();

  await db.schema
    .createTable("group_members")
    .addColumn("group_id", idType, (c) => c.notNull().references("groups.id").onDelete("cascade"))
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addColumn("added_at", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("group_members_pk", ["group_id", "member_id"])
    .execute();
  await db.schema.createIndex("group_members_member_idx").on("group_members").column("member_id").execute();

  await withId(db, db.schema.createTable("import_jobs"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("created_by", idType, (c) => c.references("users.id").onDelete("set null"))
    .addColumn("status", "text", (c) => c.notNull()) // MAPPING | QUEUED | RUNNING | DONE | FAILED
    .addColumn("filename", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull()) // the uploaded CSV (UTF-8, at most 10 MB); cleared when done
    .addColumn("mapping", "text") // JSON: column index -> attribute
    .addColumn("consent_evidence", "text")
    .addColumn("total_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("processed_rows", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("added", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("updated", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("skipped", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("report", "text") // JSON: skipped rows with reasons (capped)
    .addColumn("error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("import_jobs_business_idx").on("import_jobs").columns(["business_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ["import_jobs", "group_members", "groups"]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
