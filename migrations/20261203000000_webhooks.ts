import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Outbound webhooks: a business's endpoints, its signing secret, and one delivery row per event and endpoint,
// written in the same transaction as the event and sent by a worker round with retries.

export async function up(db: Kysely<any>): Promise<void> {
  // One signing secret per business (whsec_…). After a roll the previous one keeps signing beside the new one
  // until previous_until, so receivers can switch without losing events.
  await withId(db, db.schema.createTable("webhook_secrets"))
    .addColumn("business_id", idType, (c) => c.notNull().unique().references("businesses.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("previous_secret", "text")
    .addColumn("previous_until", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("rolled_at", "text")
    .execute();

  await withId(db, db.schema.createTable("webhook_endpoints"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("description", "text")
    .addColumn("events", "text", (c) => c.notNull()) // space-separated event types
    .addColumn("enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("disabled_reason", "text") // MANUAL | FAILING
    .addColumn("consecutive_failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_by", idType)
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("webhook_endpoints_business_idx").on("webhook_endpoints").columns(["business_id", "enabled"]).execute();

  await withId(db, db.schema.createTable("webhook_deliveries"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("endpoint_id", idType, (c) => c.notNull().references("webhook_endpoints.id").onDelete("cascade"))
    .addColumn("event_id", "text", (c) => c.notNull()) // the webhook-id header: the same for every endpoint of one event
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull()) // the exact JSON body that is signed and sent
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | SENDING | SUCCEEDED | FAILED
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("last_attempt_at", "text")
    .addColumn("last_status_code", "integer")
    .addColumn("last_duration_ms", "integer")
    .addColumn("last_error", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await db.schema.createIndex("webhook_deliveries_due_idx").on("webhook_deliveries").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("webhook_deliveries_business_idx").on("webhook_deliveries").columns(["business_id", "id"]).execute();
  await db.schema.createIndex("webhook_deliveries_endpoint_idx").on("webhook_deliveries").columns(["endpoint_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").ifExists().execute();
  await db.schema.dropTable("webhook_endpoints").ifExists().execute();
  await db.schema.dropTable("webhook_secrets").ifExists().execute();
}
