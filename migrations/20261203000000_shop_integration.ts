import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// The shop integration (discount codes from an online shop): one connected shop per business, the codes made
// for it (each reserved at most once, for one member of one message), the durable requests that make codes
// ahead of a send, and the shop simulator's own record of the codes it was asked to create.

export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable("shop_integrations"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) => c.notNull()) // simulator | shopify
    .addColumn("shop_domain", "text", (c) => c.notNull())
    .addColumn("shop_name", "text", (c) => c.notNull())
    .addColumn("token_enc", "text", (c) => c.notNull()) // the access token, encrypted (AES-256-GCM)
    .addColumn("token_last4", "text", (c) => c.notNull())
    .addColumn("discount_id", "text")
    .addColumn("discount_title", "text")
    .addColumn("connected_by", idType)
    .addColumn("connected_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("shop_integrations_business_uq").on("shop_integrations").column("business_id").unique().execute();

  await withId(db, db.schema.createTable("shop_codes"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("shop_domain", "text", (c) => c.notNull())
    .addColumn("discount_id", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("request_id", idType)
    .addColumn("message_id", idType) // set once, when the code is reserved for a text
    .addColumn("member_id", idType)
    .addColumn("reserved_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  // A code exists once per business; a member gets at most one code per message.
  await db.schema.createIndex("shop_codes_code_uq").on("shop_codes").columns(["business_id", "code"]).unique().execute();
  await db.schema.createIndex("shop_codes_message_member_uq").on("shop_codes").columns(["message_id", "member_id"]).unique().execute();
  await db.schema.createIndex("shop_codes_free_idx").on("shop_codes").columns(["business_id", "discount_id", "message_id", "id"]).execute();

  await withId(db, db.schema.createTable("shop_code_requests"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("draft_id", idType) // the group message waiting for these codes, if any
    .addColumn("fire_id", idType) // or the campaign step waiting for them
    .addColumn("needed", "integer", (c) => c.notNull())
    .addColumn("made", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull()) // PENDING | MAKING | READY | FAILED
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text", (c) => c.notNull())
    .addColumn("lease_until", "text")
    .addColumn("error_reason", "text")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("shop_code_requests_due_idx").on("shop_code_requests").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("shop_code_requests_draft_uq").on("shop_code_requests").column("draft_id").unique().execute();
  await db.schema.createIndex("shop_code_requests_fire_uq").on("shop_code_requests").column("fire_id").unique().execute();
  await db.schema.createIndex("shop_code_requests_business_idx").on("shop_code_requests").columns(["business_id", "id"]).execute();

  await withId(db, db.schema.createTable("sim_shop_codes"))
    .addColumn("shop_domain", "text", (c) => c.notNull())
    .addColumn("discount_id", "text", (c) => c.notNull())
    .addColumn("code", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("redeemed_at", "text")
    .execute();
  await db.schema.createIndex("sim_shop_codes_code_uq").on("sim_shop_codes").columns(["shop_domain", "code"]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sim_shop_codes").ifExists().execute();
  await db.schema.dropTable("shop_code_requests").ifExists().execute();
  await db.schema.dropTable("shop_codes").ifExists().execute();
  await db.schema.dropTable("shop_integrations").ifExists().execute();
}
