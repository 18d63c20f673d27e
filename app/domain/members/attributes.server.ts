// Member attributes. The default attributes are member columns (first name, full name, birthday,
// appointment date and time, note) plus the system attribute "Member Last Updated" (members.updated_at);
// custom attributes live in `attributes` (+ `attribute_list_items` for LIST) and each member's values in
// `member_attribute_values` (value_text for every type; value_number for NUMBER, and the item id for LIST).
import type { Kysely } from "kysely";
import type { Attribute, AttributeType, DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { cancelPendingGroupMessages, smartGroupsUsingAttribute, smartGroupsUsingListItem } from "~/domain/groups/groups.server";
import type { PipelineDeps } from "~/domain/messaging/outbound.server";
import { attributeKey, formatBirthday, isReservedName, normalName, parseBirthday } from "./attribute-rules";

export { attributeKey, formatBirthday, isReservedName, normalName, parseBirthday };

type Db = Kysely<DB>;

export { ATTRIBUTE_TYPES, DEFAULT_ATTRIBUTES } from "./attribute-rules";

export interface AttributeWithItems extends Attribute {
  items: { id: number; label: string }[];
}

export async function listAttributes(db: Db, businessId: number): Promise<AttributeWithItems[]> {
  const attrs = await db.selectFrom("attributes").selectAll().where("business_id", "=", businessId).orderBy("position").orderBy("id").execute();
  if (attrs.length === 0) return [];
  const items = await db
    .selectFrom("attribute_list_items")
    .select(["id", "attribute_id", "label"])
    .where(
      "attribute_id",
      "in",
      attrs.map((a) => a.id),
    )
    .orderBy("position")
    .orderBy("id")
    .execute();
  return attrs.map((a) => ({ ...a, items: items.filter((i) => Number(i.attribute_id) === Number(a.id)).map((i) => ({ id: Number(i.id), label: i.label })) }));
}

export async function getAttribute(db: Db, businessId: number, id: number): Promise<AttributeWithItems | undefined> {
  return (await listAttributes(db, businessId)).find((a) => Number(a.id) === id);
}

export interface AttributeInput {
  name: string;
  type: AttributeType;
  showOnForm: boolean;
  memberCanEdit: boolean;
  mandatory: boolean;
  /** LIST only: the labels in order. On update, existing items are matched by id. */
  items: { id?: number; label: string }[];
}

function checkInput(input: AttributeInput) {
  if (isReservedName(input.name)) throw new AppError("BR017", undefined, { field: "name" });
  if (input.type === "LIST") {
    const labels = input.items.map((i) => i.label.trim()).filter(Boolean);
    if (labels.length === 0) throw new AppError("BR049", { attribute: "List items" }, { field: "items" });
    const seen = new Set<string>();
    for (const l of labels) {
      const k = normalName(l);
      if (seen.has(k)) throw new AppError("BR001", undefined, { field: "items" });
      seen.add(k);
    }
  }
}

async function assertUniqueName(db: Db, businessId: number, name: string, exceptId?: number) {
  const rows = await db.selectFrom("attributes").select(["id", "name", "key"]).where("business_id", "=", businessId).execute();
  const n = normalName(name);
  const key = attributeKey(name);
  if (rows.some((r) => Number(r.id) !== exceptId && (normalName(r.name) === n || r.key === key))) throw new AppError("BR011", undefined, { field: "name" });
}

export async function createAttribute(db: Db, businessId: number, input: AttributeInput, now: Date): Promise<number> {
  checkInput(input);
  return db.transaction().execute(async (trx) => {
    await assertUniqueName(trx, businessId, input.name);
    const max = await trx.selectFrom("attributes").select((eb) => eb.fn.max("position").as("p")).where("business_id", "=", businessId).executeTakeFirst();
    const row = await trx
      .insertInto("attributes")
      .values({
        business_id: businessId,
        key: attributeKey(input.name),
        name: input.name.trim(),
        type: input.type,
        show_on_form: input.showOnForm ? 1 : 0,
        member_can_edit: input.memberCanEdit ? 1 : 0,
        mandatory: input.mandatory ? 1 : 0,
        position: Number(max?.p ?? 0) + 1,
        created_at: now.toISOString(),
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (input.type === "LIST") {
      const labels = input.items.map((i) => i.label.trim()).filter(Boolean);
      await trx
        .insertInto("attribute_list_items")
        .values(labels.map((label, position) => ({ attribute_id: row.id, label, position })))
        .execute();
    }
    return Number(row.id);
  });
}

/** Smart groups (the groups' filter format, read by groups.server) using any of these list items; each group once. */
async function smartGroupsUsingItems(db: Db, businessId: number, itemIds: number[]): Promise<{ id: number; name: string }[]> {
  const found = new Map<number, { id: number; name: string }>();
  for (const itemId of itemIds) for (const g of await smartGroupsUsingListItem(db, businessId, itemId)) found.set(Number(g.id), { id: Number(g.id), name: g.name });
  return [...found.values()].sort((a, b) => a.id - b.id);
}

export interface UpdateResult {
  /** Smart groups that would be removed; nothing saved until confirmed. */
  needsConfirmation?: { id: number; name: string }[];
}

/**
 * After the transaction removing smart groups has committed: their pending messages are deleted and
 * refunded as deleteGroup does (messages.group_id keeps the id). A message already past its edit
 * window goes out as scheduled (the groups are gone already, so this never fails the change).
 */
async function cancelRemovedGroupsMessages(deps: PipelineDeps, businessId: number, removedGroupIds: number[]): Promise<void> {
  if (removedGroupIds.length > 0) await cancelPendingGroupMessages(deps, businessId, removedGroupIds, { skipIssued: true });
}

export async function updateAttribute(
  deps: PipelineDeps,
  businessId: number,
  id: number,
  input: AttributeInput,
  opts: { confirmRemoveGroups?: boolean } = {},
): Promise<UpdateResult> {
  const { db } = deps;
  const current = await getAttribute(db, businessId, id);
  if (!current) throw new AppError("BR001", undefined, { status: 404 });
  input = { ...input, type: current.type }; // the type is fixed once created
  checkInput(input);
  let removedGroupIds: number[] = [];
  const result = await db.transaction().execute(async (trx): Promise<UpdateResult> => {
    await assertUniqueName(trx, businessId, input.name, id);
    if (current.type === "LIST") {
      const keep = new Set(input.items.filter((i) => i.id).map((i) => Number(i.id)));
      const removed = current.items.filter((i) => !keep.has(i.id));
      const groups = await smartGroupsUsingItems(trx, businessId, removed.map((i) => i.id));
      if (groups.length > 0 && !opts.confirmRemoveGroups) return { needsConfirmation: groups };
      if (groups.length > 0) {
        await trx.deleteFrom("groups").where("business_id", "=", businessId).where("id", "in", groups.map((g) => g.id)).execute();
        removedGroupIds = groups.map((g) => g.id);
      }
      if (removed.length > 0) {
        const ids = removed.map((i) => i.id);
        await trx.deleteFrom("member_attribute_values").where("attribute_id", "=", id).where("value_number", "in", ids).execute();
        await trx.deleteFrom("attribute_list_items").where("attribute_id", "=", id).where("id", "in", ids).execute();
      }
      let position = 0;
      for (const item of input.items) {
        const label = item.label.trim();
        if (!label) continue;
        if (item.id && current.items.some((i) => i.id === Number(item.id))) {
          await trx.updateTable("attribute_list_items").set({ label, position }).where("id", "=", Number(item.id)).where("attribute_id", "=", id).execute();
          await trx.updateTable("member_attribute_values").set({ value_text: label }).where("attribute_id", "=", id).where("value_number", "=", Number(item.id)).execute();
        } else {
          await trx.insertInto("attribute_list_items").values({ attribute_id: id, label, position }).execute();
        }
        position++;
      }
    }
    await trx
      .updateTable("attributes")
      .set({ name: input.name.trim(), show_on_form: input.showOnForm ? 1 : 0, member_can_edit: input.memberCanEdit ? 1 : 0, mandatory: input.mandatory ? 1 : 0 })
      .where("id", "=", id)
      .where("business_id", "=", businessId)
      .execute();
    return {};
  });
  await cancelRemovedGroupsMessages(deps, businessId, removedGroupIds);
  return result;
}

/**
 * Deletes a custom attribute. Refused (BR043) while any member holds data in it. Smart groups whose
 * filter uses the attribute would match nobody afterwards, so, like removing a list item, they are
 * deleted with it after confirmation: without `confirmRemoveGroups` nothing changes and they are returned.
 * Their pending messages are then deleted with credits refunded, as deleteGroup does.
 */
export async function deleteAttribute(deps: PipelineDeps, businessId: number, id: number, opts: { confirmRemoveGroups?: boolean } = {}): Promise<UpdateResult> {
  let removedGroupIds: number[] = [];
  const result = await deps.db.transaction().execute(async (trx): Promise<UpdateResult> => {
    const attr = await trx.selectFrom("attributes").select("id").where("business_id", "=", businessId).where("id", "=", id).executeTakeFirst();
    if (!attr) throw new AppError("BR001", undefined, { status: 404 });
    const used = await trx.selectFrom("member_attribute_values").select("member_id").where("attribute_id", "=", id).limit(1).executeTakeFirst();
    if (used) throw new AppError("BR043");
    const groups = (await smartGroupsUsingAttribute(trx, businessId, id)).map((g) => ({ id: Number(g.id), name: g.name }));
    if (groups.length > 0 && !opts.confirmRemoveGroups) return { needsConfirmation: groups };
    if (groups.length > 0) {
      await trx.deleteFrom("groups").where("business_id", "=", businessId).where("id", "in", groups.map((g) => g.id)).execute();
      removedGroupIds = groups.map((g) => g.id);
    }
    await trx.deleteFrom("attribute_list_items").where("attribute_id", "=", id).execute();
    await trx.deleteFrom("attributes").where("id", "=", id).execute();
    return {};
  });
  await cancelRemovedGroupsMessages(deps, businessId, removedGroupIds);
  return result;
}

// ---- values ----

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/** "other fields cannot contain special characters": markup and code punctuation. */
const SPECIAL = /[<>{}[\]\\^`|~$#%*=;@]/;

export interface StoredValue {
  value_text: string;
  value_number: number | null;
}

/** The largest value a number attribute takes (12 digits, what the form and import accept). */
export const NUMBER_MAX = 999_999_999_999;

/**
 * A wrong value, with the reason the message names (i18next picks `errors.BR025_<reason>`, and the
 * API envelope carries it as data). `max` goes with the "tooLong" reason.
 */
function badValue(reason: string, field: string, extra: Record<string, number> = {}): AppError {
  return new AppError("BR025", { context: reason, ...extra }, { field });
}

/**
 * Number attributes count or measure things (visits, stamps, shoe size, amount spent): 0 or more, up
 * to NUMBER_MAX, with at most two decimal places. Each refusal says which of those it broke.
 */
export function parseCount(v: string, field: string): number {
  // Spaces may group digits ("1 000"); a comma is a decimal point, as French writes it, but "1,000"
  // could be a thousand or one, so it is refused rather than guessed.
  const s = v.replace(/\s/g, "");
  const m = /^([-+]?)(\d*)(?:([.,])(\d*))?$/.exec(s);
  if (!m || !/\d/.test(s)) throw badValue("number", field);
  const [, sign, whole, separator, fraction = ""] = m;
  if (separator === "," && fraction.length === 3) throw badValue("number", field);
  if (sign === "-" && /[1-9]/.test(whole + fraction)) throw badValue("negative", field);
  if (fraction.replace(/0+$/, "").length > 2) throw badValue("decimals", field);
  const n = Number(`${whole || "0"}.${fraction || "0"}`);
  if (whole.replace(/^0+/, "").length > 15 || n > NUMBER_MAX) throw badValue("tooLarge", field);
  return n === 0 ? 0 : n;
}

/** Checks one raw form value for an attribute; empty -> null. Throws AppError with the field name given. */
export function parseAttributeValue(attr: Pick<AttributeWithItems, "type" | "items" | "name">, raw: string, field: string): StoredValue | null {
  const v = raw.trim();
  if (v === "") return null;
  if (CONTROL.test(v)) throw new AppError("BR022", undefined, { field });
  switch (attr.type) {
    case "TEXT":
      if (v.length > 40) throw badValue("tooLong", field, { max: 40 });
      if (SPECIAL.test(v)) throw new AppError("BR022", undefined, { field });
      return { value_text: v, value_number: null };
    case "NOTE":
      if (v.length > 5000) throw badValue("tooLong", field, { max: 5000 });
      return { value_text: v, value_number: null };
    case "NUMBER": {
      const n = parseCount(v, field);
      return { value_text: String(n), value_number: n };
    }
    case "DATE": {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
      const d = m ? new Date(`${v}T00:00:00Z`) : null;
      if (!m || !d || Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== v) throw badValue("date", field);
      return { value_text: v, value_number: null };
    }
    case "TIME":
      if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(v)) throw badValue("time", field);
      return { value_text: v, value_number: null };
    case "BIRTHDAY": {
      const b = parseBirthday(v);
      if (!b) throw badValue("birthday", field);
      return { value_text: b, value_number: null };
    }
    case "LIST": {
      const item = attr.items.find((i) => String(i.id) === v);
      if (!item) throw badValue("list", field);
      return { value_text: item.label, value_number: item.id };
    }
  }
}

/** A member's custom values keyed by attribute id. */
export async function memberValues(db: Db, businessId: number, memberId: number): Promise<Map<number, StoredValue>> {
  const rows = await db
    .selectFrom("member_attribute_values")
    .select(["attribute_id", "value_text", "value_number"])
    .where("business_id", "=", businessId)
    .where("member_id", "=", memberId)
    .execute();
  return new Map(rows.map((r) => [Number(r.attribute_id), { value_text: r.value_text ?? "", value_number: r.value_number === null ? null : Number(r.value_number) }]));
}

/** The value as a form shows it (LIST: the item id; BIRTHDAY: dd/mm). */
export function formValue(attr: Pick<Attribute, "type">, v: StoredValue | undefined): string {
  if (!v) return "";
  if (attr.type === "LIST") return v.value_number === null ? "" : String(v.value_number);
  if (attr.type === "BIRTHDAY") return formatBirthday(v.value_text);
  return v.value_text;
}

/** Writes (or clears) the given attributes' values for one member, inside the caller's transaction. */
export async function writeMemberValues(trx: Db, businessId: number, memberId: number, values: Map<number, StoredValue | null>): Promise<void> {
  for (const [attributeId, v] of values) {
    await trx.deleteFrom("member_attribute_values").where("member_id", "=", memberId).where("attribute_id", "=", attributeId).execute();
    if (v) await trx.insertInto("member_attribute_values").values({ member_id: memberId, attribute_id: attributeId, business_id: businessId, ...v }).execute();
  }
}
