import type { Kysely } from "kysely";

// A member who joined by text is asked for their first name in the welcome text; their next short reply that
// reads as a name fills it in. This is when we asked (null: not asked, or already answered).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("members").addColumn("name_asked_at", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("members").dropColumn("name_asked_at").execute();
}
