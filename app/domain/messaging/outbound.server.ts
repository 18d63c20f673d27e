// The outbound pipeline, part 1: a text (DM, group message, campaign text, system text) becomes one durable
// `outbound` row per recipient, written with its `messages` row inside the caller's transaction.
//
// There is one way in: enqueueMessage(trx, …). It never opens a transaction of its own, so whatever the caller
// changes together with the send (a consent change, a campaign fire, a draft being used) commits or rolls back
// with it. createMessage is the thin wrapper for callers that have nothing else to write.
//
// - Recipients are resolved once, here, through the audience module: subscribed members only. System texts
//   (opt-in requests, confirmations, help, PINs) go to a phone number and are exempt from the status guard.
//   A DM to a pending member is BR027; nobody left is BR026.
// - Merge tags are rendered per member (merge.ts), segments counted per rendered body (segments.ts),
//   credits = the sum of segments, charged atomically in the same transaction (BR012 when short).
// - The message is "sending soon" until editable_until (MESSAGE_SEND_DELAY_SECONDS); until then
//   updateMessage/deleteMessage re-render or drop its rows and move the credits; after it, BR014/BR015. A row
//   already claimed by a worker also ends the window (checked by row count).
// - Group and campaign rows respect quiet hours (they are scheduled for the morning); DMs and system texts go
//   first (priority 0) and ignore quiet hours.
// Rows are inserted through one JSON parameter per batch (db/dialect.ts): no parameter limits and very little
// per-row overhead.
import { sql, type Kysely } from "kysely";
import type { DB, Message, MessageKind } from "#db/types";
import { jsonRows } from "#db/dialect";
import { AppError } from "~/lib/errors";
import { assertCredit, charge, creditsRemaining, refund } from "~/domain/billing/credits.server";
import { ALL_SUBSCRIBERS, countAudience, recipientPages, type Audience, type Recipient } from "~/domain/audience/audience.server";
import { analyse, MAX_MESSAGE_CHARACTERS } from "./segments";
import { compileTemplate, unknownTags, withOptOutLine, type CompiledTemplate } from "./merge";
import { customMergeTags } from "./merge-tags.server";
import { nextAllowedTime } from "./quiet-hours";
import { mergeValuesForMembers } from "./merge-values.server";
import { formatUkNumber } from "~/lib/phone";
import { recordAudit } from "~/domain/audit/audit.server";
import { assertCodesAvailable, reserveCodes, SAMPLE_CODE } from "~/domain/shop/codes.server";

type Db = Kysely<DB>;

export { ALL_SUBSCRIBERS };

export interface PipelineDeps {
  db: Kysely<DB>;
  config: { messaging: { sendDelaySeconds: number; dmSendDelaySeconds?: number }; publicUrl?: string };
  now: () => Date;
}

/** What the pipeline needs to know about the moment and the settings, for a send inside a caller's transaction. */
export interface PipelineEnv {
  now: Date;
  /** The "sending soon" pause for group and campaign texts. */
  sendDelaySeconds: number;
  /** The pause for a direct message (the group pause when missing). */
  dmSendDelaySeconds?: number;
  /** The public address, for links rendered into texts (member form link). */
  publicUrl?: string;
}

export function pipelineEnv(deps: PipelineDeps): PipelineEnv {
  return {
    now: deps.now(),
    sendDelaySeconds: deps.config.messaging.sendDelaySeconds,
    dmSendDelaySeconds: deps.config.messaging.dmSendDelaySeconds,
    publicUrl: deps.config.publicUrl,
  };
}

/** Rows written per INSERT statement. */
const INSERT_BATCH = 2000;

/** A system text goes to one phone number, member or not. */
export interface PhoneAudience {
  phone: string;
  memberId?: number | null;
}

