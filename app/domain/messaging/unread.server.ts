// Unread message summaries for /api/directmessages?filter=UNREAD and the home feed: one per unread
// conversation, newest first, with the member's latest text.
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { displayName, isUnreadNow, latestInbound } from "~/domain/conversations/conversations.server";

export interface UnreadMessageSummary {
  fullName: string;
  phoneNumber: string;
  issueDate: string;
  messageText: string;
  /** The member, so a screen can open the thread. */
  memberId?: number;
}

/** Most summaries answered (the total is UNREADMESSAGESTOTAL). */
export const UNREAD_LIST_MAX = 50;

/** The business's unread direct messages, newest first (at most `limit`, UNREAD_LIST_MAX by default). */
export async function getUnreadMessages(db: Database, businessId: number, now: Date, limit = UNREAD_LIST_MAX): Promise<UnreadMessageSummary[]> {
  const rows = await unreadRows(db, businessId, now.toISOString(), Math.max(1, Math.min(limit, UNREAD_LIST_MAX)));
  return rows.map((r) => ({
    fullName: displayName(r),
    phoneNumber: r.phone,
    issueDate: String(r.received_at ?? r.last_message_at),
    messageText: String(r.body ?? ""),
    memberId: Number(r.member_id),
  }));
}

/** Read for every home page and unread poll: compiled once. */
const unreadRows = compiledQuery((db: Database, businessId: number, now: string, limit: number) =>
  db
    .selectFrom("conversations as c")
    .innerJoin("members as m", "m.id", "c.member_id")
    .select([
      "c.member_id",
      "c.last_message_at",
      "m.full_name",
      "m.first_name",
      "m.phone",
      (eb) => latestInbound(eb, "body", { preferMessages: true }).as("body"),
      (eb) => latestInbound(eb, "received_at", { preferMessages: true }).as("received_at"),
    ])
    .where("c.business_id", "=", businessId)
    .where((eb) => isUnreadNow(eb, now))
    .orderBy("c.last_message_at", "desc")
    .orderBy("c.id", "desc")
    .limit(limit),
);
