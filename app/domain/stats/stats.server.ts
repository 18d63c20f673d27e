// Stats: one number per type (spec section 7).
import { sql } from "kysely";
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { wallClock, wallClockToUtc } from "~/lib/uk-time";
import { getBusiness, planOf } from "~/domain/accounts/status.server";
import { unreadForMember, unreadTotal } from "~/domain/conversations/conversations.server";
import { countPendingGroupMessages } from "~/domain/group-messages/group-messages.server";
import { countLiveCampaigns, memberCampaignInteractions } from "~/domain/campaigns/campaigns.server";

export const STAT_TYPES = [
  "MESSAGECREDITSUSED",
  "MESSAGECREDITSREMAINING",
  "SUBSCRIBERSTOTAL",
  "SUBSCRIBERSTOTALPERIOD",
  "SUBSCRIBERSOPTEDOUTPERIOD",
  "CAMPAIGNSTOTAL",
  "UNREADMESSAGESTOTAL",
  "UNREADMESSAGESSUBSCRIBERTOTAL",
  "CONTACTCAMPAIGNINTERACTIONTOTAL",
  "CONTACTGROUPPENDINGMESSAGESTOTAL",
] as const;
export type StatType = (typeof STAT_TYPES)[number];

export function isStatType(v: unknown): v is StatType {
  return typeof v === "string" && (STAT_TYPES as readonly string[]).includes(v);
}

export interface StatParams {
  contactId?: number;
  contactGroupId?: number;
}

export async function getStat(db: Database, businessId: number, type: StatType, _params: StatParams, now: Date): Promise<number> {
  switch (type) {
    case "MESSAGECREDITSUSED": {
      const b = await getBusiness(db, businessId);
      const plan = planOf(b, now);
      return plan.kind === "monthly" ? plan.used : Math.max(0, TRIAL_CREDITS - plan.creditsRemaining);
    }
    case "MESSAGECREDITSREMAINING":
      return planOf(await getBusiness(db, businessId), now).creditsRemaining;
    case "UNREADMESSAGESTOTAL":
      return unreadTotal(db, businessId, now);
    case "UNREADMESSAGESSUBSCRIBERTOTAL":
      return _params.contactId ? unreadForMember(db, businessId, _params.contactId, now) : 0;
    case "SUBSCRIBERSTOTAL":
      return countMembers(db, businessId, "SUBSCRIBED");
    case "SUBSCRIBERSTOTALPERIOD":
      // "Joined this month" on the home screen: subscribed members whose join falls in this UK calendar month.
      return countMembers(db, businessId, "SUBSCRIBED", "joined_at", startOfUkMonth(now));
    case "SUBSCRIBERSOPTEDOUTPERIOD":
      // "Left this month": members who opted out during this UK calendar month.
      return countMembers(db, businessId, "OPTED_OUT", "opted_out_at", startOfUkMonth(now));
    case "CONTACTGROUPPENDINGMESSAGESTOTAL":
      // Scheduled or sending-soon group messages, for one group (contactGroupId) or all.
      return countPendingGroupMessages(db, businessId, _params.contactGroupId);
    case "CAMPAIGNSTOTAL":
      // Campaigns live or ongoing now (the live-campaigns tile).
      return countLiveCampaigns(db, businessId);
    case "CONTACTCAMPAIGNINTERACTIONTOTAL":
      // A member's answers, keyword texts and entries across campaigns.
      return _params.contactId ? memberCampaignInteractions(db, businessId, _params.contactId) : 0;
  }
}

/** Credits a trial starts with (the meter scale). */
export const TRIAL_CREDITS = 50;

/** The first instant of the current calendar month in UK time, as an ISO string. */
export function startOfUkMonth(now: Date): string {
  const wall = wallClock(now);
  return wallClockToUtc(wall.year, wall.month, 1, 0).toISOString();
}

async function countMembers(db: Database, businessId: number, status: "SUBSCRIBED" | "OPTED_OUT", since?: "joined_at" | "opted_out_at", from?: string): Promise<number> {
  let q = db
    .selectFrom("members")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("status", "=", status);
  if (since && from) q = q.where(since, ">=", from);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * The home screen's three community numbers (SUBSCRIBERSTOTAL, SUBSCRIBERSTOTALPERIOD and
 * SUBSCRIBERSOPTEDOUTPERIOD) in one pass over the business's subscribed and opted-out members.
 */
export async function communityCounts(db: Database, businessId: number, now: Date): Promise<{ total: number; joinedPeriod: number; optedOutPeriod: number }> {
  const from = startOfUkMonth(now);
  const [row] = await communityRow(db, businessId, from);
  return { total: Number(row?.total ?? 0), joinedPeriod: Number(row?.joined ?? 0), optedOutPeriod: Number(row?.left ?? 0) };
}

/** Read for every home page: compiled once. */
const communityRow = compiledQuery((db: Database, businessId: number, from: string) =>
  db
    .selectFrom("members")
    .select([
      sql<number>`coalesce(sum(case when status = 'SUBSCRIBED' then 1 else 0 end), 0)`.as("total"),
      sql<number>`coalesce(sum(case when status = 'SUBSCRIBED' and joined_at >= ${from} then 1 else 0 end), 0)`.as("joined"),
      sql<number>`coalesce(sum(case when status = 'OPTED_OUT' and opted_out_at >= ${from} then 1 else 0 end), 0)`.as("left"),
    ])
    .where("business_id", "=", businessId)
    .where("status", "in", ["SUBSCRIBED", "OPTED_OUT"]),
);
