import type { Kysely } from "kysely";

// A text whose handling keeps failing (the same error every time) must not hold up the texts behind it:
// inbound processing counts the failures and, at the limit, sets the text aside (kind ERROR) with the error.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("inbound_messages").addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable("inbound_messages").addColumn("error", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("inbound_messages").dropColumn("error").execute();
  await db.schema.alterTable("inbound_messages").dropColumn("attempts").execute();
}
