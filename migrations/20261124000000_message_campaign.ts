import type { Kysely } from "kysely";
import { idType } from "./helpers";

// Every text the pipeline queues can name the campaign it belongs to, and so can every inbound text the router
// gives to a campaign (no foreign key yet: the campaigns table comes with the campaign engine). An inbound text
// can carry a flag for the owner, such as a possible objection the rules could not be sure of.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("messages").addColumn("campaign_id", idType).execute();
  await db.schema.createIndex("messages_campaign_idx").on("messages").columns(["campaign_id", "id"]).where("campaign_id", "is not", null).execute();
  await db.schema.alterTable("inbound_messages").addColumn("campaign_id", idType).execute();
  await db.schema.alterTable("inbound_messages").addColumn("flag", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("inbound_messages").dropColumn("flag").execute();
  await db.schema.alterTable("inbound_messages").dropColumn("campaign_id").execute();
  await db.schema.dropIndex("messages_campaign_idx").execute();
  await db.schema.alterTable("messages").dropColumn("campaign_id").execute();
}
