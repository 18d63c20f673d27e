// Groups: LIST groups (fixed membership in group_members), SMART groups (a filter compiled to SQL
// at use: smart-filter.ts), CAMPAIGN groups (filled by campaigns). Group id -1 is "all subscribers".
// Every query is scoped to the business; a group of another business is NF001 (404).
import { memberDataChanged } from "~/domain/members/hooks.server";
import { sql, type Kysely, type SqlBool } from "kysely";
import type { DB, Group, GroupType } from "#db/types";
import { AppError } from "~/lib/errors";
import { deleteMessage, type PipelineDeps } from "~/domain/messaging/outbound.server";
import { ALL_SUBSCRIBERS, countGroupMembers, getGroup, groupCondition, memberIdsQuery } from "~/domain/audience/audience.server";
import {
  filterCondition,
  filterSchema,
  parseStoredFilter,
  resolveAttributes,
  validateFilter,
  type ResolvedAttribute,
  type SmartFilter,
} from "./smart-filter";

type Db = Kysely<DB>;
export const ALL_SUBSCRIBERS_GROUP = ALL_SUBSCRIBERS;
const PENDING_STATUSES = ["SCHEDULED", "SENDING_SOON"] as const;

export interface GroupSummary {
  id: number;
  name: string;
  type: GroupType | "ALL";
  count: number;
}

export { getGroup, groupCondition, memberIdsQuery, countGroupMembers };