export interface EnqueueInput {
  businessId: number;
  kind: MessageKind;
  /** A group (-1 = all subscribers) or member ids; a phone number for system texts. */
  audience: Audience | PhoneAudience;
  body: string;
  /** When to send (group and campaign texts); now when missing. */
  sendAt?: Date | null;
  /** Unique per business (messages_idempotency_uq): a second enqueue with the same key fails in the insert. */
  idempotencyKey?: string | null;
  /** The ledger reference the credits are charged under; `message:<id>` when missing. */
  chargeReference?: string | null;
  /**
   * A group text sent to part of its group because the credit ran out: only the first `maxRecipients` members
   * (in member id order, as the preview counted them) get it; every other member is recorded as left out
   * (message_left_out, messages.left_out), so nobody is dropped silently.
   */
  maxRecipients?: number | null;
  campaignId?: number | null;
  createdBy?: number | null;
  /** System texts only: a sender other than the business's own number (the platform's system sender). */
  fromPhone?: string | null;
  /**
   * An answer to a member's own text (a campaign's thank-you or automatic reply): the short direct-message pause,
   * first in the queue, and no quiet hours, since the member has just written.
   */
  reply?: boolean;
}

export interface CreatedMessage {
  messageId: number;
  recipients: number;
  credits: number;
  status: Message["status"];
  editableUntil: string;
}

/** The old create input, kept for the wrappers: member ids or a group. */
export interface CreateMessageInput {
  businessId: number;
  kind: Exclude<MessageKind, "SYSTEM">;
  body: string;
  /** Member ids; or groupId = -1 for all subscribed members. */
  recipients?: number[];
  groupId?: number;
  sendAt?: Date | null;
  createdBy?: number | null;
  idempotencyKey?: string | null;
  campaignId?: number | null;
  /** A group text to the first this many members only (see EnqueueInput.maxRecipients). */
  maxRecipients?: number | null;
}

export interface BusinessInfo {
  id: number;
  name: string;
  phone_number: string | null;
  join_keyword: string;
  quiet_start: string;
  quiet_end: string;
  locale: string;
}

export async function loadBusiness(db: Db, businessId: number): Promise<BusinessInfo> {
  const b = await db
    .selectFrom("businesses")
    .select(["id", "name", "phone_number", "join_keyword", "quiet_start", "quiet_end", "locale"])
    .where("id", "=", businessId)
    .executeTakeFirst();
  if (!b) throw new AppError("NF001", undefined, { status: 404 });
  return b;
}

/**
 * Refuses a text whose merge tags would not be filled in (misspelt, unknown, or a custom attribute the business
 * does not have), naming the closest known tag: BR025 on the message text.
 */
export async function assertKnownTags(db: Db, businessId: number, body: string): Promise<void> {
  if (!body.includes("{{")) return;
  const keys = (await customMergeTags(db, businessId)).map((t) => t.key);
  const [first] = unknownTags(body, keys);
  if (!first) return;
  throw new AppError(
    "BR025",
    first.suggestion ? { context: "mergeTag", tag: first.written, suggestion: first.suggestion } : { context: "unknownTag", tag: first.written },
    { field: "messageText" },
  );
}

function validateBody(body: string): string {
  const text = body.replace(/\r\n?/g, "\n");
  if (!text.trim()) throw new AppError("BR025", undefined, { field: "messageText" });
  if (text.length > MAX_MESSAGE_CHARACTERS * 2) throw new AppError("BR025", undefined, { field: "messageText" });
  // Control characters other than newline/tab never reach a phone.
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text)) throw new AppError("BR025", undefined, { field: "messageText" });
  if (analyse(text).characters > MAX_MESSAGE_CHARACTERS) throw new AppError("BR025", undefined, { field: "messageText" });
  return text;
}

/** A row to insert: [member_id, to_phone, body, segments]. */
type PendingRow = [number | null, string, string, number];

interface RowDefaults {
  messageId: number;
  businessId: number;
  fromPhone: string;
  priority: number;
  nextAttemptAt: string;
  quietHours: 0 | 1;
  charged: 0 | 1;
  createdAt: string;
}

