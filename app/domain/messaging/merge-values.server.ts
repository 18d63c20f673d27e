// Merge values for many members at once: what {{birthday}}, {{appointmentDate}}, {{memberFormLink}}
// and {{attr.key}} render to, loaded in two queries per batch (members' columns, then the custom values
// the template names), so a send of 100,000 members stays a handful of queries per page.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { formatAppointment, formatBirthday, type MergeValues } from "./merge";
import { formatUkNumber } from "~/lib/phone";

type Db = Kysely<DB>;
const CHUNK = 1000;

export interface MergeValueOptions {
  /** Custom attribute keys to load (default: all of the business's). */
  customKeys?: readonly string[];
  /** Base for the member form link (config.publicUrl). */
  publicUrl?: string;
}

/** The business-wide values (name, number, keyword). */
export async function businessMergeValues(db: Db, businessId: number): Promise<Pick<MergeValues, "businessName" | "businessNumber" | "joinKeyword">> {
  const b = await db.selectFrom("businesses").select(["name", "phone_number", "join_keyword"]).where("id", "=", businessId).executeTakeFirst();
  return { businessName: b?.name ?? "", businessNumber: b?.phone_number ? formatUkNumber(b.phone_number) : "", joinKeyword: b?.join_keyword ?? "" };
}

function customText(type: string, text: string | null, num: number | null): string {
  if (type === "BIRTHDAY") return formatBirthday(text);
  if (type === "DATE" && text && /^\d{4}-\d{2}-\d{2}$/.test(text)) return formatAppointment(`${text}T12:00:00Z`).date;
  if (type === "NUMBER" && num !== null) return String(Number(num));
  return text ?? "";
}

/**
 * Merge values for each member id (of this business only; others are absent from the map), including
 * the business values. Batched: at most two queries per 1,000 members.
 */
export async function mergeValuesForMembers(db: Db, businessId: number, memberIds: readonly number[], options: MergeValueOptions = {}): Promise<Map<number, MergeValues>> {
  const out = new Map<number, MergeValues>();
  const ids = [...new Set(memberIds)].filter((n) => Number.isSafeInteger(n) && n > 0);
  if (!ids.length) return out;
  const business = await businessMergeValues(db, businessId);
  let attrQuery = db.selectFrom("attributes").select(["id", "key", "type"]).where("business_id", "=", businessId);
  if (options.customKeys) attrQuery = options.customKeys.length ? attrQuery.where("key", "in", [...options.customKeys]) : attrQuery.where("id", "=", -1);
  const attrs = await attrQuery.execute();
  const attrById = new Map(attrs.map((a) => [Number(a.id), a]));
  const base = options.publicUrl?.replace(/\/+$/, "") ?? "";
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK);
    const members = await db
      .selectFrom("members")
      .select(["id", "first_name", "full_name", "birthday", "appointment_at", "unique_ref"])
      .where("business_id", "=", businessId)
      .where("id", "in", chunk)
      .execute();
    for (const m of members) {
      const appt = formatAppointment(m.appointment_at);
      out.set(Number(m.id), {
        ...business,
        firstName: m.first_name,
        fullName: m.full_name,
        birthday: formatBirthday(m.birthday),
        appointmentDate: appt.date,
        appointmentTime: appt.time,
        memberFormLink: base ? `${base}/myinfo/${m.unique_ref}` : "",
        custom: {},
      });
    }
    if (attrById.size) {
      const values = await db
        .selectFrom("member_attribute_values")
        .select(["member_id", "attribute_id", "value_text", "value_number"])
        .where("business_id", "=", businessId)
        .where("member_id", "in", chunk)
        .where("attribute_id", "in", [...attrById.keys()])
        .execute();
      for (const v of values) {
        const a = attrById.get(Number(v.attribute_id));
        const mv = out.get(Number(v.member_id));
        if (a && mv) mv.custom![a.key] = customText(a.type, v.value_text, v.value_number === null ? null : Number(v.value_number));
      }
    }
  }
  return out;
}
