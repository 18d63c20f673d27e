// Who a text goes to. An audience is either a group (a list group, a smart group, or -1 for every subscribed
// member) or an explicit list of member ids. This module turns an audience into SUBSCRIBED members of one
// business: counted, paged by id (keyset pages, bounded memory at any size), or sampled for a preview.
//
// It depends only on the database (and the smart-filter compiler, which is pure), so the pipeline, the group
// screens and, later, campaigns can all resolve recipients without importing each other.
import { sql, type Expression, type ExpressionBuilder, type Kysely, type SqlBool } from "kysely";
import type { DB, Group } from "#db/types";
import { AppError } from "~/lib/errors";
import { filterCondition, parseStoredFilter, resolveAttributes, validateFilter } from "~/domain/groups/smart-filter";

type Db = Kysely<DB>;

/** The contact group id meaning "all subscribers". */
export const ALL_SUBSCRIBERS = -1;

export type Audience = { groupId: number } | { memberIds: readonly number[] };

export type MemberCondition = (eb: ExpressionBuilder<DB, "members">) => Expression<SqlBool>;

export interface Recipient {
  id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
}

/** Members read per page while resolving recipients. */
export const RESOLVE_PAGE = 5000;
/** Explicit ids looked up per query. */
const IDS_PAGE = 1000;

/** The group, or NF001 (404) when it is not this business's. */
export async function getGroup(db: Db, businessId: number, groupId: number): Promise<Group> {
  if (!Number.isSafeInteger(groupId) || groupId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const g = await db.selectFrom("groups").selectAll().where("business_id", "=", businessId).where("id", "=", groupId).executeTakeFirst();
  if (!g) throw new AppError("NF001", undefined, { status: 404 });
  return g;
}

/**
 * The condition on `members` that selects a group's members (any status; callers add the status).
 * -1 = everyone. A smart group whose stored filter no longer validates (an attribute was deleted) matches nobody.
 */
export async function groupCondition(db: Db, businessId: number, groupId: number): Promise<MemberCondition> {
  if (groupId === ALL_SUBSCRIBERS) return () => sql<SqlBool>`1 = 1`;
  const g = await getGroup(db, businessId, groupId);
  if (g.type === "SMART") {
    const filter = parseStoredFilter(g.filter);
    if (!filter) return () => sql<SqlBool>`1 = 0`;
    const attrs = await resolveAttributes(db, businessId, filter);
    try {
      validateFilter(filter, attrs);
    } catch {
      return () => sql<SqlBool>`1 = 0`;
    }
    return filterCondition(filter, attrs);
  }
  return (eb) =>
    eb.exists(
      eb
        .selectFrom("group_members as gm")
        .select(sql.lit(1).as("one"))
        .whereRef("gm.member_id", "=", "members.id")
        .where("gm.group_id", "=", g.id),
    );
}

function cleanIds(ids: readonly number[]): number[] {
  return [...new Set(ids)].filter((n) => Number.isSafeInteger(n) && n > 0).sort((a, b) => a - b);
}

/** The subscribed members of a group, as a select on `members` (the caller picks the columns). */
async function subscribedInGroup(db: Db, businessId: number, groupId: number) {
  const cond = await groupCondition(db, businessId, groupId);
  return db.selectFrom("members").where("members.business_id", "=", businessId).where("members.status", "=", "SUBSCRIBED").where(cond);
}

/** A select of the ids of the group's SUBSCRIBED members. */
export async function memberIdsQuery(db: Db, businessId: number, groupId: number) {
  return (await subscribedInGroup(db, businessId, groupId)).select("members.id");
}

/** How many subscribed members the group has (-1 = all subscribed members). */
export async function countGroupMembers(db: Db, businessId: number, groupId: number): Promise<number> {
  const row = await (await subscribedInGroup(db, businessId, groupId)).select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** How many subscribed members an audience reaches. */
export async function countAudience(db: Db, businessId: number, audience: Audience): Promise<number> {
  if ("groupId" in audience) return countGroupMembers(db, businessId, audience.groupId);
  const ids = cleanIds(audience.memberIds);
  let n = 0;
  for (let i = 0; i < ids.length; i += IDS_PAGE) {
    const row = await db
      .selectFrom("members")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("business_id", "=", businessId)
      .where("status", "=", "SUBSCRIBED")
      .where("id", "in", ids.slice(i, i + IDS_PAGE))
      .executeTakeFirstOrThrow();
    n += Number(row.n);
  }
  return n;
}

/**
 * Pages through an audience's subscribed members in id order. A group is read with keyset pages; explicit ids
 * are looked up a thousand at a time. Never yields an empty page. Throws NF001 for another business's group.
 */
export async function* recipientPages(db: Db, businessId: number, audience: Audience, pageSize = RESOLVE_PAGE): AsyncGenerator<Recipient[]> {
  if ("memberIds" in audience) {
    const ids = cleanIds(audience.memberIds);
    for (let i = 0; i < ids.length; i += IDS_PAGE) {
      const rows = await db
        .selectFrom("members")
        .select(["id", "phone", "first_name", "full_name"])
        .where("business_id", "=", businessId)
        .where("status", "=", "SUBSCRIBED")
        .where("id", "in", ids.slice(i, i + IDS_PAGE))
        .orderBy("id")
        .execute();
      if (rows.length) yield rows.map(normalise);
    }
    return;
  }
  const base = await subscribedInGroup(db, businessId, audience.groupId);
  let after = 0;
  for (;;) {
    const rows = await base
      .select(["members.id", "members.phone", "members.first_name", "members.full_name"])
      .where("members.id", ">", after)
      .orderBy("members.id")
      .limit(pageSize)
      .execute();
    if (rows.length) yield rows.map(normalise);
    if (rows.length < pageSize) return;
    after = Number(rows[rows.length - 1].id);
  }
}

/** The first members of a group by id (the preview's "preview as" choice). */
export async function sampleRecipients(db: Db, businessId: number, groupId: number, limit = 50): Promise<Recipient[]> {
  const rows = await (await subscribedInGroup(db, businessId, groupId))
    .select(["members.id", "members.phone", "members.first_name", "members.full_name"])
    .orderBy("members.id")
    .limit(limit)
    .execute();
  return rows.map(normalise);
}

/** One subscribed member of the group, or null. */
export async function recipientInGroup(db: Db, businessId: number, groupId: number, memberId: number): Promise<Recipient | null> {
  const row = await (await subscribedInGroup(db, businessId, groupId))
    .select(["members.id", "members.phone", "members.first_name", "members.full_name"])
    .where("members.id", "=", memberId)
    .executeTakeFirst();
  return row ? normalise(row) : null;
}

function normalise(r: Recipient): Recipient {
  return { ...r, id: Number(r.id) };
}
