import type { Kysely } from "kysely";

// The per-number sending pace (segments per second) shared by every worker process: one row per
// business number holding its theoretical arrival time in epoch milliseconds (GCRA).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("number_pace")
    .addColumn("from_phone", "text", (c) => c.primaryKey())
    .addColumn("tat_ms", "bigint", (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("number_pace").ifExists().execute();
}
