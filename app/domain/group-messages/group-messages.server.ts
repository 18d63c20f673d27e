// Group messages (New group message, /groupmessages, /allgroupmessages): the three-step draft
// (Compose, Schedule, Preview), the final send (idempotent per draft), tracking lists with counts,
// the pending count (tile and CONTACTGROUPPENDINGMESSAGESTOTAL) and the BROADCASTMESSAGE feed items.
//
// Drafts live server-side in group_message_drafts (one row per composition, scoped to the business),
// so each step is a real page that survives a refresh and works without JavaScript. The draft's
// random token is the idempotency key of the send: a second submission of the final form finds the
// message the first one created (messages_idempotency_uq) and creates nothing.
//
// Replies (tracking): inbound conversation texts (not keywords) from a recipient of the message,
// received from its send time up to REPLY_WINDOW_DAYS later.
import { type Kysely, type Selectable } from "kysely";
import type { DB, MessageStatus } from "#db/types";
import { compiledQuery } from "#db/compiled";
import { AppError } from "~/lib/errors";
import { randomToken } from "~/lib/crypto.server";
import { creditsRemaining } from "~/domain/billing/credits.server";
import { analyse } from "~/domain/messaging/segments";
import { compileTemplate, withOptOutLine } from "~/domain/messaging/merge";
import { ALL_SUBSCRIBERS, assertKnownTags, createMessage, deleteMessage, loadBusiness, renderPage, updateMessage, type PipelineDeps } from "~/domain/messaging/outbound.server";
import { isCodesShort, requestCodes } from "~/domain/shop/codes.server";
import { countRecipients, findGroup, recipientInGroup, recipientPages, sampleRecipients } from "./groups.server";
import { cleanMessageText, GROUP_TEXT_MAX } from "./text";

type Db = Kysely<DB>;

export const REPLY_WINDOW_DAYS = 7;
export const PAGE_SIZE = 20;
export const PENDING_STATUSES: MessageStatus[] = ["SCHEDULED", "SENDING_SOON"];

export interface Draft {
  id: number;
  body: string;
  groupId: number | null;
  sendMode: "NOW" | "LATER" | null;
  sendAt: string | null;
  token: string;
  messageId: number | null;
}

function checkText(body: string): string {
  const text = cleanMessageText(body);
  if (!text.trim()) throw new AppError("BR025", undefined, { field: "messageText" });
  if (analyse(text).characters > GROUP_TEXT_MAX) throw new AppError("BR025", undefined, { field: "messageText" });
  return text;
}