/** All groups with counts, "All subscribers" first. LIST counts in one grouped query; SMART one query each. */
export async function listGroups(db: Db, businessId: number): Promise<GroupSummary[]> {
  const groups = await db.selectFrom("groups").select(["id", "name", "type", "filter"]).where("business_id", "=", businessId).orderBy("name").orderBy("id").execute();
  const listCounts = new Map<number, number>();
  const listIds = groups.filter((g) => g.type !== "SMART").map((g) => g.id);
  if (listIds.length) {
    const rows = await db
      .selectFrom("group_members as gm")
      .innerJoin("members", "members.id", "gm.member_id")
      .select(["gm.group_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where("gm.group_id", "in", listIds)
      .where("members.status", "=", "SUBSCRIBED")
      .groupBy("gm.group_id")
      .execute();
    for (const r of rows) listCounts.set(Number(r.group_id), Number(r.n));
  }
  const out: GroupSummary[] = [{ id: ALL_SUBSCRIBERS_GROUP, name: "", type: "ALL", count: await countGroupMembers(db, businessId, ALL_SUBSCRIBERS_GROUP) }];
  for (const g of groups) {
    const count = g.type === "SMART" ? await countGroupMembers(db, businessId, g.id) : (listCounts.get(g.id) ?? 0);
    out.push({ id: g.id, name: g.name, type: g.type, count });
  }
  return out;
}

function cleanName(name: string): string {
  const n = name.trim();
  if (!n || n.length > 40 || /[\u0000-\u001F\u007F-\u009F<>]/.test(n)) throw new AppError("BR025", undefined, { field: "name" });
  return n;
}

/** Validates a smart filter against the business; returns it normalised. */
export async function checkFilter(db: Db, businessId: number, input: unknown): Promise<{ filter: SmartFilter; attrs: Map<number, ResolvedAttribute> }> {
  const parsed = filterSchema.safeParse(input);
  if (!parsed.success) throw new AppError("BR025", undefined, { field: "conditions" });
  const attrs = await resolveAttributes(db, businessId, parsed.data);
  validateFilter(parsed.data, attrs);
  return { filter: parsed.data, attrs };
}

/** Counts members matching a filter (before saving): subscribed, and pending too. */
export async function previewFilterCount(db: Db, businessId: number, input: unknown): Promise<{ subscribed: number; pending: number }> {
  const { filter, attrs } = await checkFilter(db, businessId, input);
  const rows = await db
    .selectFrom("members")
    .select(["members.status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("members.business_id", "=", businessId)
    .where("members.status", "in", ["SUBSCRIBED", "PENDING"])
    .where(filterCondition(filter, attrs))
    .groupBy("members.status")
    .execute();
  const by = new Map(rows.map((r) => [r.status, Number(r.n)]));
  return { subscribed: by.get("SUBSCRIBED") ?? 0, pending: by.get("PENDING") ?? 0 };
}

export async function createGroup(
  db: Db,
  businessId: number,
  input: { name: string; type: "LIST" | "SMART"; filter?: unknown },
  now: Date,
): Promise<number> {
  const name = cleanName(input.name);
  const filter = input.type === "SMART" ? JSON.stringify((await checkFilter(db, businessId, input.filter ?? { conditions: [] })).filter) : null;
  const at = now.toISOString();
  const row = await db
    .insertInto("groups")
    .values({ business_id: businessId, name, type: input.type, filter, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateGroup(db: Db, businessId: number, groupId: number, input: { name: string; filter?: unknown }, now: Date): Promise<void> {
  const g = await getGroup(db, businessId, groupId);
  const name = cleanName(input.name);
  const set: { name: string; updated_at: string; filter?: string } = { name, updated_at: now.toISOString() };
  if (g.type === "SMART") set.filter = JSON.stringify((await checkFilter(db, businessId, input.filter ?? { conditions: [] })).filter);
  await db.updateTable("groups").set(set).where("id", "=", g.id).where("business_id", "=", businessId).execute();
}

/** Messages to this group that have not gone yet (deleting the group drops them). */
export async function pendingGroupMessages(db: Db, businessId: number, groupId: number): Promise<number> {
  const row = await db
    .selectFrom("messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("group_id", "=", groupId)
    .where("status", "in", [...PENDING_STATUSES])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Deletes a group. Its pending messages (scheduled or sending soon) are deleted first, with their
 * credits refunded (deleteMessage); one already issued is BR015 and the group stays.
 */
export async function deleteGroup(deps: PipelineDeps, businessId: number, groupId: number): Promise<{ messagesDeleted: number }> {
  const g = await getGroup(deps.db, businessId, groupId);
  const { deleted } = await cancelPendingGroupMessages(deps, businessId, [g.id]);
  await deps.db.deleteFrom("groups").where("id", "=", g.id).where("business_id", "=", businessId).execute();
  return { messagesDeleted: deleted };
}

/**
 * Deletes these groups' pending messages (scheduled or sending soon) of this business, each with its
 * credits refunded (deleteMessage). messages.group_id has no foreign key, so this also works just after
 * the groups were removed (smart groups dropped with a list item or attribute). By default a message
 * that can no longer be stopped throws BR015 (deleteGroup keeps the group then); with `skipIssued`
 * such messages are left to go out and counted in `skipped`.
 */
export async function cancelPendingGroupMessages(
  deps: PipelineDeps,
  businessId: number,
  groupIds: number[],
  opts: { skipIssued?: boolean } = {},
): Promise<{ deleted: number; skipped: number }> {
  if (groupIds.length === 0) return { deleted: 0, skipped: 0 };
  const pending = await deps.db
    .selectFrom("messages")
    .select("id")
    .where("business_id", "=", businessId)
    .where("group_id", "in", groupIds)
    .where("status", "in", [...PENDING_STATUSES])
    .orderBy("id")
    .execute();
  let deleted = 0;
  let skipped = 0;
  for (const m of pending) {
    try {
      await deleteMessage(deps, { businessId, messageId: m.id });
      deleted++;
    } catch (error) {
      if (!opts.skipIssued || !(error instanceof AppError) || (error.code !== "BR015" && error.code !== "NF001")) throw error;
      skipped++;
    }
  }
  return { deleted, skipped };
}

async function requireListGroup(db: Db, businessId: number, groupId: number): Promise<Group> {
  const g = await getGroup(db, businessId, groupId);
  if (g.type === "SMART") throw new AppError("BR025");
  return g;
}

/** Adds members (of this business, not deleted) to a list group; others are ignored. Returns how many were added. */
export async function addGroupMembers(db: Db, businessId: number, groupId: number, memberIds: number[], now: Date): Promise<number> {
  const g = await requireListGroup(db, businessId, groupId);
  const ids = [...new Set(memberIds)].filter((n) => Number.isSafeInteger(n) && n > 0).slice(0, 1000);
  if (!ids.length) return 0;
  return db.transaction().execute(async (trx) => {
    const valid = await trx
      .selectFrom("members")
      .select("id")
      .where("business_id", "=", businessId)
      .where("id", "in", ids)
      .where("status", "!=", "DELETED")
      .where((eb) => eb.not(eb.exists(eb.selectFrom("group_members").select(sql.lit(1).as("one")).where("group_id", "=", g.id).whereRef("member_id", "=", "members.id"))))
      .execute();
    if (!valid.length) return 0;
    await trx
      .insertInto("group_members")
      .values(valid.map((m) => ({ group_id: g.id, member_id: m.id, added_at: now.toISOString() })))
      .execute();
    await trx.updateTable("groups").set({ updated_at: now.toISOString() }).where("id", "=", g.id).execute();
    for (const m of valid) await memberDataChanged(trx, { businessId, memberId: m.id }, now);
    return valid.length;
  });
}

export async function removeGroupMembers(db: Db, businessId: number, groupId: number, memberIds: number[], now: Date): Promise<number> {
  const g = await requireListGroup(db, businessId, groupId);
  const ids = [...new Set(memberIds)].filter((n) => Number.isSafeInteger(n) && n > 0).slice(0, 1000);
  if (!ids.length) return 0;
  return db.transaction().execute(async (trx) => {
    const r = await trx.deleteFrom("group_members").where("group_id", "=", g.id).where("member_id", "in", ids).executeTakeFirst();
    await trx.updateTable("groups").set({ updated_at: now.toISOString() }).where("id", "=", g.id).execute();
    for (const id of ids) await memberDataChanged(trx, { businessId, memberId: id }, now);
    return Number(r.numDeletedRows);
  });
}

export interface GroupMemberRow {
  id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
  status: string;
}

/** A page of a group's members (subscribed and pending), keyset by id. */
export async function groupMembersPage(db: Db, businessId: number, groupId: number, afterId: number, limit = 50): Promise<GroupMemberRow[]> {
  const cond = await groupCondition(db, businessId, groupId);
  return db
    .selectFrom("members")
    .select(["members.id", "members.phone", "members.first_name", "members.full_name", "members.status"])
    .where("members.business_id", "=", businessId)
    .where("members.status", "in", ["SUBSCRIBED", "PENDING"])
    .where("members.id", ">", Math.max(0, afterId | 0))
    .where(cond)
    .orderBy("members.id")
    .limit(limit)
    .execute();
}

/** At most this many members are added by one "add all matching" (the rest: press it again). */
export const BULK_ADD_MAX = 5000;
/** Search results listed (with tick boxes) on the group page. */
export const SEARCH_RESULTS_MAX = 50;

/** Subscribed and pending members of the business whose name or phone contains the text (empty text: none). */
function matchingMembers(db: Db, businessId: number, q: string) {
  const text = q.trim().slice(0, 40);
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const digits = text.replace(/[^0-9]/g, "");
  return db
    .selectFrom("members")
    .where("members.business_id", "=", businessId)
    .where("members.status", "in", ["SUBSCRIBED", "PENDING"])
    .where((eb) => {
      if (!text) return sql<SqlBool>`1 = 0`;
      const ors = [
        sql<SqlBool>`lower(members.first_name) LIKE ${pattern} ESCAPE '\\'`,
        sql<SqlBool>`lower(members.full_name) LIKE ${pattern} ESCAPE '\\'`,
      ];
      // 07700 900123 and +447700900123 both find the member.
      if (digits.length >= 3) ors.push(sql<SqlBool>`members.phone LIKE ${`%${digits.replace(/^0/, "")}%`}`);
      return eb.or(ors);
    });
}

/** Member search for "edit members": name or phone contains the text (at most `limit` results), with whether each is in the group. */
export async function searchMembersForGroup(db: Db, businessId: number, groupId: number, q: string, limit = 20): Promise<(GroupMemberRow & { inGroup: boolean })[]> {
  const g = await requireListGroup(db, businessId, groupId);
  if (!q.trim()) return [];
  const rows = await matchingMembers(db, businessId, q)
    .select([
      "members.id",
      "members.phone",
      "members.first_name",
      "members.full_name",
      "members.status",
      (eb) => eb.exists(eb.selectFrom("group_members").select(sql.lit(1).as("one")).where("group_id", "=", g.id).whereRef("member_id", "=", "members.id")).as("in_group"),
    ])
    .orderBy("members.id")
    .limit(Math.min(Math.max(1, limit | 0), 200))
    .execute();
  return rows.map((r) => ({ id: r.id, phone: r.phone, first_name: r.first_name, full_name: r.full_name, status: r.status, inGroup: Boolean(Number(r.in_group)) }));
}

/** How many members match the search and are not in the group yet (what "add all matching" would add). */
export async function countMatchingNotInGroup(db: Db, businessId: number, groupId: number, q: string): Promise<number> {
  const g = await requireListGroup(db, businessId, groupId);
  if (!q.trim()) return 0;
  const row = await matchingMembers(db, businessId, q)
    .where((eb) => eb.not(eb.exists(eb.selectFrom("group_members").select(sql.lit(1).as("one")).where("group_id", "=", g.id).whereRef("member_id", "=", "members.id"))))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Adds every member matching the search who is not in the group yet, at most BULK_ADD_MAX at a time.
 * Returns how many were added, and whether more still match (press again for the rest).
 */
export async function addMatchingMembers(db: Db, businessId: number, groupId: number, q: string, now: Date): Promise<{ added: number; more: boolean }> {
  const g = await requireListGroup(db, businessId, groupId);
  if (!q.trim()) return { added: 0, more: false };
  return db.transaction().execute(async (trx) => {
    const rows = await matchingMembers(trx, businessId, q)
      .where((eb) => eb.not(eb.exists(eb.selectFrom("group_members").select(sql.lit(1).as("one")).where("group_id", "=", g.id).whereRef("member_id", "=", "members.id"))))
      .select("members.id")
      .orderBy("members.id")
      .limit(BULK_ADD_MAX + 1)
      .execute();
    const ids = rows.slice(0, BULK_ADD_MAX).map((r) => r.id);
    if (!ids.length) return { added: 0, more: false };
    const at = now.toISOString();
    for (let i = 0; i < ids.length; i += 1000) {
      await trx
        .insertInto("group_members")
        .values(ids.slice(i, i + 1000).map((id) => ({ group_id: g.id, member_id: id, added_at: at })))
        .execute();
    }
    await trx.updateTable("groups").set({ updated_at: at }).where("id", "=", g.id).execute();
    for (const id of ids) await memberDataChanged(trx, { businessId, memberId: id }, now);
    return { added: ids.length, more: rows.length > BULK_ADD_MAX };
  });
}

/** Smart groups whose filter uses the list item (deleting a list item removes those groups, after confirmation). */
export async function smartGroupsUsingListItem(db: Db, businessId: number, listItemId: number): Promise<{ id: number; name: string }[]> {
  const groups = await db.selectFrom("groups").select(["id", "name", "filter"]).where("business_id", "=", businessId).where("type", "=", "SMART").execute();
  return groups
    .filter((g) => parseStoredFilter(g.filter)?.conditions.some((c) => c.op === "is" && c.field.startsWith("attr:") && c.value === String(listItemId)))
    .map((g) => ({ id: g.id, name: g.name }));
}

/** Smart groups whose filter names a custom attribute. */
export async function smartGroupsUsingAttribute(db: Db, businessId: number, attributeId: number): Promise<{ id: number; name: string }[]> {
  const groups = await db.selectFrom("groups").select(["id", "name", "filter"]).where("business_id", "=", businessId).where("type", "=", "SMART").execute();
  return groups.filter((g) => parseStoredFilter(g.filter)?.conditions.some((c) => c.field === `attr:${attributeId}`)).map((g) => ({ id: g.id, name: g.name }));
}

export interface FilterFieldOption {
  /** "firstName" … or "attr:<id>" */
  field: string;
  /** A default field's i18n key suffix, or the custom attribute's name. */
  label: string;
  custom: boolean;
  kind: string;
  items?: { id: number; label: string }[];
}

/** The fields a smart filter can use: the default member fields, then the business's custom attributes. */
export async function filterFieldOptions(db: Db, businessId: number): Promise<FilterFieldOption[]> {
  const defaults: FilterFieldOption[] = (
    [
      ["firstName", "TEXT"],
      ["fullName", "TEXT"],
      ["birthday", "BIRTHDAY"],
      ["appointmentAt", "DATE"],
      ["note", "NOTE"],
      ["joinedAt", "DATE"],
      ["optedIn", "OPTED_IN"],
    ] as const
  ).map(([field, kind]) => ({ field, label: field, custom: false, kind }));
  const attrs = await db
    .selectFrom("attributes")
    .select(["id", "name", "type"])
    .where("business_id", "=", businessId)
    .orderBy("position")
    .orderBy("id")
    .execute();
  const listIds = attrs.filter((a) => a.type === "LIST").map((a) => a.id);
  const items = listIds.length
    ? await db.selectFrom("attribute_list_items").select(["id", "attribute_id", "label"]).where("attribute_id", "in", listIds).orderBy("position").orderBy("id").execute()
    : [];
  return [
    ...defaults,
    ...attrs.map((a) => ({
      field: `attr:${a.id}`,
      label: a.name,
      custom: true,
      kind: a.type,
      items: a.type === "LIST" ? items.filter((i) => i.attribute_id === a.id).map((i) => ({ id: Number(i.id), label: i.label })) : undefined,
    })),
  ];
}
