// The support chat as people use it: a signed-in user writes to Textcircle's support agents (the
// operators) and reads the answers; outside the opening hours an automatic reply says when someone
// will answer; a transcript can be emailed through the email outbox. Operators work the other side in
// the support inbox (inbox.server.ts).
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { wallClock } from "~/lib/uk-time";
import { queueEmail } from "~/domain/email/email.server";
import { withinRateLimit } from "~/domain/ratelimit.server";
import { getOrCreateSupportSession, SUPPORT_MESSAGE_MAX, type SupportSender } from "./support.server";

/** A burst: at most this many messages from one user per window. */
export const CHAT_BURST_LIMIT = 8;
export const CHAT_BURST_WINDOW_SECONDS = 60;
/** The messages a chat page shows (the latest ones). */
export const CHAT_PAGE_MESSAGES = 50;

export interface ChatCaller {
  userId: number;
  businessId: number;
}

export interface OpeningHours {
  /** ISO weekdays (1 = Monday … 7 = Sunday). */
  days: number[];
  openMinute: number;
  closeMinute: number;
}

export interface ChatMessage {
  id: number;
  sender: SupportSender;
  text: string;
  createdAt: string;
  /** The automatic reply outside opening hours (an agent message no operator wrote). */
  automatic: boolean;
  /** The operator who wrote an agent message (shown in the console only). */
  operatorName: string | null;
}

export interface ChatThread {
  sessionId: number;
  status: "OPEN" | "CLOSED";
  createdAt: string;
  messages: ChatMessage[];
}

/** Too many messages in a short time: the caller should wait. */
export class ChatRateLimited extends Error {
  constructor() {
    super("support chat rate limited");
    this.name = "ChatRateLimited";
  }
}

/** Whether support is staffed at that instant (UK time). */
export function withinOpeningHours(hours: OpeningHours, at: Date): boolean {
  const w = wallClock(at);
  const isoDay = ((new Date(Date.UTC(w.year, w.month - 1, w.day)).getUTCDay() + 6) % 7) + 1;
  const minute = w.hour * 60 + w.minute;
  return hours.days.includes(isoDay) && minute >= hours.openMinute && minute < hours.closeMinute;
}

/** "09:00" for 540. */
export function clockOf(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

/** A chat message as written: trimmed, 1 to SUPPORT_MESSAGE_MAX characters (BR025 on the text otherwise). */
export function cleanChatText(text: string): string {
  const clean = text.replace(/\r\n?/g, "\n").trim();
  if (!clean) throw new AppError("BR025", undefined, { field: "text" });
  if ([...clean].length > SUPPORT_MESSAGE_MAX) throw new AppError("BR025", { max: SUPPORT_MESSAGE_MAX }, { field: "text" });
  return clean;
}

/**
 * The user writes to support: their open chat (started if none) gets the message. Outside opening hours
 * the automatic reply follows, once until an agent has answered or the chat has gone quiet for an hour.
 * A burst is refused (ChatRateLimited) before anything is written.
 */
export async function sendChatMessage(
  db: Database,
  caller: ChatCaller,
  input: { text: string; hours: OpeningHours; automaticReply: string },
  now: Date,
): Promise<{ sessionId: number; automaticReply: boolean }> {
  const text = cleanChatText(input.text);
  if (!(await withinRateLimit(db, `support:chat:${caller.userId}`, CHAT_BURST_LIMIT, CHAT_BURST_WINDOW_SECONDS, now))) throw new ChatRateLimited();
  const sessionId = await getOrCreateSupportSession(db, caller, now);
  const at = now.toISOString();
  await db.insertInto("support_messages").values({ session_id: sessionId, sender: "USER", text, created_at: at }).execute();
  let automaticReply = false;
  if (!withinOpeningHours(input.hours, now)) {
    const hourAgo = new Date(now.getTime() - 3600_000).toISOString();
    const recentAuto = await db
      .selectFrom("support_messages")
      .select("id")
      .where("session_id", "=", sessionId)
      .where("sender", "=", "AGENT")
      .where("operator_id", "is", null)
      .where("created_at", ">=", hourAgo)
      .limit(1)
      .executeTakeFirst();
    if (!recentAuto) {
      // A moment after the user's message, so the two always read in that order.
      const later = new Date(now.getTime() + 1).toISOString();
      await db.insertInto("support_messages").values({ session_id: sessionId, sender: "AGENT", text: input.automaticReply, created_at: later, operator_id: null }).execute();
      automaticReply = true;
    }
  }
  return { sessionId, automaticReply };
}

/**
 * One of the caller's chats with its latest messages (oldest first): the given one, which must be the
 * caller's own (NF001 otherwise, shown as 404), or else the open one; null when there is none.
 */
export async function getChatThread(db: Database, caller: ChatCaller, sessionId?: number | null): Promise<ChatThread | null> {
  let q = db
    .selectFrom("support_sessions")
    .select(["id", "status", "created_at"])
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId);
  q = sessionId != null ? q.where("id", "=", sessionId) : q.where("status", "=", "OPEN").orderBy("id", "asc").limit(1);
  const session = await q.executeTakeFirst();
  if (!session) {
    if (sessionId != null) throw new AppError("NF001");
    return null;
  }
  return { sessionId: Number(session.id), status: session.status === "CLOSED" ? "CLOSED" : "OPEN", createdAt: session.created_at, messages: await threadMessages(db, Number(session.id)) };
}

