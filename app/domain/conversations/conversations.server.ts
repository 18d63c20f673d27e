// Direct-message conversations (/directmessages, /member/messages, /newdirectmessage, and the DM states).
//
// One conversation per member (conversations, unique per business and member). Its `state`:
//   UNREAD   active, with texts nobody has read (unread_count of them)
//   READ     active, read
//   SNOOZED  hidden until snoozed_until; from then on it reads as UNREAD everywhere (lists, tab counts
//            and unread totals compute that in SQL: effectiveState, isUnreadNow), and the worker's
//            periodic step wakeDueSnoozed writes the change for real. Reading never writes.
//   INACTIVE cleared; it stays out of the inbox until the member's next text
// Inbound processing sets UNREAD on every conversation text from a member, whatever the state was
// (so a snoozed or cleared conversation comes back active and unread when the member texts).
// The inbox tabs: unread (UNREAD), read (READ), active (UNREAD or READ), snoozed (SNOOZED).
//
// A thread is every text both ways with the member: inbound_messages (member_id) and outbound rows
// (member_id) of every kind (DMs, group and campaign messages, system texts), newest first in pages.
import crypto from "node:crypto";
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { ConversationState, DB, Member, MessageKind, MessageStatus, OutboundStatus } from "#db/types";
import { compiledQuery } from "#db/compiled";
import { AppError } from "~/lib/errors";
import { FAILURE_REASON_KEYS, type SmsFailureReason } from "~/providers/sms/types";
import { createMessage, deleteMessage, type PipelineDeps } from "~/domain/messaging/outbound.server";
import { INBOX_TABS, TAB_COUNT_CAP, type InboxTab } from "./inbox";

/** A fresh token for a send form (its idempotency key). */
export function newFormToken(): string {
  return crypto.randomBytes(16).toString("base64url");
}

type Db = Kysely<DB>;

/** A select callback's builder over `conversations as c` (other joined tables allowed). */
type ConversationEb = ExpressionBuilder<DB & { c: DB["conversations"] }, "c">;

/** The body or time of the conversation member's latest inbound text (a correlated subquery; alias it with .as()). */
export function latestInbound(eb: ConversationEb, column: "body" | "received_at", options: { preferMessages?: boolean } = {}) {
  let q = eb
    .selectFrom("inbound_messages as i")
    .select(column === "body" ? "i.body" : "i.received_at")
    .whereRef("i.member_id", "=", "c.member_id")
    .whereRef("i.business_id", "=", "c.business_id");
  // What made a conversation unread is a text written to the business, not a vote or a keyword that came after
  // it: such texts are passed over while there is one (a detractor's survey answers, with none, still show).
  if (options.preferMessages) q = q.orderBy((o) => o.case().when("i.kind", "=", "MESSAGE").then(0).else(1).end());
  return q.orderBy("i.id", "desc").limit(1);
}

/** The body or time of the latest text sent to the conversation's member (a correlated subquery). */
export function latestOutbound(eb: ConversationEb, column: "body" | "created_at") {
  return eb
    .selectFrom("outbound as o")
    .select(column === "body" ? "o.body" : "o.created_at")
    .whereRef("o.member_id", "=", "c.member_id")
    .whereRef("o.business_id", "=", "c.business_id")
    .orderBy("o.id", "desc")
    .limit(1);
}

export { INBOX_TABS, TAB_COUNT_CAP, type InboxTab };
export const INBOX_PAGE = 25;
export const THREAD_PAGE = 50;

// ---------------------------------------------------------------------------------------------
// Cursors: "<iso>~<id>" for the inbox, "<iso>~<dir>~<id>" for threads (dir 0 = in, 1 = out).

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z$/;

export interface InboxCursor {
  at: string;
  id: number;
}
export function parseInboxCursor(v: string | null | undefined): InboxCursor | null {
  if (!v || v.length > 80) return null;
  const [at, id, ...rest] = v.split("~");
  const n = Number(id);
  if (rest.length || !ISO.test(at ?? "") || !Number.isSafeInteger(n) || n < 0) return null;
  return { at, id: n };
}
export const formatInboxCursor = (c: InboxCursor) => `${c.at}~${c.id}`;

