// Feed items for the home screen and /api/feed. Each item has the common feed-item shape; fields an item type
// does not use are omitted. Newest first, the quick-start help on top until it is hidden.
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { unreadTotal } from "~/domain/conversations/conversations.server";
import { getUnreadMessages } from "~/domain/messaging/unread.server";
import { broadcastFeedItems } from "~/domain/group-messages/group-messages.server";
import { campaignFeedItems } from "~/domain/campaigns/campaigns.server";
import { exportFeedItems } from "~/domain/exports/exports.server";
import { openChatSummary } from "~/domain/support/chat.server";

export type { FeedItem, FeedItemType } from "./feed-item";
import type { FeedItem } from "./feed-item";

export const QUICK_START_SECTION = "quickStart";

/**
 * The feed, newest first. `unreadItem: false` leaves out the UNREADMESSAGES item (and its two queries)
 * for a caller that shows unread messages on its own, as the home screen does.
 */
// The feed is read for every home page and feed poll: its queries are compiled once.
const quickStartViewed = compiledQuery((db: Database, userId: number) =>
  db.selectFrom("help_sections_viewed").select("section").where("user_id", "=", userId).where("section", "=", QUICK_START_SECTION),
);

const latestNotices = compiledQuery((db: Database, businessId: number) =>
  db.selectFrom("notices").select(["id", "title", "body", "created_at"]).where("business_id", "=", businessId).orderBy("created_at", "desc").orderBy("id", "desc").limit(20),
);

export async function getFeed(db: Database, user: { userId: number; businessId: number }, now: Date, { unreadItem = true } = {}): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  const [hidden] = await quickStartViewed(db, user.userId);
  if (!hidden) items.push({ type: "HELPCENTRE", id: QUICK_START_SECTION, name: "feed.help.title" });

  const notices = await latestNotices(db, user.businessId);
  for (const n of notices) {
    items.push({ type: "INFO", id: `info-${n.id}`, name: n.title, messageText: n.body, lastInteraction: n.created_at });
  }
  // UNREADMESSAGES (conversations): the count of unread texts and the newest one.
  const unreadTotalNow = unreadItem ? await unreadTotal(db, user.businessId, now) : 0;
  if (unreadTotalNow > 0) {
    const [latest] = await getUnreadMessages(db, user.businessId, now, 1);
    items.push({ type: "UNREADMESSAGES", id: "unread", name: latest?.fullName || latest?.phoneNumber, totalReceived: unreadTotalNow, messageText: latest?.messageText, lastInteraction: latest?.issueDate });
  }
  // Group messages (BROADCASTMESSAGE), merged with the notices newest first; help stays on top.
  items.push(...(await broadcastFeedItems(db, user.businessId)));
  // Campaigns (ONEQUESTION, POLL, INVITATION, BOUNCEBACK, PICKWINNERS…).
  items.push(...(await campaignFeedItems(db, user.businessId, now)));
  // Check-in export files, while they are kept (the second kind of check-in panel).
  items.push(...(await exportFeedItems(db, user.businessId, now)));
  items.push(...(await chatSessionItems(db, user)));
  const top = items.filter((i) => i.type === "HELPCENTRE");
  const rest = items.filter((i) => i.type !== "HELPCENTRE").sort((a, b) => (b.lastInteraction ?? "").localeCompare(a.lastInteraction ?? ""));
  return [...top, ...rest];
}

/**
 * CHATSESSION: the user's open support chat with its last agent message. When the support service
 * fails, the panel says support is unavailable (status UNAVAILABLE) and the rest of the feed still shows.
 */
async function chatSessionItems(db: Database, user: { userId: number; businessId: number }): Promise<FeedItem[]> {
  try {
    const chat = await openChatSummary(db, user);
    if (!chat) return [];
    return [{ type: "CHATSESSION", id: `chat-${chat.sessionId}`, status: "OPEN", messageText: chat.lastAgentText ?? undefined, lastInteraction: chat.lastAt }];
  } catch (error) {
    console.error("[support] the support channel is unavailable:", error instanceof Error ? error.message : error);
    return [{ type: "CHATSESSION", id: "chat-unavailable", status: "UNAVAILABLE" }];
  }
}
