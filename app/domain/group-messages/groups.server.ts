// The groups a group message can go to, seen from the composer: "All subscribers" (-1) and the
// business's groups, each with how many subscribed members it would reach. One place that knows
// how to resolve a group's members (through the groups domain, as createMessage does), so the
// composer, the preview, the counts and the send agree.
import type { Kysely } from "kysely";
import { countGroupMembers, groupCondition, listGroups } from "~/domain/groups/groups.server";
import type { DB } from "#db/types";
import { ALL_SUBSCRIBERS } from "~/domain/messaging/outbound.server";

type Db = Kysely<DB>;

export interface GroupChoice {
  id: number;
  /** null for "All subscribers" (the screen translates it). */
  name: string | null;
  type: "ALL" | "LIST" | "SMART" | "CAMPAIGN";
  count: number;
}

export interface RecipientPreview {
  id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
}

/** Subscribed members of the group (list and smart groups through the groups domain), as a select of members. */
async function groupMembers(db: Db, businessId: number, groupId: number) {
  const cond = await groupCondition(db, businessId, groupId);
  return db.selectFrom("members").where("members.business_id", "=", businessId).where("members.status", "=", "SUBSCRIBED").where(cond);
}

export async function countRecipients(db: Db, businessId: number, groupId: number): Promise<number> {
  return countGroupMembers(db, businessId, groupId);
}

/** The group, scoped to the business; null when it does not exist or belongs to another business. */
export async function findGroup(db: Db, businessId: number, groupId: number): Promise<Omit<GroupChoice, "count"> | null> {
  if (groupId === ALL_SUBSCRIBERS) return { id: ALL_SUBSCRIBERS, name: null, type: "ALL" };
  if (!Number.isSafeInteger(groupId) || groupId <= 0) return null;
  const g = await db.selectFrom("groups").select(["id", "name", "type"]).where("business_id", "=", businessId).where("id", "=", groupId).executeTakeFirst();
  return g ? { id: Number(g.id), name: g.name, type: g.type as GroupChoice["type"] } : null;
}

/** "All subscribers" then the business's groups by name, with subscribed member counts (groups domain). */
export async function listGroupChoices(db: Db, businessId: number): Promise<GroupChoice[]> {
  return (await listGroups(db, businessId)).map((g) => ({ id: Number(g.id), name: g.id === ALL_SUBSCRIBERS ? null : g.name, type: g.type as GroupChoice["type"], count: g.count }));
}

/** The first members of the group by id (for the "preview as" choice). */
export async function sampleRecipients(db: Db, businessId: number, groupId: number, limit = 50): Promise<RecipientPreview[]> {
  return (await groupMembers(db, businessId, groupId)).select(["members.id", "members.phone", "members.first_name", "members.full_name"]).orderBy("members.id").limit(limit).execute();
}

/** One member of the group, or null. */
export async function recipientInGroup(db: Db, businessId: number, groupId: number, memberId: number): Promise<RecipientPreview | null> {
  return (await (await groupMembers(db, businessId, groupId)).select(["members.id", "members.phone", "members.first_name", "members.full_name"]).where("members.id", "=", memberId).executeTakeFirst()) ?? null;
}

/** Pages through the group's members (keyset on id) for exact credit counts. */
export async function* recipientPages(db: Db, businessId: number, groupId: number, pageSize = 5000): AsyncGenerator<RecipientPreview[]> {
  let after = 0;
  for (;;) {
    const rows = await (await groupMembers(db, businessId, groupId))
      .select(["members.id", "members.phone", "members.first_name", "members.full_name"])
      .where("members.id", ">", after)
      .orderBy("members.id")
      .limit(pageSize)
      .execute();
    if (rows.length) yield rows;
    if (rows.length < pageSize) return;
    after = rows[rows.length - 1].id;
  }
}