/** The latest messages of a chat, oldest first. */
export async function threadMessages(db: Database, sessionId: number, limit = CHAT_PAGE_MESSAGES): Promise<ChatMessage[]> {
  const rows = await db
    .selectFrom("support_messages")
    .leftJoin("operators", "operators.id", "support_messages.operator_id")
    .select(["support_messages.id", "support_messages.sender", "support_messages.text", "support_messages.created_at", "support_messages.operator_id", "operators.name as operatorName"])
    .where("support_messages.session_id", "=", sessionId)
    .orderBy("support_messages.id", "desc")
    .limit(limit)
    .execute();
  return rows.reverse().map((r) => ({
    id: Number(r.id),
    sender: r.sender,
    text: r.text,
    createdAt: r.created_at,
    automatic: r.sender === "AGENT" && r.operator_id === null,
    operatorName: r.operatorName,
  }));
}

/** The caller's earlier (closed) chats, newest first, for links to their transcripts. */
export async function pastChats(db: Database, caller: ChatCaller, limit = 10): Promise<Array<{ id: number; createdAt: string }>> {
  const rows = await db
    .selectFrom("support_sessions")
    .select(["id", "created_at"])
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .where("status", "=", "CLOSED")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ id: Number(r.id), createdAt: r.created_at }));
}

/** The caller ends their chat: the next message starts a new one. Another's id is NF001. */
export async function endChat(db: Database, caller: ChatCaller, sessionId: number, now: Date): Promise<void> {
  const result = await db
    .updateTable("support_sessions")
    .set({ status: "CLOSED", closed_at: now.toISOString() })
    .where("id", "=", sessionId)
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError("NF001");
}

export interface TranscriptWording {
  subject: string;
  intro: string;
  you: string;
  agent: string;
  formatTime: (iso: string) => string;
}

/**
 * Queues an email with the whole chat to the caller's own address (the email outbox sends it).
 * Another's chat is NF001; a chat without messages is BR025.
 */
export async function emailTranscript(db: Database, caller: ChatCaller, sessionId: number, wording: TranscriptWording, now: Date): Promise<number> {
  const thread = await getChatThread(db, caller, sessionId);
  if (!thread || thread.messages.length === 0) throw new AppError("BR025");
  const user = await db.selectFrom("users").select("email").where("id", "=", caller.userId).executeTakeFirstOrThrow();
  const all = await threadMessages(db, sessionId, 10_000);
  const lines = all.map((m) => `[${wording.formatTime(m.createdAt)}] ${m.sender === "USER" ? wording.you : wording.agent}:\n${m.text}\n`);
  return queueEmail(db, { businessId: caller.businessId, kind: "support-transcript", to: user.email, subject: wording.subject, text: `${wording.intro}\n\n${lines.join("\n")}` }, now);
}

/** The open chat for the home feed's CHATSESSION panel: its id and last agent message, or null. */
export async function openChatSummary(db: Database, caller: ChatCaller): Promise<{ sessionId: number; lastAgentText: string | null; lastAt: string } | null> {
  const session = await db
    .selectFrom("support_sessions")
    .select(["id", "created_at"])
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .where("status", "=", "OPEN")
    .orderBy("id", "asc")
    .limit(1)
    .executeTakeFirst();
  if (!session) return null;
  const last = await db
    .selectFrom("support_messages")
    .select(["text", "created_at"])
    .where("session_id", "=", session.id)
    .where("sender", "=", "AGENT")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return { sessionId: Number(session.id), lastAgentText: last?.text ?? null, lastAt: last?.created_at ?? session.created_at };
}