/**
 * A thread page boundary: the oldest inbound and outbound ids already shown. Each side is walked by
 * its own per-member index (member_id, id), so every page costs the same however long the thread.
 */
export interface ThreadCursor {
  inBefore: number | null;
  outBefore: number | null;
}
const cursorId = (v: string | undefined) => (v === "-" ? null : /^\d{1,15}$/.test(v ?? "") ? Number(v) : undefined);
export function parseThreadCursor(v: string | null | undefined): ThreadCursor | null {
  if (!v || v.length > 40) return null;
  const [a, b, ...rest] = v.split("~");
  const inBefore = cursorId(a);
  const outBefore = cursorId(b);
  if (rest.length || inBefore === undefined || outBefore === undefined) return null;
  return { inBefore, outBefore };
}
export const formatThreadCursor = (c: ThreadCursor) => `${c.inBefore ?? "-"}~${c.outBefore ?? "-"}`;

// ---------------------------------------------------------------------------------------------
// State changes

// ---------------------------------------------------------------------------------------------
// Snooze: a snoozed conversation whose time has come reads as UNREAD (with at least one unread text)
// without anything being written; the worker wakes it for real.

/** The conversation (`c`) is snoozed and its time has come. */
export function isDueSnoozed(eb: ConversationEb, now: Date | string) {
  return eb.and([eb("c.state", "=", "SNOOZED"), eb("c.snoozed_until", "<=", typeof now === "string" ? now : now.toISOString())]);
}

/** The conversation reads as unread now: UNREAD, or snoozed until a time that has passed. */
export function isUnreadNow(eb: ConversationEb, now: Date | string) {
  return eb.or([eb("c.state", "=", "UNREAD"), isDueSnoozed(eb, now)]);
}

/** The state a reader sees (select it with .as()). */
export function effectiveState(eb: ConversationEb, now: Date) {
  return eb.case().when(isDueSnoozed(eb, now)).then(sql.lit("UNREAD")).else(eb.ref("c.state")).end().$castTo<ConversationState>();
}

/** The unread count a reader sees: a woken conversation counts at least one unread text. */
export function effectiveUnreadCount(eb: ConversationEb, now: Date | string) {
  return eb
    .case()
    .when(eb.and([isDueSnoozed(eb, now), eb("c.unread_count", "<", 1)]))
    .then(sql.lit(1))
    .else(eb.ref("c.unread_count"))
    .end()
    .$castTo<number>();
}

/** The same rule for one row already read. */
export function effectiveConversation<T extends { state: ConversationState; unread_count: number | string; snoozed_until: string | null }>(row: T, now: Date): T {
  if (row.state !== "SNOOZED" || row.snoozed_until === null || row.snoozed_until > now.toISOString()) return row;
  return { ...row, state: "UNREAD", unread_count: Math.max(1, Number(row.unread_count)) };
}

/** Most conversations one wakeDueSnoozed call writes (the worker calls again while there are more). */
export const WAKE_BATCH = 500;

/**
 * Wakes snoozed conversations whose time has come: UNREAD again, with at least one unread text. The
 * worker calls it periodically for every business; an action may narrow it to one business or member
 * before changing a conversation. Returns how many it woke (at most `limit`).
 */
