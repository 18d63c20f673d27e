import type { Kysely } from "kysely";
import { idType } from "./helpers";

// Every text the pipeline queues can name the campaign it belongs to (campaign fires, replies and results
// read it). No foreign key yet: the campaigns table comes with the campaign engine.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("messages").addColumn("campaign_id", idType).execute();
  await db.schema.createIndex("messages_campaign_idx").on("messages").columns(["campaign_id", "id"]).where("campaign_id", "is not", null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("messages_campaign_idx").execute();
  await db.schema.alterTable("messages").dropColumn("campaign_id").execute();
}