/** Inserts rows sharing everything but member, phone, body and segments, through one JSON parameter. */
export async function insertOutboundRows(db: Db, d: RowDefaults, rows: PendingRow[]): Promise<void> {
  if (!rows.length) return;
  const r = jsonRows(db, JSON.stringify(rows));
  await sql`INSERT INTO outbound (message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, status, attempts, next_attempt_at, quiet_hours, charged, created_at)
    SELECT ${d.messageId}, ${d.businessId}, ${r.int(0)}, ${r.text(1)}, ${d.fromPhone}, ${r.text(2)}, ${r.int(3)}, ${d.priority}, 'QUEUED', 0, ${d.nextAttemptAt}, ${d.quietHours}, ${d.charged}, ${d.createdAt}
    FROM ${r.from}`.execute(db);
}

/**
 * Where {{shopify.code}} gets its values: codes reserved for each member of a message (inside the send's
 * transaction), or the same-length sample a preview shows.
 */
export type ShopCodeSource = { messageId: number; now: Date } | { sample: true };

/**
 * The bodies a page of recipients receives, in page order: the one render path of the pipeline (the
 * group-message preview calls it too, so what it shows and counts is what is sent and charged).
 * Birthdays, appointments, form links and custom attributes are loaded per page, only when the text uses them;
 * a discount code ({{shopify.code}}) is reserved per member from `codes` (BR038 without one).
 */
export async function renderPage(
  db: Db,
  template: CompiledTemplate,
  business: Pick<BusinessInfo, "id" | "name" | "phone_number" | "join_keyword">,
  page: readonly { id: number; first_name: string | null; full_name: string | null }[],
  publicUrl?: string,
  codes?: ShopCodeSource,
): Promise<string[]> {
  if (template.constant) return page.map(() => template.render({}));
  let shopCodes: Map<number, string> | null = null;
  if (template.usesShopCode) {
    if (!codes) throw new AppError("BR038", { context: "codesShort" });
    if ("messageId" in codes) shopCodes = await reserveCodes(db, business.id, codes.messageId, page.map((m) => m.id), codes.now);
  }
  const codeOf = (id: number) => (shopCodes ? shopCodes.get(id) : SAMPLE_CODE);
  const businessValues = {
    businessName: business.name,
    businessNumber: business.phone_number ? formatUkNumber(business.phone_number) : "",
    joinKeyword: business.join_keyword,
  };
  const extended = template.usesExtendedValues
    ? await mergeValuesForMembers(db, business.id, page.map((m) => m.id), { customKeys: template.customKeys, publicUrl })
    : null;
  return page.map((m) => {
    const values = extended?.get(m.id) ?? { firstName: m.first_name, fullName: m.full_name, ...businessValues };
    return template.render(template.usesShopCode ? { ...values, shopifyCode: codeOf(m.id) } : values);
  });
}

/**
 * Renders, counts and inserts rows for pages of recipients. Returns how many and their segments. With
 * `maxRecipients`, members past that many are not sent to but written to message_left_out (`leftOut` counts them).
 */
async function fanOut(
  db: Db,
  template: CompiledTemplate,
  business: BusinessInfo,
  pages: AsyncIterable<Recipient[]>,
  d: RowDefaults,
  publicUrl?: string,
  now: Date = new Date(d.createdAt),
  maxRecipients?: number | null,
): Promise<{ recipients: number; credits: number; leftOut: number }> {
  const segmentCache = new Map<string, number>();
  const segmentsOf = (body: string) => {
    let n = segmentCache.get(body);
    if (n === undefined) {
      n = analyse(body).segments;
      if (segmentCache.size < 10_000) segmentCache.set(body, n);
    }
    return n;
  };
  let recipients = 0;
  let credits = 0;
  let leftOut = 0;
  let batch: PendingRow[] = [];
  for await (const whole of pages) {
    let page = whole;
    if (maxRecipients !== undefined && maxRecipients !== null && recipients + page.length > maxRecipients) {
      const keep = Math.max(0, maxRecipients - recipients);
      const rest = page.slice(keep);
      page = page.slice(0, keep);
      leftOut += rest.length;
      for (let i = 0; i < rest.length; i += INSERT_BATCH) {
        await db
          .insertInto("message_left_out")
          .values(rest.slice(i, i + INSERT_BATCH).map((m) => ({ message_id: d.messageId, business_id: d.businessId, member_id: m.id })))
          .execute();
      }
      if (!page.length) continue;
    }
    const bodies = await renderPage(db, template, business, page, publicUrl, { messageId: d.messageId, now });
    for (const [i, m] of page.entries()) {
      const body = bodies[i];
      const segments = segmentsOf(body);
      batch.push([m.id, m.phone, body, segments]);
      recipients++;
      credits += segments;
      if (batch.length >= INSERT_BATCH) {
        await insertOutboundRows(db, d, batch);
        batch = [];
      }
    }
  }
  await insertOutboundRows(db, d, batch);
  return { recipients, credits, leftOut };
}

