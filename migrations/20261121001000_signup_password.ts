import type { Kysely } from "kysely";

// Sign-up step 3 ("Secure") keeps the chosen password's hash on the pending sign-up until the terms
// are accepted and the account is created.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("signups").addColumn("password_hash", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("signups").dropColumn("password_hash").execute();
}