/** Step 1: saves the text as a new draft, or into the existing one. Returns the draft id. */
export async function saveDraftText(
  db: Db,
  input: { businessId: number; userId: number; draftId?: number | null; body: string },
  now: Date,
): Promise<number> {
  const body = checkText(input.body);
  await assertKnownTags(db, input.businessId, body);
  const at = now.toISOString();
  if (input.draftId) {
    const d = await getDraft(db, input.businessId, input.draftId);
    if (!d) throw new AppError("NF001", undefined, { status: 404 });
    await db.updateTable("group_message_drafts").set({ body, updated_at: at }).where("id", "=", d.id).where("business_id", "=", input.businessId).execute();
    return d.id;
  }
  const row = await db
    .insertInto("group_message_drafts")
    .values({ business_id: input.businessId, user_id: input.userId, body, group_id: null, send_mode: null, send_at: null, token: randomToken(16), message_id: null, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function getDraft(db: Db, businessId: number, draftId: number): Promise<Draft | null> {
  if (!Number.isSafeInteger(draftId) || draftId <= 0) return null;
  const d = await db.selectFrom("group_message_drafts").selectAll().where("business_id", "=", businessId).where("id", "=", draftId).executeTakeFirst();
  if (!d) return null;
  return {
    id: Number(d.id),
    body: d.body,
    groupId: d.group_id === null ? null : Number(d.group_id),
    sendMode: d.send_mode,
    sendAt: d.send_at,
    token: d.token,
    messageId: d.message_id === null ? null : Number(d.message_id),
  };
}

/** Step 2: the group (404 if not this business's) and when to send (BR013 unless in the future). */
export async function saveDraftSchedule(
  db: Db,
  input: { businessId: number; draftId: number; groupId: number; sendMode: "NOW" | "LATER"; sendAt: Date | null },
  now: Date,
): Promise<void> {
  const d = await getDraft(db, input.businessId, input.draftId);
  if (!d) throw new AppError("NF001", undefined, { status: 404 });
  const group = await findGroup(db, input.businessId, input.groupId);
  if (!group) throw new AppError("NF001", undefined, { status: 404 });
  let sendAt: string | null = null;
  if (input.sendMode === "LATER") {
    if (!input.sendAt || !Number.isFinite(input.sendAt.getTime()) || input.sendAt.getTime() <= now.getTime()) {
      throw new AppError("BR013", undefined, { field: "sendDate" });
    }
    sendAt = input.sendAt.toISOString();
  }
  if ((await countRecipients(db, input.businessId, input.groupId)) === 0) throw new AppError("BR026", undefined, { field: "groupId" });
  await db
    .updateTable("group_message_drafts")
    .set({ group_id: input.groupId, send_mode: input.sendMode, send_at: sendAt, updated_at: now.toISOString() })
    .where("id", "=", d.id)
    .where("business_id", "=", input.businessId)
    .execute();
}

export interface DraftPreview {
  draft: Draft;
  group: { id: number; name: string | null; type: string };
  recipients: number;
  credits: number;
  creditsRemaining: number;
  /**
   * When the credit is short: how many of the first recipients (in the order the send goes through them) the
   * credit covers, and what they use. Null when everyone fits.
   */
  fits: { recipients: number; credits: number } | null;
  members: { id: number; name: string; phone: string }[];
  member: { id: number; name: string; phone: string } | null;
  rendered: string;
  renderedSegments: number;
  /** The opt-out line was added because the text had no way to stop (UK marketing rules). */
  optOutLineAdded: boolean;
}

/**
 * Step 3: the text as the chosen member (or the first) receives it, the recipients and exact credits.
 * Bodies come from the pipeline's own render path (renderPage: every merge tag, custom {{attr.key}}
 * values and the member form link under `publicUrl`), so the preview's credits are what the send charges.
 */
export async function previewDraft(db: Db, businessId: number, draftId: number, memberId: number | null, now: Date, publicUrl?: string): Promise<DraftPreview> {
  const draft = await getDraft(db, businessId, draftId);
  if (!draft || draft.groupId === null) throw new AppError("NF001", undefined, { status: 404 });
  const group = await findGroup(db, businessId, draft.groupId);
  if (!group) throw new AppError("NF001", undefined, { status: 404 });
  const business = await loadBusiness(db, businessId);
  // What will be sent: the opt-out line is added to a marketing text that lacks one.
  const sent = withOptOutLine(draft.body, business.locale);
  const template = compileTemplate(sent.body);
  let recipients = 0;
  let credits = 0;
  const remaining = await creditsRemaining(db, businessId, now);
  // The first recipients the remaining credit covers, in the send's own order (a prefix: never skips one).
  let fitRecipients = 0;
  let fitCredits = 0;
  let fitting = true;
  if (template.constant) {
    recipients = await countRecipients(db, businessId, draft.groupId);
    const each = analyse(sent.body).segments;
    credits = recipients * each;
    fitRecipients = Math.min(recipients, Math.floor(remaining / each));
    fitCredits = fitRecipients * each;
  } else {
    const cache = new Map<string, number>();
    for await (const page of recipientPages(db, businessId, draft.groupId)) {
      for (const body of await renderPage(db, template, business, page, publicUrl, { sample: true })) {
        let s = cache.get(body);
        if (s === undefined) {
          s = analyse(body).segments;
          if (cache.size < 10_000) cache.set(body, s);
        }
        recipients++;
        credits += s;
        if (fitting && fitCredits + s <= remaining) {
          fitRecipients++;
          fitCredits += s;
        } else fitting = false;
      }
    }
  }
  const sample = await sampleRecipients(db, businessId, draft.groupId);
  const label = (m: { id: number; phone: string; first_name: string | null; full_name: string | null }) => ({
    id: Number(m.id),
    name: m.full_name || m.first_name || m.phone,
    phone: m.phone,
  });
  let chosen = memberId ? await recipientInGroup(db, businessId, draft.groupId, memberId) : null;
  if (!chosen) chosen = sample[0] ?? null;
  const rendered = chosen ? (await renderPage(db, template, business, [chosen], publicUrl, { sample: true }))[0] : template.render({ businessName: business.name });
  return {
    draft,
    group,
    recipients,
    credits,
    creditsRemaining: remaining,
    fits: credits > remaining ? { recipients: fitRecipients, credits: fitCredits } : null,
    members: sample.map(label),
    member: chosen ? label(chosen) : null,
    rendered,
    renderedSegments: analyse(rendered).segments,
    optOutLineAdded: sent.added,
  };
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null;
  return !!err && (err.code === "23505" || err.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/i.test(err.message ?? ""));
}

async function messageByKey(db: Db, businessId: number, key: string) {
  return db.selectFrom("messages").select(["id", "group_id"]).where("business_id", "=", businessId).where("idempotency_key", "=", key).executeTakeFirst();
}

/**
 * The final send: creates the group message from the draft (charging its credits) exactly once.
 * A repeat (double submission, back and resubmit) answers the same message with created = false.
 * A text with {{shopify.code}} needs a code per recipient made beforehand: BR038 (codesShort) when too few are
 * made, BR038 (noShop) when no shop is connected. sendDraftOrWait waits for codes instead.
 */
export async function sendDraft(
  deps: PipelineDeps,
  input: { businessId: number; userId: number; draftId: number; firstRecipients?: number | null },
): Promise<{ messageId: number; groupId: number; created: boolean; scheduled: boolean }> {
  const draft = await getDraft(deps.db, input.businessId, input.draftId);
  if (!draft) throw new AppError("NF001", undefined, { status: 404 });
  if (draft.groupId === null || !draft.sendMode) throw new AppError("BR025");
  const key = `draft:${draft.token}`;
  const existing = await messageByKey(deps.db, input.businessId, key);
  const scheduled = draft.sendMode === "LATER";
  if (existing) return { messageId: Number(existing.id), groupId: draft.groupId, created: false, scheduled };
  if (!(await findGroup(deps.db, input.businessId, draft.groupId))) throw new AppError("NF001", undefined, { status: 404 });
  const now = deps.now();
  let sendAt: Date | null = null;
  if (draft.sendMode === "LATER") {
    sendAt = draft.sendAt ? new Date(draft.sendAt) : null;
    if (!sendAt || sendAt.getTime() <= now.getTime()) throw new AppError("BR013");
  }
  try {
    const created = await createMessage(deps, {
      businessId: input.businessId,
      kind: "GROUP",
      body: draft.body,
      groupId: draft.groupId,
      sendAt,
      createdBy: input.userId,
      idempotencyKey: key,
      // The owner chose to send to the first N members the credit covers; the rest are recorded as left out.
      maxRecipients: input.firstRecipients ?? null,
    });
    await deps.db.updateTable("group_message_drafts").set({ message_id: created.messageId, updated_at: now.toISOString() }).where("id", "=", draft.id).execute();
    return { messageId: created.messageId, groupId: draft.groupId, created: true, scheduled };
  } catch (e) {
    if (isUniqueViolation(e)) {
      const again = await messageByKey(deps.db, input.businessId, key);
      if (again) return { messageId: Number(again.id), groupId: draft.groupId, created: false, scheduled };
    }
    throw e;
  }
}

/**
 * The final send as the preview page and the worker make it: like sendDraft, but a text whose discount codes
 * ({{shopify.code}}) are not all made yet waits for them instead of being refused. Codes are asked for (a
 * durable request; the "shop-codes" worker round makes them and then calls this again) and the answer is
 * `waiting`, with no message yet. With no shop connected it is still refused (BR038 noShop).
 */
export async function sendDraftOrWait(
  deps: PipelineDeps,
  input: { businessId: number; userId: number; draftId: number; firstRecipients?: number | null },
): Promise<{ waiting: false; messageId: number; groupId: number; created: boolean; scheduled: boolean } | { waiting: true; groupId: number; scheduled: boolean }> {
  try {
    return { waiting: false, ...(await sendDraft(deps, input)) };
  } catch (e) {
    if (!isCodesShort(e)) throw e;
    const draft = await getDraft(deps.db, input.businessId, input.draftId);
    if (!draft || draft.groupId === null) throw e;
    const needed = await countRecipients(deps.db, input.businessId, draft.groupId);
    await requestCodes(deps.db, { businessId: input.businessId, needed, draftId: draft.id }, deps.now());
    return { waiting: true, groupId: draft.groupId, scheduled: draft.sendMode === "LATER" };
  }
}

export interface GroupMessageRow {
  id: number;
  body: string;
  groupId: number;
  groupName: string | null;
  status: MessageStatus;
  sendAt: string;
  editableUntil: string;
  editable: boolean;
  recipients: number;
  credits: number;
  /** Members not sent to because the credit ran out (see listLeftOut). */
  leftOut: number;
  error: string | null;
  sent: number;
  delivered: number;
  failed: number;
  replies: number;
  /** Who wrote it and who last edited it, by name (null: nobody recorded, such as an API client). */
  createdBy: string | null;
  updatedBy: string | null;
}

/** A page of group messages (one group, or all), newest first, with their counts. */
export async function listGroupMessages(
  db: Db,
  businessId: number,
  options: { groupId?: number | null; page?: number },
  now: Date,
): Promise<{ rows: GroupMessageRow[]; total: number; page: number; pageCount: number }> {
  let q = db.selectFrom("messages").where("business_id", "=", businessId).where("kind", "=", "GROUP");
  if (options.groupId !== undefined && options.groupId !== null) q = q.where("group_id", "=", options.groupId);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(options.page ?? 1)), pageCount);
  const msgs = await q
    .select(["id", "body", "group_id", "status", "send_at", "editable_until", "recipients", "credits", "error", "created_by", "updated_by", "left_out"])
    .orderBy("id", "desc")
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  const names = await groupNames(db, businessId, msgs);
  const people = await userNames(db, businessId, msgs);
  const rows: GroupMessageRow[] = [];
  for (const m of msgs) {
    const counts = await db
      .selectFrom("outbound")
      .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
      .where("message_id", "=", m.id)
      .groupBy("status")
      .execute();
    const c = Object.fromEntries(counts.map((r) => [r.status, Number(r.n)])) as Record<string, number>;
    const delivered = c.DELIVERED ?? 0;
    const sent = (c.SENT ?? 0) + delivered + (c.UNKNOWN ?? 0);
    rows.push(
      toRow(m, Number(m.group_id) === ALL_SUBSCRIBERS ? null : (names.get(Number(m.group_id)) ?? null), now, {
        sent,
        delivered,
        failed: c.FAILED ?? 0,
        replies: sent > 0 ? await countReplies(db, businessId, Number(m.id), m.send_at) : 0,
      }, people),
    );
  }
  return { rows, total, page, pageCount };
}

/** Inbound conversation texts from the message's recipients within REPLY_WINDOW_DAYS of its send time. */
export async function countReplies(db: Db, businessId: number, messageId: number, sendAt: string): Promise<number> {
  const until = new Date(new Date(sendAt).getTime() + REPLY_WINDOW_DAYS * 86_400_000).toISOString();
  const row = await db
    .selectFrom("inbound_messages as i")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("i.business_id", "=", businessId)
    .where("i.kind", "=", "MESSAGE")
    .where("i.received_at", ">=", sendAt)
    .where("i.received_at", "<", until)
    .where((eb) =>
      eb.exists(
        eb.selectFrom("outbound as o").select("o.id").where("o.message_id", "=", messageId).whereRef("o.member_id", "=", "i.member_id"),
      ),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A group message of this business (404 otherwise), for the edit and delete pages. */
export async function getGroupMessage(db: Db, businessId: number, messageId: number, now: Date): Promise<GroupMessageRow> {
  if (!Number.isSafeInteger(messageId) || messageId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const m = await db
    .selectFrom("messages")
    .select(["id", "body", "group_id", "status", "send_at", "editable_until", "recipients", "credits", "error", "created_by", "updated_by", "left_out"])
    .where("business_id", "=", businessId)
    .where("kind", "=", "GROUP")
    .where("id", "=", messageId)
    .executeTakeFirst();
  if (!m) throw new AppError("NF001", undefined, { status: 404 });
  const group = await findGroup(db, businessId, Number(m.group_id));
  return toRow(m, group?.name ?? null, now, { sent: 0, delivered: 0, failed: 0, replies: 0 }, await userNames(db, businessId, [m]));
}

type MessageListFields = Pick<Selectable<DB["messages"]>, "id" | "body" | "group_id" | "status" | "send_at" | "editable_until" | "recipients" | "credits" | "error" | "created_by" | "updated_by" | "left_out">;

/** The names of the people who wrote or edited these messages (removed team members keep their name). */
async function userNames(db: Db, businessId: number, msgs: Array<Pick<MessageListFields, "created_by" | "updated_by">>): Promise<Map<number, string>> {
  const ids = [...new Set(msgs.flatMap((m) => [m.created_by, m.updated_by]).filter((id): id is number => id !== null).map(Number))];
  if (!ids.length) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name"]).where("business_id", "=", businessId).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [Number(r.id), r.name]));
}

/** One message as the tracking pages show it: editable only while pending and inside its pause. */
function toRow(
  m: MessageListFields,
  groupName: string | null,
  now: Date,
  counts: Pick<GroupMessageRow, "sent" | "delivered" | "failed" | "replies">,
  people: Map<number, string>,
): GroupMessageRow {
  return {
    id: Number(m.id),
    body: m.body,
    groupId: Number(m.group_id),
    groupName,
    status: m.status,
    sendAt: m.send_at,
    editableUntil: m.editable_until,
    editable: PENDING_STATUSES.includes(m.status) && now.toISOString() < m.editable_until,
    recipients: Number(m.recipients),
    credits: Number(m.credits),
    leftOut: Number(m.left_out),
    error: m.error,
    ...counts,
    createdBy: m.created_by === null ? null : (people.get(Number(m.created_by)) ?? null),
    updatedBy: m.updated_by === null ? null : (people.get(Number(m.updated_by)) ?? null),
  };
}

/** Edits a pending group message's text and time (BR014 once issued, BR013 for a past time). */
export async function editGroupMessage(
  deps: PipelineDeps,
  input: { businessId: number; messageId: number; body: string; sendMode: "NOW" | "LATER"; sendAt: Date | null; actorId?: number | null },
) {
  const now = deps.now();
  await getGroupMessage(deps.db, input.businessId, input.messageId, now);
  const body = checkText(input.body);
  if (input.sendMode === "LATER" && (!input.sendAt || !Number.isFinite(input.sendAt.getTime()) || input.sendAt.getTime() <= now.getTime())) {
    throw new AppError("BR013", undefined, { field: "sendDate" });
  }
  return updateMessage(deps, { businessId: input.businessId, messageId: input.messageId, body, sendAt: input.sendMode === "LATER" ? input.sendAt : now, actorId: input.actorId ?? null });
}

/** Deletes a pending group message and refunds it (BR015 once issued). */
export async function deleteGroupMessage(deps: PipelineDeps, input: { businessId: number; messageId: number; actorId?: number | null }) {
  await getGroupMessage(deps.db, input.businessId, input.messageId, deps.now());
  await deleteMessage(deps, input);
}

/** Pending (scheduled or sending soon) group messages, for one group or all. */
export async function countPendingGroupMessages(db: Db, businessId: number, groupId?: number | null): Promise<number> {
  // Without a group (the home tile, on every home page) the query is compiled once.
  if (groupId === undefined || groupId === null) {
    const [row] = await pendingForBusiness(db, businessId);
    return Number(row?.n ?? 0);
  }
  let q = db
    .selectFrom("messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("kind", "=", "GROUP")
    .where("status", "in", PENDING_STATUSES);
  q = q.where("group_id", "=", groupId);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

const pendingForBusiness = compiledQuery((db: Db, businessId: number) =>
  db
    .selectFrom("messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("kind", "=", "GROUP")
    .where("status", "in", PENDING_STATUSES),
);

export interface BroadcastFeedItem {
  type: "BROADCASTMESSAGE";
  id: string;
  status: "SCHEDULED" | "SENDING" | "COMPLETE" | "FAILED";
  messageText: string;
  contactGroupId: number;
  contactGroupName?: string;
  contactGroupCount: number;
  totalSent: number;
  nextSending?: string;
  lastInteraction: string;
  errorMessage?: string;
}

/** The latest group messages as BROADCASTMESSAGE feed items: newest first, at most `limit`. */
/** The newest group messages, for the feed on every home page: compiled once. */
const latestGroupMessages = compiledQuery((db: Db, businessId: number, limit: number) =>
  db
    .selectFrom("messages")
    .select(["id", "body", "group_id", "status", "send_at", "recipients", "error", "updated_at"])
    .where("business_id", "=", businessId)
    .where("kind", "=", "GROUP")
    .orderBy("id", "desc")
    .limit(limit),
);

const sentCount = compiledQuery((db: Db, messageId: number) =>
  db
    .selectFrom("outbound")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("message_id", "=", messageId)
    .where("status", "in", ["SENT", "DELIVERED", "UNKNOWN"]),
);

export async function broadcastFeedItems(db: Db, businessId: number, limit = 10): Promise<BroadcastFeedItem[]> {
  const msgs = await latestGroupMessages(db, businessId, limit);
  const names = await groupNames(db, businessId, msgs);
  const items: BroadcastFeedItem[] = [];
  for (const m of msgs) {
    let totalSent = 0;
    if (m.status === "COMPLETE" || m.status === "SENDING" || m.status === "FAILED") {
      const [r] = await sentCount(db, m.id);
      totalSent = Number(r?.n ?? 0);
    }
    const gid = Number(m.group_id);
    const status = PENDING_STATUSES.includes(m.status) ? "SCHEDULED" : (m.status as BroadcastFeedItem["status"]);
    items.push({
      type: "BROADCASTMESSAGE",
      id: `group-message-${m.id}`,
      status,
      messageText: m.body,
      contactGroupId: gid,
      ...(gid > 0 && names.has(gid) ? { contactGroupName: names.get(gid) } : {}),
      contactGroupCount: Number(m.recipients),
      totalSent,
      ...(status === "SCHEDULED" ? { nextSending: m.send_at } : {}),
      lastInteraction: m.updated_at,
      ...(status === "FAILED" && m.error ? { errorMessage: m.error } : {}),
    });
  }
  return items;
}

/** The names of the (list or smart) groups some messages went to, by id; "all subscribers" (-1) has none. */
async function groupNames(db: Db, businessId: number, msgs: { group_id: number | null }[]): Promise<Map<number, string>> {
  const ids = [...new Set(msgs.map((m) => Number(m.group_id)).filter((id) => id > 0))];
  const names = new Map<number, string>();
  if (!ids.length) return names;
  const groups = await db.selectFrom("groups").select(["id", "name"]).where("business_id", "=", businessId).where("id", "in", ids).execute();
  for (const g of groups) names.set(Number(g.id), g.name);
  return names;
}

/** Sends a draft that was waiting for its discount codes, as the person who asked for it (the worker's call). */
export async function sendWaitingDraft(deps: PipelineDeps, businessId: number, draftId: number): Promise<void> {
  const d = await deps.db.selectFrom("group_message_drafts").select(["user_id", "message_id"]).where("business_id", "=", businessId).where("id", "=", draftId).executeTakeFirst();
  if (!d || d.message_id !== null) return;
  await sendDraftOrWait(deps, { businessId, userId: Number(d.user_id), draftId });
}

/** The members a group message was not sent to because the credit ran out, a page at a time (NF001 for another business's message). */
export async function listLeftOut(db: Db, businessId: number, messageId: number, page: number, pageSize = 50) {
  const msg = await db
    .selectFrom("messages")
    .select(["id", "group_id", "recipients", "left_out", "body", "send_at"])
    .where("business_id", "=", businessId)
    .where("id", "=", messageId)
    .where("kind", "=", "GROUP")
    .executeTakeFirst();
  if (!msg) throw new AppError("NF001", undefined, { status: 404 });
  const total = Number(msg.left_out);
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(pageCount, Math.max(1, Math.floor(page) || 1));
  const rows = await db
    .selectFrom("message_left_out")
    .innerJoin("members", "members.id", "message_left_out.member_id")
    .select(["members.id", "members.phone", "members.first_name", "members.full_name"])
    .where("message_left_out.message_id", "=", messageId)
    .where("message_left_out.business_id", "=", businessId)
    .orderBy("message_left_out.id")
    .limit(pageSize)
    .offset((p - 1) * pageSize)
    .execute();
  return {
    message: { id: Number(msg.id), groupId: msg.group_id === null ? null : Number(msg.group_id), recipients: Number(msg.recipients), leftOut: total, body: msg.body, sendAt: msg.send_at },
    members: rows.map((m) => ({ id: Number(m.id), name: m.full_name || m.first_name || m.phone, phone: m.phone })),
    page: p,
    pageCount,
  };
}