function delayFor(kind: MessageKind, env: { sendDelaySeconds: number; dmSendDelaySeconds?: number }): number {
  return kind === "DM" ? (env.dmSendDelaySeconds ?? env.sendDelaySeconds) : env.sendDelaySeconds;
}

function timing(kind: MessageKind, now: Date, delaySeconds: number, sendAt: Date | null | undefined) {
  if (sendAt && !Number.isFinite(sendAt.getTime())) throw new AppError("BR013", undefined, { field: "sendAt" });
  if (sendAt && sendAt.getTime() < now.getTime() - 60_000) throw new AppError("BR013", undefined, { field: "sendAt" });
  const pauseEnds = new Date(now.getTime() + delaySeconds * 1000);
  const goAt = sendAt && sendAt > pauseEnds ? sendAt : pauseEnds;
  return {
    sendAt: (sendAt && sendAt > now ? sendAt : now).toISOString(),
    editableUntil: goAt.toISOString(),
    status: (sendAt && sendAt > pauseEnds ? "SCHEDULED" : "SENDING_SOON") as Message["status"],
    goAt,
    priority: kind === "DM" ? 0 : 1,
    quiet: kind === "GROUP" || kind === "CAMPAIGN",
  };
}

async function chargeOrRefuse(trx: Db, businessId: number, credits: number, reference: string, now: Date) {
  if (credits <= 0) return;
  const ok = await charge(trx, businessId, credits, { reason: "send", reference, now });
  if (!ok) throw new AppError("BR012", { needed: credits, remaining: await creditsRemaining(trx, businessId, now) });
}

function isPhoneAudience(a: EnqueueInput["audience"]): a is PhoneAudience {
  return "phone" in a;
}

/**
 * Queues a text inside the caller's transaction: the `messages` row, one `outbound` row per recipient, and the
 * credits charged. Throws (and so rolls the caller back) BR026 when nobody is left to send to, BR027 for a DM to
 * a pending member, BR012 when credit is short, BR013 for a time in the past, BR025 for an unusable body.
 * A system text goes to `audience.phone`: top priority, no quiet hours, not charged, exempt from the member-status
 * guard; it returns null recipients only when the business has no number and no sender was given.
 */
