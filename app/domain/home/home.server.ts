// Everything the home screen shows, gathered in one call: plan meter, community numbers,
// the count tiles, and the feed. The same numbers the /api/ endpoints return when the page polls.
import type { Database } from "#db/index";
import { getBusiness, planOf } from "~/domain/accounts/status.server";
import type { PlanView } from "~/domain/billing/plan";
import { getFeed, type FeedItem } from "~/domain/feed/feed.server";
import { getUnreadMessages, type UnreadMessageSummary } from "~/domain/messaging/unread.server";
import { communityCounts, getStat } from "~/domain/stats/stats.server";
import { UNREAD_SHOWN } from "./format";

export type UnreadSummary = UnreadMessageSummary;

export interface HomeData {
  business: { name: string; phoneNumber: string | null; joinKeyword: string };
  plan: PlanView;
  community: { total: number; joinedPeriod: number; optedOutPeriod: number };
  tiles: { unreadMessages: number; pendingGroupMessages: number; liveCampaigns: number };
  feed: FeedItem[];
  unread: { total: number; messages: UnreadSummary[] };
}

/**
 * `unreadTotal`, when given, is the unread count the caller already has (the signed-in layout reads it for the
 * navigation in the same request); otherwise it is read here.
 */
export async function getHome(db: Database, user: { userId: number; businessId: number }, now: Date, unreadTotal?: Promise<number>): Promise<HomeData> {
  const b = await getBusiness(db, user.businessId);
  const stat = (type: Parameters<typeof getStat>[2]) => getStat(db, user.businessId, type, {}, now);
  // The same numbers as the stats endpoints, with the three community counts read in one query and the
  // feed without its unread item (the unread panel below is read once, here).
  const [community, unreadMessages, pendingGroupMessages, liveCampaigns, feed, unread] = await Promise.all([
    communityCounts(db, user.businessId, now),
    unreadTotal ?? stat("UNREADMESSAGESTOTAL"),
    stat("CONTACTGROUPPENDINGMESSAGESTOTAL"),
    stat("CAMPAIGNSTOTAL"),
    getFeed(db, user, now, { unreadItem: false }),
    // Only the first few are shown (the total comes from the unread count, and every unread conversation
    // counts at least one unread text), so only those are read, each with its latest text.
    getUnreadMessages(db, user.businessId, now, UNREAD_SHOWN),
  ]);
  return {
    business: { name: b.name, phoneNumber: b.phone_number, joinKeyword: b.join_keyword },
    plan: planOf(b, now),
    community,
    tiles: { unreadMessages, pendingGroupMessages, liveCampaigns },
    feed,
    unread: { total: Math.max(unreadMessages, unread.length), messages: unread.slice(0, UNREAD_SHOWN) },
  };
}
