// Export members to CSV: streamed a page at a time (keyset by id, bounded memory at any size),
// every cell guarded against spreadsheet formula injection (csvCell). Opted-out and deleted members
// are included with their status so the business's own records stay complete; numbers in UK format.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { formatBirthday } from "~/domain/members/attribute-rules";
import { formatUkNumber } from "~/lib/phone";
import en from "~/locales/en-GB/import.json";
import fr from "~/locales/fr/import.json";
import { csvLine } from "./csv";

type Db = Kysely<DB>;
const PAGE = 2000;

/** The CSV's fixed column headings in the business's language (the file is the business's, not the reader's). */
export async function exportHeader(db: Db, businessId: number): Promise<string[]> {
  const b = await db.selectFrom("businesses").select("locale").where("id", "=", businessId).executeTakeFirst();
  const h = (b?.locale === "fr" ? fr : en).exportHeader;
  return [h.phone, h.firstName, h.fullName, h.status, h.joined, h.birthday, h.note];
}

export async function* exportMembersCsv(db: Db, businessId: number, labels: { header: string[] }): AsyncGenerator<string> {
  const attrs = await db.selectFrom("attributes").select(["id", "name", "type"]).where("business_id", "=", businessId).orderBy("position").orderBy("id").execute();
  yield "\uFEFF" + csvLine([...labels.header, ...attrs.map((a) => a.name)]);
  let after = 0;
  for (;;) {
    const members = await db
      .selectFrom("members")
      .select(["id", "phone", "first_name", "full_name", "status", "joined_at", "birthday", "note"])
      .where("business_id", "=", businessId)
      .where("status", "!=", "DELETED")
      .where("id", ">", after)
      .orderBy("id")
      .limit(PAGE)
      .execute();
    if (!members.length) return;
    const values = new Map<string, string>();
    if (attrs.length) {
      const rows = await db
        .selectFrom("member_attribute_values")
        .select(["member_id", "attribute_id", "value_text"])
        .where("business_id", "=", businessId)
        .where("member_id", "in", members.map((m) => m.id))
        .execute();
      for (const r of rows) values.set(`${r.member_id}:${r.attribute_id}`, r.value_text ?? "");
    }
    let chunk = "";
    for (const m of members) {
      chunk += csvLine([
        formatUkNumber(m.phone),
        m.first_name,
        m.full_name,
        m.status,
        m.joined_at ? m.joined_at.slice(0, 10) : "",
        m.birthday ? formatBirthday(m.birthday) : "",
        m.note,
        ...attrs.map((a) => {
          const v = values.get(`${m.id}:${a.id}`) ?? "";
          return a.type === "BIRTHDAY" ? formatBirthday(v) : v;
        }),
      ]);
    }
    yield chunk;
    if (members.length < PAGE) return;
    after = members[members.length - 1].id;
  }
}