export async function enqueueMessage(trx: Db, input: EnqueueInput, env: PipelineEnv): Promise<CreatedMessage> {
  const { now } = env;
  if (input.kind === "SYSTEM") return enqueueSystem(trx, input, env);
  if (isPhoneAudience(input.audience)) throw new AppError("BR025");
  const audience = input.audience;
  const business = await loadBusiness(trx, input.businessId);
  await assertKnownTags(trx, input.businessId, input.body);
  // Marketing texts always offer a way to stop; the line is part of what is stored, counted and sent.
  const body = validateBody(input.kind === "GROUP" || input.kind === "CAMPAIGN" ? withOptOutLine(input.body, business.locale).body : input.body);
  const template = compileTemplate(body);
  const t = timing(input.kind, now, delayFor(input.reply ? "DM" : input.kind, env), input.sendAt);
  if (input.reply) {
    t.priority = 0;
    t.quiet = false;
  }
  if ("memberIds" in audience && !audience.memberIds.length) throw new AppError("BR026");
  if (input.kind === "DM") {
    if (!("memberIds" in audience) || audience.memberIds.length !== 1) throw new AppError("BR025");
    const member = await trx
      .selectFrom("members")
      .select(["status"])
      .where("business_id", "=", input.businessId)
      .where("id", "=", audience.memberIds[0])
      .executeTakeFirst();
    if (!member) throw new AppError("NF001", undefined, { status: 404 });
    if (member.status === "PENDING") throw new AppError("BR027");
    if (member.status !== "SUBSCRIBED") throw new AppError("BR026");
  }
  if (!business.phone_number) throw new AppError("SU001");

  // A quick refusal before any work: every recipient costs at least one credit. Also NF001 for another
  // business's group.
  const count = "memberIds" in audience ? audience.memberIds.length : await countAudience(trx, input.businessId, audience);
  if (count === 0) throw new AppError("BR026");
  const capped = "groupId" in audience && input.maxRecipients ? Math.min(count, input.maxRecipients) : count;
  await assertCredit(trx, input.businessId, "memberIds" in audience ? 1 : capped, now);
  // A discount code per recipient: refused (BR038) before anything is written when too few are made.
  if (template.usesShopCode) await assertCodesAvailable(trx, input.businessId, capped);

  const at = now.toISOString();
  const messageId = await insertMessageRow(trx, input, {
    body,
    group_id: "groupId" in audience ? audience.groupId : null,
    member_id: input.kind === "DM" && "memberIds" in audience ? audience.memberIds[0] : null,
    status: t.status,
    send_at: t.sendAt,
    editable_until: t.editableUntil,
    at,
  });
  const next = t.quiet ? nextAllowedTime(t.goAt, { start: business.quiet_start, end: business.quiet_end }) : t.goAt;
  const result = await fanOut(trx, template, business, recipientPages(trx, input.businessId, audience), {
    messageId,
    businessId: input.businessId,
    fromPhone: business.phone_number,
    priority: t.priority,
    nextAttemptAt: next.toISOString(),
    quietHours: t.quiet ? 1 : 0,
    charged: 1,
    createdAt: at,
  }, env.publicUrl, now, "groupId" in audience ? input.maxRecipients : null);
  if (result.recipients === 0) throw new AppError(result.leftOut ? "BR012" : "BR026", result.leftOut ? { needed: 1, remaining: 0 } : undefined);
  await chargeOrRefuse(trx, input.businessId, result.credits, input.chargeReference ?? `message:${messageId}`, now);
  await trx.updateTable("messages").set({ recipients: result.recipients, credits: result.credits, left_out: result.leftOut }).where("id", "=", messageId).execute();
  return { messageId, recipients: result.recipients, credits: result.credits, status: t.status, editableUntil: t.editableUntil };
}

