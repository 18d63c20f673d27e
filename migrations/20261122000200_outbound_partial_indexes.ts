import type { Kysely } from "kysely";

// Outbound indexes that hold only live work: claiming walks QUEUED rows in (priority, id) order and
// recovery finds SENDING rows by lease, so rows that are done (SENT, DELIVERED, FAILED) leave both
// indexes and a 100,000-row send updates far fewer index pages. Both databases use a partial index
// when the query repeats its condition (status = 'QUEUED' / 'SENDING'), which the worker's do.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("outbound_claim_idx").execute();
  await db.schema.dropIndex("outbound_lease_idx").execute();
  await db.schema.dropIndex("outbound_provider_idx").execute();
  await db.schema
    .createIndex("outbound_queued_idx")
    .on("outbound")
    .columns(["status", "priority", "id", "next_attempt_at"])
    .where("status", "=", "QUEUED")
    .execute();
  await db.schema.createIndex("outbound_sending_idx").on("outbound").columns(["status", "lease_until"]).where("status", "=", "SENDING").execute();
  await db.schema.createIndex("outbound_provider_idx").on("outbound").column("provider_id").where("provider_id", "is not", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("outbound_queued_idx").execute();
  await db.schema.dropIndex("outbound_sending_idx").execute();
  await db.schema.dropIndex("outbound_provider_idx").execute();
  await db.schema.createIndex("outbound_claim_idx").on("outbound").columns(["status", "priority", "id", "next_attempt_at"]).execute();
  await db.schema.createIndex("outbound_lease_idx").on("outbound").columns(["status", "lease_until"]).execute();
  await db.schema.createIndex("outbound_provider_idx").on("outbound").column("provider_id").execute();
}
