import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// API keys for the public API (/api/v1/). A key belongs to the business, not to a person. Only a SHA-256 hash
// of each secret is kept; a key can hold several secrets while it is rolled (the old one lives on until
// expires_at). Idempotency records keep the answer to a POST sent with an Idempotency-Key for 24 hours.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("api_keys"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("member_permission", "text", (c) => c.notNull()) // NONE | READ | WRITE
    .addColumn("messaging_permission", "text", (c) => c.notNull()) // NONE | READ | WRITE
    .addColumn("created_by", idType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("last_used_at", "text")
    .execute();
  await db.schema.createIndex("api_keys_business_idx").on("api_keys").columns(["business_id", "id"]).execute();

  await withId(db, db.schema.createTable("api_key_secrets"))
    .addColumn("api_key_id", idType, (c) => c.notNull().references("api_keys.id").onDelete("cascade"))
    .addColumn("secret_hash", "text", (c) => c.notNull()) // hex SHA-256 of the whole key
    .addColumn("last_four", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("expires_at", "text") // null: current; set when the key was rolled (the grace period's end)
    .execute();
  await db.schema.createIndex("api_key_secrets_hash_uq").on("api_key_secrets").column("secret_hash").unique().execute();
  await db.schema.createIndex("api_key_secrets_key_idx").on("api_key_secrets").columns(["api_key_id", "id"]).execute();

  await withId(db, db.schema.createTable("api_idempotency"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("idem_key", "text", (c) => c.notNull())
    .addColumn("request_hash", "text", (c) => c.notNull()) // SHA-256 of method, path and body
    .addColumn("status", "integer") // null while the first request is still running
    .addColumn("response_body", "text")
    .addColumn("location", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("api_idempotency_key_uq").on("api_idempotency").columns(["business_id", "idem_key"]).unique().execute();
  await db.schema.createIndex("api_idempotency_created_idx").on("api_idempotency").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("api_idempotency").ifExists().execute();
  await db.schema.dropTable("api_key_secrets").ifExists().execute();
  await db.schema.dropTable("api_keys").ifExists().execute();
}