export async function wakeDueSnoozed(db: Db, now: Date, scope: { businessId?: number; memberId?: number; limit?: number } = {}): Promise<number> {
  const at = now.toISOString();
  let due = db
    .selectFrom("conversations")
    .select("id")
    .where("state", "=", "SNOOZED")
    .where("snoozed_until", "<=", at);
  if (scope.businessId !== undefined) due = due.where("business_id", "=", scope.businessId);
  if (scope.memberId !== undefined) due = due.where("member_id", "=", scope.memberId);
  due = due.orderBy("snoozed_until").orderBy("id").limit(Math.max(1, scope.limit ?? WAKE_BATCH));
  const res = await db
    .updateTable("conversations")
    .set((eb) => ({
      state: "UNREAD" as ConversationState,
      snoozed_until: null,
      unread_count: eb.case().when("unread_count", "<", 1).then(1).else(eb.ref("unread_count")).end(),
    }))
    .where("id", "in", due)
    // Checked again here: a text that arrived in between has already made it UNREAD.
    .where("state", "=", "SNOOZED")
    .where("snoozed_until", "<=", at)
    .executeTakeFirst();
  return Number(res.numUpdatedRows);
}

/** The member of this business (any status), or NF001 (404): another business's id is not found. */
export async function requireMember(db: Db, businessId: number, memberId: number): Promise<Member> {
  if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const m = await db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("id", "=", memberId).executeTakeFirst();
  if (!m) throw new AppError("NF001", undefined, { status: 404 });
  return m;
}

async function conversationOf(db: Db, businessId: number, memberId: number) {
  return db
    .selectFrom("conversations")
    .select(["id", "state", "unread_count", "snoozed_until", "last_message_at", "read_at"])
    .where("business_id", "=", businessId)
    .where("member_id", "=", memberId)
    .executeTakeFirst();
}

/** Opening a thread reads it: an UNREAD conversation (or a snoozed one whose time passed) becomes READ. */
export async function openThread(db: Db, businessId: number, memberId: number, now: Date): Promise<void> {
  await requireMember(db, businessId, memberId);
  await db
    .updateTable("conversations as c")
    .set({ state: "READ", unread_count: 0, read_at: now.toISOString(), snoozed_until: null })
    .where("c.business_id", "=", businessId)
    .where("c.member_id", "=", memberId)
    .where((eb) => isUnreadNow(eb, now))
    .execute();
}

export type ConversationAction =
  | { action: "read" }
  | { action: "unread" }
  | { action: "clear" }
  | { action: "snooze"; until: Date };

