import type { Kysely } from "kysely";
import { idType, withId } from "./helpers";

// Member attributes (§3). The default attributes are member columns (first_name, full_name, and here
// birthday "MM-DD", appointment_at ISO text, note); custom attributes live in `attributes`, their list
// options in `attribute_list_items`, and each member's values in `member_attribute_values` (text or number,
// indexed by attribute so smart groups and search can find members by value).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("members").addColumn("birthday", "text").execute();
  await db.schema.alterTable("members").addColumn("appointment_at", "text").execute();
  await db.schema.alterTable("members").addColumn("note", "text").execute();
  // The members list pages by id within a business, whatever the status.
  await db.schema.createIndex("members_business_id_idx").on("members").columns(["business_id", "id"]).execute();

  await withId(db, db.schema.createTable("attributes"))
    .addColumn("business_id", idType, (c) => c.notNull().references("businesses.id").onDelete("cascade"))
    .addColumn("key", "text", (c) => c.notNull()) // slug, unique per business (merge tag name)
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("type", "text", (c) => c.notNull()) // TEXT | NUMBER | DATE | TIME | BIRTHDAY | NOTE | LIST
    .addColumn("show_on_form", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("member_can_edit", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("mandatory", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull())
    .addUniqueConstraint("attributes_business_key_uq", ["business_id", "key"])
    .execute();

  await withId(db, db.schema.createTable("attribute_list_items"))
    .addColumn("attribute_id", idType, (c) => c.notNull().references("attributes.id").onDelete("cascade"))
    .addColumn("label", "text", (c) => c.notNull())
    .addColumn("position", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("attribute_list_items_attr_idx").on("attribute_list_items").columns(["attribute_id", "position"]).execute();

  await db.schema
    .createTable("member_attribute_values")
    .addColumn("member_id", idType, (c) => c.notNull().references("members.id").onDelete("cascade"))
    .addColumn("attribute_id", idType, (c) => c.notNull().references("attributes.id").onDelete("cascade"))
    .addColumn("business_id", idType, (c) => c.notNull())
    .addColumn("value_text", "text")
    .addColumn("value_number", "double precision")
    .addPrimaryKeyConstraint("member_attribute_values_pk", ["member_id", "attribute_id"])
    .execute();
  await db.schema.createIndex("mav_attr_text_idx").on("member_attribute_values").columns(["attribute_id", "value_text"]).execute();
  await db.schema.createIndex("mav_attr_number_idx").on("member_attribute_values").columns(["attribute_id", "value_number"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("member_attribute_values").ifExists().execute();
  await db.schema.dropTable("attribute_list_items").ifExists().execute();
  await db.schema.dropTable("attributes").ifExists().execute();
  await db.schema.dropIndex("members_business_id_idx").ifExists().execute();
  await db.schema.alterTable("members").dropColumn("note").execute();
  await db.schema.alterTable("members").dropColumn("appointment_at").execute();
  await db.schema.alterTable("members").dropColumn("birthday").execute();
}
