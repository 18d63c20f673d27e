// The outbound pipeline, part 1: a message (DM, group message, campaign text, system text) becomes
// one durable `outbound` row per recipient, written with the message in ONE transaction.
//
// - Recipients are resolved once, here: never opted-out or deleted members; pending members only for
//   opt-in texts (SYSTEM); a DM to a pending member is BR027; nobody left is BR026.
// - Merge tags are rendered per member (merge.ts), segments counted per rendered body (segments.ts),
//   credits = the sum of segments, charged atomically in the same transaction (BR012 when short).
// - The message is "sending soon" until editable_until (MESSAGE_SEND_DELAY_SECONDS, default 60 s);
//   until then updateMessage/deleteMessage re-render or drop its rows and move the credits; after it,
//   BR014/BR015. A row already claimed by a worker also ends the window (checked by row count).
// - Group and campaign rows respect quiet hours (they are scheduled for the morning); DMs and
//   system texts go first (priority 0) and ignore quiet hours.
// Rows are inserted through one JSON parameter per batch (json_each on SQLite, json_array_elements
// on PostgreSQL): no parameter limits and very little per-row overhead.
import { sql, type Kysely } from "kysely";
import type { DB, Message, MessageKind } from "#db/types";
import { isPostgresDb } from "#db/index";
import { AppError } from "~/lib/errors";
import { assertCredit, charge, creditsRemaining, refund } from "~/domain/billing/credits.server";
import { analyse, MAX_MESSAGE_CHARACTERS } from "./segments";
import { compileTemplate, type CompiledTemplate } from "./merge";
import { nextAllowedTime } from "./quiet-hours";
import { groupCondition } from "~/domain/groups/groups.server";
import { mergeValuesForMembers } from "~/domain/groups/merge-values.server";
import { formatUkNumber } from "~/lib/phone";

type Db = Kysely<DB>;

export interface PipelineDeps {
  db: Kysely<DB>;
  config: { messaging: { sendDelaySeconds: number }; publicUrl?: string };
  now: () => Date;
}

/** Contact group id meaning "all subscribers" (§3). */
export const ALL_SUBSCRIBERS = -1;
/** Rows written per INSERT statement. */
const INSERT_BATCH = 2000;
/** Members read per page while resolving recipients (bounded memory at any size). */
const RESOLVE_PAGE = 5000;

export interface CreateMessageInput {
  businessId: number;
  kind: Exclude<MessageKind, "SYSTEM">;
  body: string;
  /** Member ids; or groupId = -1 for all subscribed members. */
  recipients?: number[];
  groupId?: number;
  sendAt?: Date | null;
  createdBy?: number | null;
  /** Unique per business (messages_idempotency_uq): a second create with the same key fails in the insert. */
  idempotencyKey?: string | null;
}

export interface CreatedMessage {
  messageId: number;
  recipients: number;
  credits: number;
  status: Message["status"];
  editableUntil: string;
}

export interface BusinessInfo {
  id: number;
  name: string;
  phone_number: string | null;
  join_keyword: string;
  quiet_start: string;
  quiet_end: string;
}