/** The `messages` row of a text being queued; returns its id. */
async function insertMessageRow(
  trx: Db,
  input: EnqueueInput,
  row: Pick<Message, "body" | "group_id" | "member_id" | "status" | "send_at" | "editable_until"> & { recipients?: number; at: string },
): Promise<number> {
  const { at, recipients, ...fields } = row;
  const msg = await trx
    .insertInto("messages")
    .values({
      ...fields,
      business_id: input.businessId,
      kind: input.kind,
      ...(recipients !== undefined ? { recipients, credits: 0 } : {}),
      created_by: input.createdBy ?? null,
      created_at: at,
      updated_at: at,
      idempotency_key: input.idempotencyKey ?? null,
      campaign_id: input.campaignId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(msg.id);
}

async function enqueueSystem(trx: Db, input: EnqueueInput, env: PipelineEnv): Promise<CreatedMessage> {
  if (!isPhoneAudience(input.audience)) throw new AppError("BR025");
  const at = env.now.toISOString();
  const none: CreatedMessage = { messageId: 0, recipients: 0, credits: 0, status: "FAILED", editableUntil: at };
  const fromPhone =
    input.fromPhone !== undefined && input.fromPhone !== null
      ? input.fromPhone
      : (await trx.selectFrom("businesses").select(["phone_number"]).where("id", "=", input.businessId).executeTakeFirst())?.phone_number;
  if (!fromPhone) return none;
  const memberId = input.audience.memberId ?? null;
  const messageId = await insertMessageRow(trx, input, {
    body: input.body,
    group_id: null,
    member_id: memberId,
    status: "SENDING",
    send_at: at,
    editable_until: at,
    recipients: 1,
    at,
  });
  await insertOutboundRows(
    trx,
    { messageId, businessId: input.businessId, fromPhone, priority: 0, nextAttemptAt: at, quietHours: 0, charged: 0, createdAt: at },
    [[memberId, input.audience.phone, input.body, analyse(input.body).segments]],
  );
  return { messageId, recipients: 1, credits: 0, status: "SENDING", editableUntil: at };
}

/**
 * Creates a DM, group or campaign message in a transaction of its own (the thin wrapper over enqueueMessage for
 * callers with nothing else to write).
 */
export async function createMessage(deps: PipelineDeps, input: CreateMessageInput): Promise<CreatedMessage> {
  const env = pipelineEnv(deps);
  const audience: Audience = input.groupId !== undefined && input.groupId !== null ? { groupId: input.groupId } : { memberIds: input.recipients ?? [] };
  return deps.db.transaction().execute((trx) =>
    enqueueMessage(trx, {
      businessId: input.businessId,
      kind: input.kind,
      audience,
      body: input.body,
      sendAt: input.sendAt,
      createdBy: input.createdBy,
      idempotencyKey: input.idempotencyKey,
      campaignId: input.campaignId,
      maxRecipients: input.maxRecipients,
    }, env),
  );
}

async function lockEditable(trx: Db, businessId: number, messageId: number, now: Date, code: "BR014" | "BR015"): Promise<Message> {
  const msg = await trx.selectFrom("messages").selectAll().where("business_id", "=", businessId).where("id", "=", messageId).executeTakeFirst();
  if (!msg) throw new AppError("NF001", undefined, { status: 404 });
  if (msg.kind === "SYSTEM" || (msg.status !== "SCHEDULED" && msg.status !== "SENDING_SOON") || now.toISOString() >= msg.editable_until) {
    throw new AppError(code);
  }
  return msg;
}

/**
 * Drops a message's queued rows, only if none has been claimed yet (all `recipients` rows are still
 * QUEUED); otherwise throws `code` and the caller's transaction rolls back. Returns the member ids.
 */
async function dropQueuedRows(trx: Db, msg: Message, code: "BR014" | "BR015"): Promise<number[]> {
  const members = await trx.selectFrom("outbound").select("member_id").where("message_id", "=", msg.id).where("status", "=", "QUEUED").execute();
  const deleted = await trx.deleteFrom("outbound").where("message_id", "=", msg.id).where("status", "=", "QUEUED").executeTakeFirst();
  if (Number(deleted.numDeletedRows) !== msg.recipients || members.length !== msg.recipients) throw new AppError(code);
  return members.map((m) => m.member_id).filter((id): id is number => id !== null);
}

export interface UpdateMessageInput {
  businessId: number;
  messageId: number;
  body?: string;
  sendAt?: Date | null;
  /** Who edited it (null or missing: an API client or the system). */
  actorId?: number | null;
}

/** Edits a message still sending soon or scheduled: re-renders its rows and moves its credits. BR014 after. */
export async function updateMessage(deps: PipelineDeps, input: UpdateMessageInput): Promise<CreatedMessage> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const msg = await lockEditable(trx, input.businessId, input.messageId, now, "BR014");
    const business0 = await loadBusiness(trx, msg.business_id);
    if (input.body !== undefined) await assertKnownTags(trx, msg.business_id, input.body);
    const edited = input.body === undefined ? msg.body : msg.kind === "GROUP" || msg.kind === "CAMPAIGN" ? withOptOutLine(input.body, business0.locale).body : input.body;
    const body = input.body === undefined ? msg.body : validateBody(edited);
    const memberIds = await dropQueuedRows(trx, msg, "BR014");
    if (msg.credits > 0) await refund(trx, msg.business_id, msg.credits, { reason: "message-edited", reference: `message:${msg.id}`, now });
    const kind = msg.kind as Exclude<MessageKind, "SYSTEM">;
    const t = timing(kind, now, delayFor(kind, pipelineEnv(deps)), input.sendAt === undefined ? new Date(msg.send_at) : input.sendAt);
    const business = await loadBusiness(trx, msg.business_id);
    const next = t.quiet ? nextAllowedTime(t.goAt, { start: business.quiet_start, end: business.quiet_end }) : t.goAt;
    const result = await fanOut(trx, compileTemplate(body), business, recipientPages(trx, msg.business_id, { memberIds }), {
      messageId: msg.id,
      businessId: msg.business_id,
      fromPhone: business.phone_number ?? "",
      priority: t.priority,
      nextAttemptAt: next.toISOString(),
      quietHours: t.quiet ? 1 : 0,
      charged: 1,
      createdAt: now.toISOString(),
    }, deps.config.publicUrl, now);
    if (result.recipients === 0) throw new AppError("BR026");
    await chargeOrRefuse(trx, msg.business_id, result.credits, `message:${msg.id}`, now);
    await trx
      .updateTable("messages")
      .set({ body, send_at: t.sendAt, editable_until: t.editableUntil, status: t.status, recipients: result.recipients, credits: result.credits, updated_at: now.toISOString(), updated_by: input.actorId ?? null })
      .where("id", "=", msg.id)
      .execute();
    return { messageId: msg.id, recipients: result.recipients, credits: result.credits, status: t.status, editableUntil: t.editableUntil };
  });
}

