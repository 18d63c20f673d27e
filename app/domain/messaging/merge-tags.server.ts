// The custom merge tags a business's message editors offer ({{attr.key}}): its own member
// attributes by key and name, for <MergeTagPicker custom={…}> (app/components/merge-tag-picker.tsx).
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import type { CustomTag } from "./merge";

export async function customMergeTags(db: Kysely<DB>, businessId: number): Promise<CustomTag[]> {
  const rows = await db.selectFrom("attributes").select(["key", "name"]).where("business_id", "=", businessId).orderBy("position").orderBy("id").execute();
  return rows.map((r) => ({ key: r.key, name: r.name }));
}