export async function loadBusiness(db: Db, businessId: number): Promise<BusinessInfo> {
  const b = await db
    .selectFrom("businesses")
    .select(["id", "name", "phone_number", "join_keyword", "quiet_start", "quiet_end"])
    .where("id", "=", businessId)
    .executeTakeFirst();
  if (!b) throw new AppError("NF001", undefined, { status: 404 });
  return b;
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

interface RecipientRow {
  id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
}

type MemberCondition = Awaited<ReturnType<typeof groupCondition>>;

/** Pages through the recipients (subscribed members of the business, optionally among `ids` or in a group). */
async function* recipientPages(db: Db, businessId: number, ids: number[] | null, inGroup?: MemberCondition): AsyncGenerator<RecipientRow[]> {
  if (ids) {
    const unique = [...new Set(ids)].filter((n) => Number.isSafeInteger(n) && n > 0).sort((a, b) => a - b);
    for (let i = 0; i < unique.length; i += 1000) {
      const rows = await db
        .selectFrom("members")
        .select(["id", "phone", "first_name", "full_name"])
        .where("business_id", "=", businessId)
        .where("status", "=", "SUBSCRIBED")
        .where("id", "in", unique.slice(i, i + 1000))
        .orderBy("id")
        .execute();
      if (rows.length) yield rows;
    }
    return;
  }
  let after = 0;
  for (;;) {
    const rows = await db
      .selectFrom("members")
      .select(["id", "phone", "first_name", "full_name"])
      .where("business_id", "=", businessId)
      .where("status", "=", "SUBSCRIBED")
      .where("id", ">", after)
      .$if(inGroup !== undefined, (q) => q.where(inGroup!))
      .orderBy("id")
      .limit(RESOLVE_PAGE)
      .execute();
    if (!rows.length) return;
    yield rows;
    if (rows.length < RESOLVE_PAGE) return;
    after = rows[rows.length - 1].id;
  }
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
  const json = JSON.stringify(rows);
  if (isPostgresDb(db)) {
    await sql`INSERT INTO outbound (message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, status, attempts, next_attempt_at, quiet_hours, charged, created_at)
      SELECT ${d.messageId}, ${d.businessId}, (r->>0)::bigint, r->>1, ${d.fromPhone}, r->>2, (r->>3)::int, ${d.priority}, 'QUEUED', 0, ${d.nextAttemptAt}, ${d.quietHours}, ${d.charged}, ${d.createdAt}
      FROM json_array_elements(${json}::json) AS r`.execute(db);
  } else {
    await sql`INSERT INTO outbound (message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, status, attempts, next_attempt_at, quiet_hours, charged, created_at)
      SELECT ${d.messageId}, ${d.businessId}, json_extract(value, '$[0]'), json_extract(value, '$[1]'), ${d.fromPhone}, json_extract(value, '$[2]'), json_extract(value, '$[3]'), ${d.priority}, 'QUEUED', 0, ${d.nextAttemptAt}, ${d.quietHours}, ${d.charged}, ${d.createdAt}
      FROM json_each(${json})`.execute(db);
  }
}

/**
 * The bodies a page of recipients receives, in page order: the one render path of the pipeline (the
 * group-message preview calls it too, so what it shows and counts is what is sent and charged).
 * Birthdays, appointments, form links and custom attributes are loaded per page, only when the text uses them.
 */
export async function renderPage(
  db: Db,
  template: CompiledTemplate,
  business: Pick<BusinessInfo, "id" | "name" | "phone_number" | "join_keyword">,
  page: readonly { id: number; first_name: string | null; full_name: string | null }[],
  publicUrl?: string,
): Promise<string[]> {
  if (template.constant) return page.map(() => template.render({}));
  const businessValues = {
    businessName: business.name,
    businessNumber: business.phone_number ? formatUkNumber(business.phone_number) : "",
    joinKeyword: business.join_keyword,
  };
  const extended = template.usesExtendedValues
    ? await mergeValuesForMembers(db, business.id, page.map((m) => m.id), { customKeys: template.customKeys, publicUrl })
    : null;
  return page.map((m) => template.render(extended?.get(m.id) ?? { firstName: m.first_name, fullName: m.full_name, ...businessValues }));
}

/** Renders, counts and inserts rows for pages of recipients. Returns how many and their segments. */
async function fanOut(
  db: Db,
  template: CompiledTemplate,
  business: BusinessInfo,
  pages: AsyncIterable<RecipientRow[]>,
  d: RowDefaults,
  publicUrl?: string,
): Promise<{ recipients: number; credits: number }> {
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
  let batch: PendingRow[] = [];
  for await (const page of pages) {
    const bodies = await renderPage(db, template, business, page, publicUrl);
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
  return { recipients, credits };
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

async function chargeOrRefuse(trx: Db, businessId: number, credits: number, messageId: number, now: Date) {
  if (credits <= 0) return;
  const ok = await charge(trx, businessId, credits, { reason: "send", reference: `message:${messageId}`, now });
  if (!ok) throw new AppError("BR012", { needed: credits, remaining: await creditsRemaining(trx, businessId, now) });
}

/**
 * Creates a DM, group or campaign message and its outbound rows in one transaction, charging its
 * credits. Throws BR026 (nobody to send to), BR027 (DM to a pending member), BR012 (credit).
 */
export async function createMessage(deps: PipelineDeps, input: CreateMessageInput): Promise<CreatedMessage> {
  const now = deps.now();
  const body = validateBody(input.body);
  const template = compileTemplate(body);
  const t = timing(input.kind, now, deps.config.messaging.sendDelaySeconds, input.sendAt);
  let ids: number[] | null;
  let inGroup: MemberCondition | undefined;
  if (input.groupId !== undefined && input.groupId !== null) {
    // -1 = all subscribers; a list or smart group of this business (NF001 otherwise) narrows them.
    if (input.groupId !== ALL_SUBSCRIBERS) inGroup = await groupCondition(deps.db, input.businessId, input.groupId);
    ids = null;
  } else {
    ids = input.recipients ?? [];
    if (!ids.length) throw new AppError("BR026");
  }
  if (input.kind === "DM") {
    if (!ids || ids.length !== 1) throw new AppError("BR025");
    const member = await deps.db
      .selectFrom("members")
      .select(["status"])
      .where("business_id", "=", input.businessId)
      .where("id", "=", ids[0])
      .executeTakeFirst();
    if (!member) throw new AppError("NF001", undefined, { status: 404 });
    if (member.status === "PENDING") throw new AppError("BR027");
    if (member.status !== "SUBSCRIBED") throw new AppError("BR026");
  }
  const business = await loadBusiness(deps.db, input.businessId);
  if (!business.phone_number) throw new AppError("SU001");

  // A quick refusal before any work: every recipient costs at least one credit.
  const count = ids
    ? ids.length
    : Number(
        (
          await deps.db
            .selectFrom("members")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("business_id", "=", input.businessId)
            .where("status", "=", "SUBSCRIBED")
            .$if(inGroup !== undefined, (q) => q.where(inGroup!))
            .executeTakeFirstOrThrow()
        ).n,
      );
  if (count === 0) throw new AppError("BR026");
  await assertCredit(deps.db, input.businessId, ids ? 1 : count, now);

  return deps.db.transaction().execute(async (trx) => {
    const at = now.toISOString();
    const msg = await trx
      .insertInto("messages")
      .values({
        business_id: input.businessId,
        kind: input.kind,
        body,
        group_id: input.groupId ?? null,
        member_id: input.kind === "DM" && ids ? ids[0] : null,
        status: t.status,
        send_at: t.sendAt,
        editable_until: t.editableUntil,
        created_by: input.createdBy ?? null,
        created_at: at,
        updated_at: at,
        idempotency_key: input.idempotencyKey ?? null,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const next = t.quiet ? nextAllowedTime(t.goAt, { start: business.quiet_start, end: business.quiet_end }) : t.goAt;
    const result = await fanOut(trx, template, business, recipientPages(trx, input.businessId, ids, inGroup), {
      messageId: msg.id,
      businessId: input.businessId,
      fromPhone: business.phone_number!,
      priority: t.priority,
      nextAttemptAt: next.toISOString(),
      quietHours: t.quiet ? 1 : 0,
      charged: 1,
      createdAt: at,
    }, deps.config.publicUrl);
    if (result.recipients === 0) throw new AppError("BR026");
    await chargeOrRefuse(trx, input.businessId, result.credits, msg.id, now);
    await trx.updateTable("messages").set({ recipients: result.recipients, credits: result.credits }).where("id", "=", msg.id).execute();
    return { messageId: msg.id, recipients: result.recipients, credits: result.credits, status: t.status, editableUntil: t.editableUntil };
  });
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
}

/** Edits a message still sending soon or scheduled: re-renders its rows and moves its credits. BR014 after. */
export async function updateMessage(deps: PipelineDeps, input: UpdateMessageInput): Promise<CreatedMessage> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const msg = await lockEditable(trx, input.businessId, input.messageId, now, "BR014");
    const body = input.body === undefined ? msg.body : validateBody(input.body);
    const memberIds = await dropQueuedRows(trx, msg, "BR014");
    if (msg.credits > 0) await refund(trx, msg.business_id, msg.credits, { reason: "message-edited", reference: `message:${msg.id}`, now });
    const kind = msg.kind as Exclude<MessageKind, "SYSTEM">;
    const t = timing(kind, now, deps.config.messaging.sendDelaySeconds, input.sendAt === undefined ? new Date(msg.send_at) : input.sendAt);
    const business = await loadBusiness(trx, msg.business_id);
    const next = t.quiet ? nextAllowedTime(t.goAt, { start: business.quiet_start, end: business.quiet_end }) : t.goAt;
    const result = await fanOut(trx, compileTemplate(body), business, recipientPages(trx, msg.business_id, memberIds), {
      messageId: msg.id,
      businessId: msg.business_id,
      fromPhone: business.phone_number ?? "",
      priority: t.priority,
      nextAttemptAt: next.toISOString(),
      quietHours: t.quiet ? 1 : 0,
      charged: 1,
      createdAt: now.toISOString(),
    }, deps.config.publicUrl);
    if (result.recipients === 0) throw new AppError("BR026");
    await chargeOrRefuse(trx, msg.business_id, result.credits, msg.id, now);
    await trx
      .updateTable("messages")
      .set({ body, send_at: t.sendAt, editable_until: t.editableUntil, status: t.status, recipients: result.recipients, credits: result.credits, updated_at: now.toISOString() })
      .where("id", "=", msg.id)
      .execute();
    return { messageId: msg.id, recipients: result.recipients, credits: result.credits, status: t.status, editableUntil: t.editableUntil };
  });
}

/** Deletes a message still sending soon or scheduled, refunding its credits. BR015 after. */
export async function deleteMessage(deps: PipelineDeps, input: { businessId: number; messageId: number }): Promise<void> {
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const msg = await lockEditable(trx, input.businessId, input.messageId, now, "BR015");
    await dropQueuedRows(trx, msg, "BR015");
    if (msg.credits > 0) await refund(trx, msg.business_id, msg.credits, { reason: "message-deleted", reference: `message:${msg.id}`, now });
    await trx.deleteFrom("messages").where("id", "=", msg.id).execute();
  });
}

