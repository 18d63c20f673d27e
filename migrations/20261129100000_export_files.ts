import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Export files built in the background (a venue's check-ins over the last 21 days): a row is requested as
// PENDING, claimed by a worker (CREATING), then AVAILABLE with its CSV content or FAILED with the reason. The
// file_ref is the unguessable part of its public share link; files are deleted 14 days after they were made.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("export_files"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("campaign_id", idType, (c) => c.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("file_ref", "text", (c) => c.notNull().unique())
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | CREATING | AVAILABLE | FAILED
    .addColumn("rows", "integer")
    .addColumn("content", "text")
    .addColumn("error", "text")
    .addColumn("claimed_at", "text") // when a worker took it: a CREATING file whose worker died is taken again
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("finished_at", "text")
    .execute();
  await db.schema.createIndex("export_files_campaign_idx").on("export_files").columns(["business_id", "campaign_id", "created_at"]).execute();
  await db.schema.createIndex("export_files_status_idx").on("export_files").columns(["status", "created_at"]).execute();
  await db.schema.createIndex("export_files_created_idx").on("export_files").columns(["created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("export_files").execute();
}
