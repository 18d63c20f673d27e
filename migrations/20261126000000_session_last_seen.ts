import type { Kysely } from "kysely";

// Web sessions end after a configurable time without a request: each session remembers when it was last
// used (written at most once a minute). Existing sessions count from their creation.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sessions").dropColumn("last_seen_at").execute();
}