export interface SystemTextInput {
  businessId: number;
  to: string;
  body: string;
  memberId?: number | null;
  now: Date;
  /** The business's number when the caller already has it (saves a query); looked up otherwise. */
  fromPhone?: string | null;
}

/**
 * Queues a system text (opt-in request, welcome, opt-out confirmation, help, and later PINs) inside
 * the caller's transaction: top priority, exempt from quiet hours and from the member-status guard,
 * not charged. Returns the outbound row's message id, or null when the business has no number.
 */
export async function enqueueSystemText(trx: Db, input: SystemTextInput): Promise<number | null> {
  const fromPhone =
    input.fromPhone !== undefined
      ? input.fromPhone
      : (await trx.selectFrom("businesses").select(["phone_number"]).where("id", "=", input.businessId).executeTakeFirst())?.phone_number;
  if (!fromPhone) return null;
  const at = input.now.toISOString();
  const msg = await trx
    .insertInto("messages")
    .values({
      business_id: input.businessId,
      kind: "SYSTEM",
      body: input.body,
      group_id: null,
      member_id: input.memberId ?? null,
      status: "SENDING",
      send_at: at,
      editable_until: at,
      recipients: 1,
      credits: 0,
      created_by: null,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  await insertOutboundRows(
    trx,
    { messageId: msg.id, businessId: input.businessId, fromPhone, priority: 0, nextAttemptAt: at, quietHours: 0, charged: 0, createdAt: at },
    [[input.memberId ?? null, input.to, input.body, analyse(input.body).segments]],
  );
  return msg.id;
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