/** Mark read or unread, snooze until a time (in the future), or clear (INACTIVE until the next text). */
export async function changeConversation(db: Db, businessId: number, memberId: number, change: ConversationAction, now: Date): Promise<ConversationState> {
  await requireMember(db, businessId, memberId);
  if (change.action === "snooze") {
    if (!Number.isFinite(change.until.getTime()) || change.until.getTime() <= now.getTime()) throw new AppError("BR013", undefined, { field: "until" });
    if (change.until.getTime() > now.getTime() + 366 * 86400_000) throw new AppError("BR025", undefined, { field: "until" });
  }
  return db.transaction().execute(async (trx) => {
    await wakeDueSnoozed(trx, now, { businessId, memberId });
    const conv = await conversationOf(trx, businessId, memberId);
    if (!conv) throw new AppError("NF001", undefined, { status: 404 });
    const at = now.toISOString();
    let state: ConversationState;
    switch (change.action) {
      case "read":
        state = conv.state === "UNREAD" ? "READ" : conv.state;
        await trx.updateTable("conversations").set({ state, unread_count: 0, read_at: at }).where("id", "=", conv.id).execute();
        return state;
      case "unread":
        state = "UNREAD";
        await trx
          .updateTable("conversations")
          .set({ state, snoozed_until: null, unread_count: Math.max(1, Number(conv.unread_count)) })
          .where("id", "=", conv.id)
          .execute();
        return state;
      case "clear":
        state = "INACTIVE";
        await trx.updateTable("conversations").set({ state, snoozed_until: null, unread_count: 0, read_at: at }).where("id", "=", conv.id).execute();
        return state;
      case "snooze":
        state = "SNOOZED";
        await trx
          .updateTable("conversations")
          .set({ state, snoozed_until: change.until.toISOString(), unread_count: 0, read_at: at })
          .where("id", "=", conv.id)
          .execute();
        return state;
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Sending

export interface SendDirectInput {
  businessId: number;
  memberId: number;
  body: string;
  createdBy?: number | null;
  /** A token per form render: the same token twice creates one message (messages_idempotency_uq). */
  idempotencyKey?: string | null;
}

async function messageByKey(db: Db, businessId: number, key: string) {
  return db
    .selectFrom("messages")
    .select(["id", "member_id"])
    .where("business_id", "=", businessId)
    .where("idempotency_key", "=", key)
    .executeTakeFirst();
}

/**
 * Sends a DM to a subscribed member (createMessage kind DM: credit BR012, pending BR027); an opted-out
 * member is BR039, a deleted one is not found. The conversation becomes (or stays) active and moves to
 * the top. A repeated idempotency key answers the first message instead of sending again.
 */
export async function sendDirectMessage(deps: PipelineDeps, input: SendDirectInput): Promise<{ messageId: number; duplicate: boolean }> {
  const key = input.idempotencyKey?.trim() ? input.idempotencyKey.trim().slice(0, 100) : null;
  const member = await requireMember(deps.db, input.businessId, input.memberId);
  if (key) {
    const prior = await messageByKey(deps.db, input.businessId, key);
    if (prior) return { messageId: prior.id, duplicate: true };
  }
  if (member.status === "DELETED") throw new AppError("NF001", undefined, { status: 404 });
  if (member.status === "OPTED_OUT") throw new AppError("BR039");
  if (member.status === "PENDING") throw new AppError("BR027");
  let messageId: number;
  try {
    const created = await createMessage(deps, {
      businessId: input.businessId,
      kind: "DM",
      body: input.body,
      recipients: [member.id],
      createdBy: input.createdBy ?? null,
      idempotencyKey: key,
    });
    messageId = created.messageId;
  } catch (e) {
    // A concurrent submission with the same key won the unique index: answer its message.
    if (key && !(e instanceof AppError)) {
      const prior = await messageByKey(deps.db, input.businessId, key);
      if (prior) return { messageId: prior.id, duplicate: true };
    }
    throw e;
  }
  const now = deps.now();
  const at = now.toISOString();
  await deps.db
    .insertInto("conversations")
    .values({ business_id: input.businessId, member_id: member.id, state: "READ", last_message_at: at, unread_count: 0, read_at: at })
    .onConflict((oc) =>
      oc.columns(["business_id", "member_id"]).doUpdateSet((eb) => ({
        last_message_at: eb.ref("excluded.last_message_at"),
        // A reply re-activates a cleared conversation; unread, read and snoozed stay as they are.
        state: eb.case().when("conversations.state", "=", "INACTIVE").then("READ").else(eb.ref("conversations.state")).end() as never,
      })),
    )
    .execute();
  return { messageId, duplicate: false };
}

// ---------------------------------------------------------------------------------------------
// Inbox

export interface InboxRow {
  memberId: number;
  name: string;
  phone: string;
  memberStatus: Member["status"];
  state: ConversationState;
  unreadCount: number;
  lastMessageAt: string;
  snoozedUntil: string | null;
  lastText: string;
  lastDirection: "in" | "out" | null;
  /** The member's latest text may be asking to stop (the rules could not be sure): the owner should look. */
  mayWantToStop: boolean;
}

export interface InboxPage {
  rows: InboxRow[];
  next: string | null;
  counts: Record<InboxTab, number>;
}

export function displayName(m: { full_name: string | null; first_name: string | null }): string {
  return (m.full_name?.trim() || m.first_name?.trim() || "").slice(0, 200);
}

/** Which conversations a tab shows, by the state a reader sees now (a due snooze counts as unread). */
function inTab(eb: ConversationEb, tab: InboxTab, now: Date) {
  const stillSnoozed = eb.and([eb("c.state", "=", "SNOOZED"), eb.or([eb("c.snoozed_until", "is", null), eb("c.snoozed_until", ">", now.toISOString())])]);
  switch (tab) {
    case "unread":
      return isUnreadNow(eb, now);
    case "read":
      return eb("c.state", "=", "READ");
    case "snoozed":
      return stillSnoozed;
    default:
      return eb.or([eb("c.state", "in", ["UNREAD", "READ"]), isDueSnoozed(eb, now)]);
  }
}

/** Conversations per tab, for the tab labels (each capped at TAB_COUNT_CAP + 1). */
export async function inboxCounts(db: Db, businessId: number, now: Date): Promise<Record<InboxTab, number>> {
  // Each state is counted from the index (business_id, state, …) alone; snoozes whose time has come (few: the
  // worker wakes them within seconds) are counted apart and moved from "snoozed" to "unread".
  const capped = async (state: ConversationState) => {
    const r = await db
      .selectFrom((eb) =>
        eb
          .selectFrom("conversations as c")
          .select("c.id")
          .where("c.business_id", "=", businessId)
          .where("c.state", "=", state)
          .limit(TAB_COUNT_CAP + 1)
          .as("x"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  };
  const due = await db
    .selectFrom("conversations as c")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("c.business_id", "=", businessId)
    .where("c.state", "=", "SNOOZED")
    .where((eb) => isDueSnoozed(eb, now))
    .executeTakeFirst();
  const woken = Number(due?.n ?? 0);
  const cap = (n: number) => Math.min(n, TAB_COUNT_CAP + 1);
  const unread = cap((await capped("UNREAD")) + woken);
  const read = await capped("READ");
  const snoozed = Math.max(0, (await capped("SNOOZED")) - woken);
  return { unread, read, active: cap(unread + read), snoozed };
}

/** One page of the inbox, newest activity first (keyset on last_message_at, id). */
export async function listInbox(
  db: Db,
  businessId: number,
  opts: { tab: InboxTab; before?: InboxCursor | null; limit?: number },
  now: Date,
): Promise<InboxPage> {
  const limit = Math.min(Math.max(opts.limit ?? INBOX_PAGE, 1), 100);
  let q = db
    .selectFrom("conversations as c")
    .innerJoin("members as m", "m.id", "c.member_id")
    .select([
      "c.id",
      "c.member_id",
      (eb) => effectiveState(eb, now).as("state"),
      (eb) => effectiveUnreadCount(eb, now).as("unread_count"),
      "c.last_message_at",
      "c.snoozed_until",
      "m.full_name",
      "m.first_name",
      "m.phone",
      "m.status",
      (eb) => latestInbound(eb, "body").as("in_body"),
      (eb) => latestInbound(eb, "received_at").as("in_at"),
      "c.last_in_flag",
      (eb) => latestOutbound(eb, "body").as("out_body"),
      (eb) => latestOutbound(eb, "created_at").as("out_at"),
    ])
    .where("c.business_id", "=", businessId)
    .where((eb) => inTab(eb, opts.tab, now));
  const before = opts.before;
  if (before) {
    q = q.where((eb) =>
      eb.or([eb("c.last_message_at", "<", before.at), eb.and([eb("c.last_message_at", "=", before.at), eb("c.id", "<", before.id)])]),
    );
  }
  const rows = await q.orderBy("c.last_message_at", "desc").orderBy("c.id", "desc").limit(limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  const counts = await inboxCounts(db, businessId, now);
  return {
    rows: page.map((r) => {
      const outNewer = r.out_at != null && (r.in_at == null || String(r.out_at) > String(r.in_at));
      return {
        memberId: Number(r.member_id),
        name: displayName(r),
        phone: r.phone,
        memberStatus: r.status,
        state: r.state,
        unreadCount: Number(r.unread_count),
        lastMessageAt: r.last_message_at,
        snoozedUntil: r.snoozed_until,
        lastText: String((outNewer ? r.out_body : r.in_body) ?? ""),
        lastDirection: outNewer ? "out" : r.in_body != null ? "in" : null,
        mayWantToStop: r.last_in_flag === "MAYBE_STOP" && r.status === "SUBSCRIBED",
      };
    }),
    next: rows.length > limit && last ? formatInboxCursor({ at: last.last_message_at, id: Number(last.id) }) : null,
    counts,
  };
}

// ---------------------------------------------------------------------------------------------
// Threads

/** NOT_SENT: the pipeline held the text back because the member had opted out (or left) by the time it was due. */
export type ThreadState = "RECEIVED" | "SCHEDULED" | "SENDING_SOON" | "SENDING" | "SENT" | "DELIVERED" | "FAILED" | "NOT_SENT";

export interface ThreadItem {
  key: string;
  direction: "in" | "out";
  body: string;
  at: string;
  state: ThreadState;
  /** The kind of message an outbound text belongs to (DM, group, campaign, system). */
  kind: MessageKind | null;
  /** When a scheduled text goes out. */
  sendAt?: string;
  /** i18n key telling why a text failed. */
  failureKey?: string;
  /** An inbound text that may be asking to stop (the rules could not be sure). */
  mayWantToStop?: boolean;
  /** Outbound texts: the message, so a direct message still sending soon can be undone. */
  messageId?: number;
  /** While sending soon: when it goes (the countdown runs to this). */
  editableUntil?: string;
  /** Outbound texts a person wrote (a DM, a group message): who, by name ("sent by Sam"). */
  sentBy?: string;
}

export interface Thread {
  member: { id: number; name: string; phone: string; status: Member["status"] };
  conversation: { state: ConversationState; unreadCount: number; snoozedUntil: string | null } | null;
  items: ThreadItem[];
  earlier: string | null;
}

/** The i18n key for why an outbound text failed (provider reason, or the pipeline's own refusal). */
export function failureKeyOf(errorCode: string | null, error: string | null): string {
  if (errorCode && errorCode in FAILURE_REASON_KEYS) return FAILURE_REASON_KEYS[errorCode as SmsFailureReason];
  if (error === "opted out") return FAILURE_REASON_KEYS["opted-out"];
  if (error === "deleted" || error === "pending opt-in") return "conversations.failure.notSubscribed";
  if (error === "undelivered") return "conversations.failure.undelivered";
  return FAILURE_REASON_KEYS.unknown;
}

function outboundState(o: { status: OutboundStatus; msg_status: MessageStatus; editable_until: string; error_code: string | null }, now: Date): ThreadState {
  switch (o.status) {
    case "FAILED":
      return o.error_code === "OPTED_OUT" ? "NOT_SENT" : "FAILED";
    case "DELIVERED":
      return "DELIVERED";
    case "SENT":
    case "UNKNOWN":
      return "SENT";
    case "SENDING":
      return "SENDING";
    case "QUEUED": {
      if (now.toISOString() < o.editable_until) return o.msg_status === "SCHEDULED" ? "SCHEDULED" : "SENDING_SOON";
      return "SENDING";
    }
  }
}

interface SortKey {
  at: string;
  dir: 0 | 1;
  id: number;
}
const keyOf = (i: SortKey) => i;
function cmpDesc(a: SortKey, b: SortKey): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  if (a.dir !== b.dir) return b.dir - a.dir;
  return b.id - a.id;
}

/**
 * A member's thread: the newest `limit` texts both ways before the cursor, returned oldest first,
 * with `earlier` set when older texts exist. Each side is read newest first by id (ids follow arrival
 * and creation order) and the two are merged by time.
 */
export async function getThread(
  db: Db,
  businessId: number,
  memberId: number,
  opts: { before?: ThreadCursor | null; limit?: number },
  now: Date,
): Promise<Thread> {
  const member = await requireMember(db, businessId, memberId);
  const limit = Math.min(Math.max(opts.limit ?? THREAD_PAGE, 1), 200);
  const c = opts.before ?? null;

  let inQ = db
    .selectFrom("inbound_messages")
    .select(["id", "body", "received_at", "flag"])
    .where("business_id", "=", businessId)
    .where("member_id", "=", member.id);
  if (c?.inBefore != null) inQ = inQ.where("id", "<", c.inBefore);
  let outQ = db
    .selectFrom("outbound as o")
    .innerJoin("messages as msg", "msg.id", "o.message_id")
    .leftJoin("users as author", "author.id", "msg.created_by")
    .select(["o.id", "o.message_id", "o.body", "o.created_at", "o.status", "o.error_code", "o.error", "msg.kind", "msg.status as msg_status", "msg.editable_until", "msg.send_at", "author.name as sentBy"])
    .where("o.business_id", "=", businessId)
    .where("o.member_id", "=", member.id);
  if (c?.outBefore != null) outQ = outQ.where("o.id", "<", c.outBefore);
  const [ins, outs, stored] = await Promise.all([
    inQ.orderBy("id", "desc").limit(limit + 1).execute(),
    outQ.orderBy("o.id", "desc").limit(limit + 1).execute(),
    conversationOf(db, businessId, member.id),
  ]);
  const conv = stored ? effectiveConversation(stored, now) : undefined;
  type Keyed = ThreadItem & { k: SortKey };
  const all: Keyed[] = [
    ...ins.map((r): Keyed => ({
      key: `in-${r.id}`,
      direction: "in",
      body: r.body,
      at: r.received_at,
      state: "RECEIVED",
      kind: null,
      ...(r.flag === "MAYBE_STOP" ? { mayWantToStop: true } : {}),
      k: keyOf({ at: r.received_at, dir: 0, id: Number(r.id) }),
    })),
    ...outs.map((r): Keyed => {
      const state = outboundState({ status: r.status, msg_status: r.msg_status, editable_until: r.editable_until, error_code: r.error_code }, now);
      return {
        key: `out-${r.id}`,
        direction: "out",
        body: r.body,
        at: r.created_at,
        state,
        kind: r.kind,
        messageId: Number(r.message_id),
        ...(state === "SCHEDULED" ? { sendAt: r.send_at } : {}),
        ...(state === "SENDING_SOON" ? { editableUntil: r.editable_until } : {}),
        ...(state === "FAILED" || state === "NOT_SENT" ? { failureKey: failureKeyOf(r.error_code, r.error) } : {}),
        ...(r.sentBy && (r.kind === "DM" || r.kind === "GROUP") ? { sentBy: r.sentBy } : {}),
        k: keyOf({ at: r.created_at, dir: 1, id: Number(r.id) }),
      };
    }),
  ].sort((a, b) => cmpDesc(a.k, b.k));
  const page = all.slice(0, limit);
  const more = all.length > limit;
  const oldest = page[page.length - 1];
  /** The smallest id shown from each side (or the previous bound when a side showed nothing). */
  function nextCursor(shown: Keyed[], prev: ThreadCursor | null): ThreadCursor {
    const min = (dir: 0 | 1) => shown.filter((i) => i.k.dir === dir).reduce<number | null>((m, i) => (m === null || i.k.id < m ? i.k.id : m), null);
    return { inBefore: min(0) ?? prev?.inBefore ?? null, outBefore: min(1) ?? prev?.outBefore ?? null };
  }
  return {
    member: { id: member.id, name: displayName(member), phone: member.phone, status: member.status },
    conversation: conv ? { state: conv.state, unreadCount: Number(conv.unread_count), snoozedUntil: conv.snoozed_until } : null,
    items: page.reverse().map(({ k: _k, ...item }) => item),
    earlier: more && oldest ? formatThreadCursor(nextCursor(page, c)) : null,
  };
}

/**
 * Undoes a direct message to the member while it is still sending soon: its queued text is dropped and the
 * credits refunded. BR015 once it has gone; 404 for another business's or another member's message.
 */
export async function undoDirectMessage(deps: PipelineDeps, input: { businessId: number; memberId: number; messageId: number; actorId?: number | null }): Promise<void> {
  const msg = await deps.db
    .selectFrom("messages")
    .select(["id"])
    .where("business_id", "=", input.businessId)
    .where("id", "=", input.messageId)
    .where("kind", "=", "DM")
    .where("member_id", "=", input.memberId)
    .executeTakeFirst();
  if (!msg) throw new AppError("NF001", undefined, { status: 404 });
  await deleteMessage(deps, { businessId: input.businessId, messageId: msg.id, actorId: input.actorId ?? null });
}

// ---------------------------------------------------------------------------------------------
// Unread

/** Unread texts across the business's conversations (the home tile, UNREADMESSAGESTOTAL). */
export async function unreadTotal(db: Db, businessId: number, now: Date): Promise<number> {
  // Two index reads rather than one OR: the unread sum comes from the covering index (business_id, state,
  // unread_count), and snoozes whose time has come (few: the worker wakes them within seconds) are added apart.
  // Both are read for every signed-in page (the navigation's count), so they are compiled once.
  const [unread] = await unreadSum(db, businessId);
  const [woken] = await wokenSum(db, businessId, now.toISOString());
  return Number(unread?.n ?? 0) + Number(woken?.n ?? 0);
}

const unreadSum = compiledQuery((db: Db, businessId: number) =>
  db
    .selectFrom("conversations as c")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("c.unread_count"), eb.lit(0)).as("n"))
    .where("c.business_id", "=", businessId)
    .where("c.state", "=", "UNREAD"),
);

const wokenSum = compiledQuery((db: Db, businessId: number, now: string) =>
  db
    .selectFrom("conversations as c")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(effectiveUnreadCount(eb, now)), eb.lit(0)).as("n"))
    .where("c.business_id", "=", businessId)
    .where("c.state", "=", "SNOOZED")
    .where((eb) => isDueSnoozed(eb, now)),
);

/** Unread texts from one member (UNREADMESSAGESSUBSCRIBERTOTAL); 0 for another business's member. */
export async function unreadForMember(db: Db, businessId: number, memberId: number, now: Date): Promise<number> {
  const r = await db
    .selectFrom("conversations as c")
    .select((eb) => effectiveUnreadCount(eb, now).as("unread_count"))
    .where("c.business_id", "=", businessId)
    .where("c.member_id", "=", memberId)
    .where((eb) => isUnreadNow(eb, now))
    .executeTakeFirst();
  return Number(r?.unread_count ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Choosing a member for a new DM

export interface MemberChoice {
  id: number;
  name: string;
  phone: string;
}

/** Digits of a UK number as stored (E.164 +44…), for a prefix match: "07700 900" -> "+447700900". */
export function phonePrefix(q: string): string | null {
  const digits = q.replace(/[\s()\-.]/g, "");
  if (!/^\+?\d{3,15}$/.test(digits)) return null;
  if (digits.startsWith("+")) return digits;
  if (digits.startsWith("44")) return `+${digits}`;
  if (digits.startsWith("0")) return `+44${digits.slice(1)}`;
  return null;
}

/** Subscribed members matching a name or number, newest first (at most `limit`); the newest when q is empty. */
export async function searchSubscribedMembers(db: Db, businessId: number, q: string, limit = 20): Promise<MemberChoice[]> {
  const term = q.trim().slice(0, 40);
  let query = db
    .selectFrom("members")
    .select(["id", "full_name", "first_name", "phone"])
    .where("business_id", "=", businessId)
    .where("status", "=", "SUBSCRIBED");
  if (term) {
    const prefix = phonePrefix(term);
    const like = `%${term.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`lower(coalesce(${eb.ref("full_name")}, '')) like ${like} escape '\\'`,
        sql<boolean>`lower(coalesce(${eb.ref("first_name")}, '')) like ${like} escape '\\'`,
        ...(prefix ? [eb.and([eb("phone", ">=", prefix), eb("phone", "<", `${prefix}~`)])] : []),
      ]),
    );
  }
  const rows = await query.orderBy("id", "desc").limit(Math.min(Math.max(limit, 1), 50)).execute();
  return rows.map((r) => ({ id: r.id, name: displayName(r), phone: r.phone }));
}
