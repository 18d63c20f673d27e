import { sql, type Kysely } from "kysely";

// Snoozed conversations whose time has come are woken by the worker (wakeDueSnoozed), across every
// business at once: this small partial index holds only the snoozed ones, ordered by wake-up time,
// so that periodic step never reads the whole table.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex("conversations_snoozed_idx").on("conversations").columns(["snoozed_until", "id"]).where(sql.ref("state"), "=", "SNOOZED").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("conversations_snoozed_idx").ifExists().execute();
}
