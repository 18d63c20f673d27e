// The groups a group message can go to, seen from the composer: "All subscribers" (-1) and the
// business's groups, each with how many subscribed members it would reach. Recipients are resolved by the
// audience module, as the pipeline does, so the composer, the preview, the counts and the send agree.
import type { Kysely } from "kysely";
import { listGroups } from "~/domain/groups/groups.server";
import type { DB } from "#db/types";
import {
  ALL_SUBSCRIBERS,
  countGroupMembers,
  recipientInGroup,
  recipientPages as audiencePages,
  sampleRecipients,
  type Recipient,
} from "~/domain/audience/audience.server";

type Db = Kysely<DB>;

export interface GroupChoice {
  id: number;
  /** null for "All subscribers" (the screen translates it). */
  name: string | null;
  type: "ALL" | "LIST" | "SMART" | "CAMPAIGN";
  count: number;
}

export type RecipientPreview = Recipient;

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

export { sampleRecipients, recipientInGroup };

/** Pages through the group's members (keyset on id) for exact credit counts. */
export function recipientPages(db: Db, businessId: number, groupId: number, pageSize?: number): AsyncGenerator<Recipient[]> {
  return audiencePages(db, businessId, { groupId }, pageSize);
}