/** Deletes a message still sending soon or scheduled, refunding its credits. BR015 after. */
export async function deleteMessage(deps: PipelineDeps, input: { businessId: number; messageId: number; actorId?: number | null }): Promise<void> {
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const msg = await lockEditable(trx, input.businessId, input.messageId, now, "BR015");
    await dropQueuedRows(trx, msg, "BR015");
    if (msg.credits > 0) await refund(trx, msg.business_id, msg.credits, { reason: "message-deleted", reference: `message:${msg.id}`, now });
    await trx.deleteFrom("messages").where("id", "=", msg.id).execute();
    // The row is gone: the audit trail keeps who deleted it.
    await recordAudit(trx, { businessId: msg.business_id, userId: input.actorId ?? null, action: `${msg.kind.toLowerCase()}-message.deleted`, subjectType: "message", subjectId: msg.id }, now);
  });
}

export interface SystemTextInput {
  businessId: number;
  to: string;
  body: string;
  memberId?: number | null;
  now: Date;
  /** The sender when the caller already has it (saves a query); the business's number otherwise. */
  fromPhone?: string | null;
}

/**
 * Queues a system text (opt-in request, welcome, opt-out confirmation, help, codes) inside the caller's
 * transaction, through enqueueMessage. Returns the message id, or null when there is no sender.
 */
export async function enqueueSystemText(trx: Db, input: SystemTextInput): Promise<number | null> {
  const created = await enqueueMessage(
    trx,
    { businessId: input.businessId, kind: "SYSTEM", audience: { phone: input.to, memberId: input.memberId ?? null }, body: input.body, fromPhone: input.fromPhone },
    { now: input.now, sendDelaySeconds: 0 },
  );
  return created.recipients ? created.messageId : null;
}

/** A message with its rows counted by state, for screens and tests. */
export async function messageProgress(db: Db, businessId: number, messageId: number) {
  const msg = await db.selectFrom("messages").selectAll().where("business_id", "=", businessId).where("id", "=", messageId).executeTakeFirst();
  if (!msg) return null;
  const counts = await db
    .selectFrom("outbound")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .where("message_id", "=", messageId)
    .groupBy("status")
    .execute();
  return { message: msg, counts: Object.fromEntries(counts.map((c) => [c.status, Number(c.n)])) as Record<string, number> };
}
