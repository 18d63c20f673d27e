// Campaign services: create, edit, end, delete, read and report. The engine (fires, waits, the reply router's
// handlers, result counts) lives beside this file; each type's rules live in ./types.
import crypto from "node:crypto";
import { sql } from "kysely";
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { AppError } from "~/lib/errors";
import { wallClock, wallClockToUtc } from "~/lib/uk-time";
import { csvLine } from "~/domain/import/csv";
import { assertCredit } from "~/domain/billing/credits.server";
import { countAudience } from "~/domain/audience/audience.server";
import type { FeedItem } from "~/domain/feed/feed-item";
import { normaliseKeyword, TYPE_KINDS, type CampaignInput, type CampaignKind, type CampaignView, type ResponseTotal } from "./model";
import { campaignType } from "./registry.server";
import { close, ISSUE, planFires, runStep } from "./engine.server";
import { CampaignFailure } from "./failure";
import { loadCampaign, loaded, withSavepoint, type Db, type LoadedCampaign } from "./kit.server";
import { isCodesShort } from "~/domain/shop/codes.server";
import { isDated, planAllMembers } from "./dated.server";
import { pollOptions } from "./types/poll";
import { invitationSettings } from "./types/invitation";
import { entrants, newSeed, pickSettings } from "./types/pick-winners";
import { npsClass, npsScore } from "./types/customer-experience";
import { autoCheckoutAt } from "./types/checkin";
import { recordAudit } from "~/domain/audit/audit.server";

export interface CampaignDeps {
  db: Database;
  now: () => Date;
  config: { messaging: { sendDelaySeconds: number; dmSendDelaySeconds?: number }; publicUrl?: string };
}

export interface ReplyRow {
  memberId: number;
  name: string | null;
  phone: string;
  response: string;
  /** The poll option or RSVP answer it counted as, when it is one. */
  responseOption: string | null;
  at: string;
}

export interface DoorListRow {
  memberId: number;
  name: string | null;
  phone: string;
  partySize: number;
  status: "ACCEPTED" | "WAITLIST" | "DECLINED";
  at: string;
}

export interface Winner {
  rank: number;
  memberId: number;
  name: string | null;
  phone: string;
}

export interface CampaignResults {
  campaign: CampaignView;
  /** Replies, newest first (one question, poll, invitation): at most `replyLimit`, after the first `replyOffset`. */
  replies: ReplyRow[];
  repliesTotal: number;
  /** Auto responder: keyword texts today, yesterday and this month (UK time). */
  totals?: { today: number; yesterday: number; month: number };
  invitation?: {
    acceptedReplies: number;
    acceptedPlaces: number;
    declined: number;
    waitlist: number;
    noReply: number;
    capacity: number | null;
    doorList: DoorListRow[];
  };
  draw?: {
    entries: number;
    /** SHA-256 of the seed, shown from the start so the draw can be checked. */
    seedHash: string;
    /** The seed, shown once drawn. */
    seed: string | null;
    drawnAt: string | null;
    winners: Winner[];
  };
  /** Customer experience: this month's classes and score against last month's (spec section 4). */
  nps?: {
    promoters: number;
    passives: number;
    detractors: number;
    currentScore: number | null;
    previousScore: number | null;
    trend: "up" | "down" | "unchanged";
  };
  /** Check-in: who is here now, and visits today and over the last 21 days. */
  checkin?: {
    here: Array<{ name: string | null; phone: string; checkedInAt: string }>;
    today: number;
    last21Days: number;
  };
  /** Date-driven types: sends planned for the rest of this UK month (the credits they will need) and the next one. */
  upcoming?: { thisMonth: number; nextAt: string | null };
  /** Top response's share of replies, a whole number (poll and invitation). */
  topResponse: ResponseTotal & { percent: number } | null;
}

export interface ListOptions {
  kind?: CampaignKind;
  page?: number;
  pageSize?: number;
}

const DAY = 86_400_000;

function newPublicRef(): string {
  return crypto.randomBytes(12).toString("base64url");
}

/** A unique-index violation (a keyword taken by a concurrent save, a repeated idempotency key), on either database. */
function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

interface Normalised {
  input: CampaignInput;
  keyword: string | null;
  groupId: number | null;
  issueAt: string;
  closeAt: string | null;
  messageText: string | null;
  thankYouText: string | null;
}

function normalise(input: CampaignInput, now: Date): Normalised {
  const issueAt = input.issueDate ?? now.toISOString();
  const keyword = "keyword" in input ? (input.keyword ?? null) : null;
  const groupId =
    input.type === "BOUNCEBACK" || input.type === "CHECKIN"
      ? null
      : input.type === "PICKWINNERS"
        ? input.entrySource === "GROUP"
          ? (input.contactGroupId ?? -1)
          : null
        : input.contactGroupId;
  const thankYouText = "thankYouText" in input ? (input.thankYouText ?? null) : null;
  const messageText = input.type === "CUSTOMEREXP" ? input.introText : (input.messageText ?? null);
  return { input, keyword, groupId, issueAt, closeAt: input.closeDate ?? null, messageText, thankYouText };
}

/** The checks every campaign passes before it is saved; each refusal names its field. */
async function check(trx: Db, businessId: number, n: Normalised, now: Date, exceptCampaignId: number | null): Promise<void> {
  const { input } = n;
  const type = campaignType(input.type);
  const nowMs = now.getTime();
  if (Date.parse(n.issueAt) < nowMs - 60_000) throw new AppError("BR013", undefined, { field: "issueDate" });
  if (n.closeAt) {
    if (Date.parse(n.closeAt) <= nowMs) throw new AppError("BR013", undefined, { field: "closeDate" });
    if (Date.parse(n.closeAt) <= Date.parse(n.issueAt)) throw new AppError("BR013", { context: "closeAfterIssue" }, { field: "closeDate" });
  }
  if (type.keyword === "required" && !n.keyword) throw new AppError("BR025", { context: "keywordRequired" }, { field: "keyword" });
  if (input.type === "PICKWINNERS" && input.entrySource === "KEYWORD" && !n.keyword) throw new AppError("BR025", { context: "keywordRequired" }, { field: "keyword" });
  if (input.type === "INVITATION" && input.remindDayBefore) {
    if (!input.eventDate) throw new AppError("BR025", { context: "eventDateRequired" }, { field: "eventDate" });
    if (Date.parse(input.eventDate) <= nowMs) throw new AppError("BR013", undefined, { field: "eventDate" });
  }
  if (n.keyword) {
    const business = await trx.selectFrom("businesses").select("join_keyword").where("id", "=", businessId).executeTakeFirstOrThrow();
    if (normaliseKeyword(business.join_keyword ?? "") === n.keyword) throw new AppError("BR017", { context: "joinKeyword" }, { field: "keyword" });
    let q = trx
      .selectFrom("campaigns")
      .select("id")
      .where("business_id", "=", businessId)
      .where("keyword", "=", n.keyword)
      .where("status", "in", ["SCHEDULED", "LIVE", "ONGOING"]);
    if (exceptCampaignId !== null) q = q.where("id", "!=", exceptCampaignId);
    if (await q.executeTakeFirst()) throw new AppError("BR017", { context: "inUse" }, { field: "keyword" });
  }
  if (n.groupId !== null) {
    // Another business's group is a 404; an empty audience is BR026 (a draw may go on after the owner confirms).
    const count = await countAudience(trx, businessId, { groupId: n.groupId });
    // An ongoing campaign may start before anyone qualifies (members join later); a draw may, once confirmed.
    const confirmed = (input.type === "PICKWINNERS" && input.confirmEmptyGroup) || TYPE_KINDS[input.type] === "ONGOING";
    if (count === 0 && !confirmed) throw new AppError("BR026", undefined, { field: "contactGroupId" });
    if (TYPE_KINDS[input.type] === "ONETIME" && input.type !== "PICKWINNERS" && count > 0) {
      // Every recipient costs at least one credit: refuse now rather than fail at the issue time.
      await assertCredit(trx, businessId, count, now);
    }
  }
  await type.check?.(trx, businessId, input as never, now);
}

async function insertCampaign(trx: Db, businessId: number, userId: number | null, n: Normalised, idempotencyKey: string | null, now: Date): Promise<LoadedCampaign> {
  const type = campaignType(n.input.type);
  const at = now.toISOString();
  const seed = n.input.type === "PICKWINNERS" ? newSeed() : null;
  const row = await trx
    .insertInto("campaigns")
    .values({
      business_id: businessId,
      type: n.input.type,
      kind: TYPE_KINDS[n.input.type],
      name: n.input.name,
      keyword: n.keyword,
      message_text: n.messageText,
      thank_you_text: n.thankYouText,
      group_id: n.groupId,
      issue_at: n.issueAt,
      close_at: n.closeAt,
      status: "SCHEDULED",
      error_code: null,
      version: 1,
      settings: JSON.stringify(type.settingsOf(n.input as never)),
      public_ref: newPublicRef(),
      result_group_id: null,
      seed_hash: seed?.seedHash ?? null,
      seed: seed?.seed ?? null,
      issued_at: null,
      ended_at: null,
      idempotency_key: idempotencyKey,
      created_by: userId,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return loaded(row);
}

/** Runs the issue now, in the caller's transaction, when its time has come (a refusal undoes the save). */
async function issueIfDue(trx: Db, deps: CampaignDeps, c: LoadedCampaign): Promise<void> {
  if (Date.parse(c.issueAt) > deps.now().getTime()) return;
  const fire = await trx
    .updateTable("campaign_fires")
    .set({ status: "DONE", done_at: deps.now().toISOString() })
    .where("campaign_id", "=", c.id)
    .where("member_id", "=", 0)
    .where("step", "=", ISSUE)
    .where("status", "=", "DUE")
    .returning("id")
    .executeTakeFirst();
  if (!fire) return;
  try {
    await withSavepoint(trx, () => runStep(trx, deps, c, ISSUE, Number(fire.id)));
  } catch (error) {
    // A text with {{shopify.code}} whose codes are not made yet: the campaign is saved and the worker issues it
    // once they are (engine.server asks for them).
    if (isCodesShort(error)) {
      await trx.updateTable("campaign_fires").set({ status: "DUE", done_at: null }).where("id", "=", Number(fire.id)).execute();
      return;
    }
    if (error instanceof CampaignFailure) {
      // Refusals the owner can act on are errors on the form, not a failed campaign: nothing is saved.
      if (error.code === "SURVEYERROR_SG_SHORT") throw new AppError("BR026", undefined, { field: "contactGroupId" });
      if (error.code === "SURVEYERROR_CLOSEDATE_PASSED") throw new AppError("BR013", undefined, { field: "closeDate" });
      throw new AppError("UA005");
    }
    throw error;
  }
}

/**
 * Creates a campaign and plans its steps; issued at once when its issue time is now. Refusals (a keyword in use or
 * reserved, a past date, an empty group, not enough credit, another business's group) save and send nothing.
 * A repeated idempotency key returns the campaign the first request made.
 */
export async function createCampaign(
  deps: CampaignDeps,
  args: { businessId: number; userId: number | null; input: CampaignInput; idempotencyKey?: string | null },
): Promise<CampaignView> {
  const key = args.idempotencyKey?.slice(0, 100) || null;
  const find = async () => {
    if (!key) return null;
    const row = await deps.db.selectFrom("campaigns").select("id").where("business_id", "=", args.businessId).where("idempotency_key", "=", key).executeTakeFirst();
    return row ? getCampaign(deps.db, args.businessId, Number(row.id)) : null;
  };
  const earlier = await find();
  if (earlier) return earlier;
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      const now = deps.now();
      const n = normalise(args.input, now);
      await check(trx, args.businessId, n, now, null);
      const c = await insertCampaign(trx, args.businessId, args.userId, n, key, now);
      await planFires(trx, c, now);
      await issueIfDue(trx, deps, c);
      return c.id;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const again = await find();
    if (again) return again;
    throw new AppError("BR017", { context: "inUse" }, { field: "keyword" });
  }
  return (await getCampaign(deps.db, args.businessId, id))!;
}

/** Whether a campaign can still be edited: nothing sent yet (an ongoing auto responder stays editable). */
function isEditable(c: LoadedCampaign): boolean {
  if (c.status === "ENDED" || c.status === "FAILED") return false;
  // A draw sends nothing before it is made; an ongoing campaign's edits apply to what it sends next.
  if (c.kind === "ONGOING" || c.type === "PICKWINNERS") return true;
  return !c.issuedAt;
}

/** Edits a campaign that has not sent anything yet (BR028 after): a new version, its steps planned again. */
export async function updateCampaign(deps: CampaignDeps, args: { businessId: number; campaignId: number; input: CampaignInput; actorId?: number | null }): Promise<CampaignView> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const c = await loadCampaign(trx, args.businessId, args.campaignId);
    if (!c) throw new AppError("NF001", undefined, { status: 404 });
    if (!isEditable(c)) throw new AppError("BR028");
    if (args.input.type !== c.type) throw new AppError("BR025", { context: "type" }, { field: "type" });
    const n = normalise(args.input, now);
    // An issued campaign keeps its issue time.
    if (c.issuedAt) n.issueAt = c.issueAt;
    else await check(trx, args.businessId, n, now, c.id);
    if (c.issuedAt) await check(trx, args.businessId, { ...n, issueAt: now.toISOString(), groupId: null }, now, c.id);
    const type = campaignType(c.type);
    const at = now.toISOString();
    const row = await trx
      .updateTable("campaigns")
      .set({
        name: n.input.name,
        keyword: n.keyword,
        message_text: n.messageText,
        thank_you_text: n.thankYouText,
        group_id: c.issuedAt ? c.groupId : n.groupId,
        issue_at: n.issueAt,
        close_at: n.closeAt,
        settings: JSON.stringify({ ...c.settings, ...type.settingsOf(n.input as never) }),
        version: c.version + 1,
        updated_at: at,
        updated_by: args.actorId ?? null,
      })
      .where("id", "=", c.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    const next = loaded(row);
    await planFires(trx, next, now);
    // A running date-driven campaign plans every member again for the new version.
    if (next.issuedAt && isDated(next)) await planAllMembers(trx, next, now);
    await issueIfDue(trx, deps, next);
  });
  return (await getCampaign(deps.db, args.businessId, args.campaignId))!;
}

/** Ends a campaign now: it takes no more replies and sends nothing more (a draw not yet made is not made). */
export async function endCampaign(deps: CampaignDeps, args: { businessId: number; campaignId: number; actorId?: number | null }): Promise<CampaignView> {
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const c = await loadCampaign(trx, args.businessId, args.campaignId);
    if (!c) throw new AppError("NF001", undefined, { status: 404 });
    if (c.status === "ENDED" || c.status === "FAILED") return;
    await close(trx, c, now);
    await trx.updateTable("campaigns").set({ ended_by: args.actorId ?? null }).where("id", "=", c.id).execute();
    await trx.updateTable("campaign_fires").set({ status: "CANCELLED", reason: "ended", done_at: now.toISOString() }).where("campaign_id", "=", c.id).where("status", "=", "DUE").execute();
  });
  return (await getCampaign(deps.db, args.businessId, args.campaignId))!;
}

/**
 * Deletes a campaign with its answers and plans. Refused with BR042 while the group it filled (an invitation's
 * acceptances) is used by a group message waiting to go or by another campaign.
 */
export async function deleteCampaign(deps: CampaignDeps, args: { businessId: number; campaignId: number; actorId?: number | null }): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const c = await loadCampaign(trx, args.businessId, args.campaignId);
    if (!c) throw new AppError("NF001", undefined, { status: 404 });
    if (c.resultGroupId) {
      const pending = await trx
        .selectFrom("messages")
        .select("id")
        .where("business_id", "=", c.businessId)
        .where("group_id", "=", c.resultGroupId)
        .where("status", "in", ["SCHEDULED", "SENDING_SOON"])
        .executeTakeFirst();
      const used = await trx
        .selectFrom("campaigns")
        .select("id")
        .where("business_id", "=", c.businessId)
        .where("group_id", "=", c.resultGroupId)
        .where("status", "in", ["SCHEDULED", "LIVE", "ONGOING"])
        .executeTakeFirst();
      if (pending || used) throw new AppError("BR042");
    }
    await trx.deleteFrom("campaigns").where("id", "=", c.id).execute();
    if (c.resultGroupId) await trx.deleteFrom("groups").where("id", "=", c.resultGroupId).where("type", "=", "CAMPAIGN").execute();
    // The row is gone: the audit trail keeps who deleted it.
    await recordAudit(trx, { businessId: args.businessId, userId: args.actorId ?? null, action: "campaign.deleted", subjectType: "campaign", subjectId: c.id, detail: c.name }, deps.now());
  });
}

/** Who last edited and who ended a campaign, by name (null when nobody is recorded: the system or an API client). */
export async function campaignActors(db: Database, businessId: number, campaignId: number): Promise<{ updatedBy: string | null; endedBy: string | null }> {
  const row = await db
    .selectFrom("campaigns as c")
    .leftJoin("users as up", "up.id", "c.updated_by")
    .leftJoin("users as en", "en.id", "c.ended_by")
    .select(["up.name as updatedBy", "en.name as endedBy"])
    .where("c.business_id", "=", businessId)
    .where("c.id", "=", campaignId)
    .executeTakeFirst();
  return { updatedBy: row?.updatedBy ?? null, endedBy: row?.endedBy ?? null };
}

async function sentCount(db: Db, c: LoadedCampaign): Promise<number> {
  if (c.kind === "ONGOING" || c.type === "PICKWINNERS") {
    const r = await db.selectFrom("messages").select((eb) => eb.fn.sum<number>("recipients").as("n")).where("campaign_id", "=", c.id).executeTakeFirst();
    return Number(r?.n ?? 0);
  }
  const r = await db
    .selectFrom("campaign_fires as f")
    .innerJoin("messages as m", "m.id", "f.message_id")
    .select((eb) => eb.fn.sum<number>("m.recipients").as("n"))
    .where("f.campaign_id", "=", c.id)
    .where("f.step", "=", ISSUE)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

async function answerCounts(db: Db, campaignId: number): Promise<Map<string, { total: number; places: number }>> {
  const rows = await db.selectFrom("campaign_answer_counts").select(["answer", "total", "places"]).where("campaign_id", "=", campaignId).execute();
  return new Map(rows.map((r) => [r.answer, { total: Number(r.total), places: Number(r.places) }]));
}

/** Results as the spec's `responses`: each option with its total (poll and invitation), in the option order. */
function responsesOf(c: LoadedCampaign, counts: Map<string, { total: number }>): ResponseTotal[] {
  if (c.type === "POLL") return pollOptions(c).map((label, i) => ({ response: label, total: counts.get(String(i + 1))?.total ?? 0 }));
  if (c.type === "INVITATION") {
    const [accept, decline] = invitationSettings(c).responseOptions;
    return [
      { response: accept, total: counts.get("ACCEPT")?.total ?? 0 },
      { response: decline, total: counts.get("DECLINE")?.total ?? 0 },
    ];
  }
  return [];
}

function totalReceived(c: LoadedCampaign, counts: Map<string, { total: number }>): number {
  let n = 0;
  for (const v of counts.values()) n += v.total;
  return c.type === "PICKWINNERS" ? counts.get("ENTRY")?.total ?? 0 : n;
}

/** The settings as the API names them (the seed stays hidden until the draw). */
function publicSettings(c: LoadedCampaign): Record<string, unknown> {
  const s: Record<string, unknown> = { ...c.settings };
  if (c.type === "PICKWINNERS") {
    s.seedHash = c.seedHash;
    s.drawDate = c.closeAt;
    if (c.status === "ENDED" && c.seed) s.seed = c.seed;
  }
  return s;
}

async function view(db: Db, c: LoadedCampaign, counts?: Map<string, { total: number; places: number }>): Promise<CampaignView> {
  const [group, creator] = await Promise.all([
    c.groupId && c.groupId > 0 ? db.selectFrom("groups").select("name").where("id", "=", c.groupId).executeTakeFirst() : Promise.resolve(undefined),
    c.createdBy ? db.selectFrom("users").select("name").where("id", "=", c.createdBy).executeTakeFirst() : Promise.resolve(undefined),
  ]);
  const totals = counts ?? (await answerCounts(db, c.id));
  return {
    id: c.id,
    type: c.type,
    kind: c.kind,
    name: c.name,
    status: c.status,
    errorMessage: c.errorCode,
    keyword: c.keyword,
    messageText: c.messageText,
    thankYouText: c.thankYouText,
    contactGroupId: c.groupId,
    contactGroupName: group?.name ?? null,
    issueDate: c.issueAt,
    closeDate: c.closeAt,
    settings: publicSettings(c),
    totalSent: await sentCount(db, c),
    totalReceived: totalReceived(c, totals),
    responses: responsesOf(c, totals),
    editable: isEditable(c),
    createdAt: c.createdAt,
    createdByName: creator?.name ?? null,
    updatedAt: c.updatedAt,
  };
}

export async function getCampaign(db: Database, businessId: number, campaignId: number): Promise<CampaignView | null> {
  const c = await loadCampaign(db, businessId, campaignId);
  return c ? view(db, c) : null;
}

/** The status order of the list: what needs attention first. */
const STATUS_ORDER: CampaignView["status"][] = ["FAILED", "SUSPENDED", "SCHEDULED", "LIVE", "ONGOING", "ENDED"];

export async function listCampaigns(db: Database, businessId: number, options: ListOptions = {}): Promise<{ items: CampaignView[]; total: number }> {
  const pageSize = Math.max(1, Math.min(100, options.pageSize ?? 20));
  const page = Math.max(1, Math.floor(options.page ?? 1));
  let q = db.selectFrom("campaigns").where("business_id", "=", businessId);
  if (options.kind) q = q.where("kind", "=", options.kind);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const order = sql<number>`case status ${sql.join(STATUS_ORDER.map((s, i) => sql`when ${s} then ${i}`), sql` `)} else 9 end`;
  const rows = await q.selectAll().orderBy(order).orderBy("id", "desc").limit(pageSize).offset((page - 1) * pageSize).execute();
  const items: CampaignView[] = [];
  for (const row of rows) items.push(await view(db, loaded(row)));
  return { items, total };
}

async function replyRows(db: Db, c: LoadedCampaign, limit: number, offset = 0): Promise<{ rows: ReplyRow[]; total: number }> {
  const base = db
    .selectFrom("campaign_responses as r")
    .leftJoin("members as m", "m.id", "r.member_id")
    .where("r.campaign_id", "=", c.id)
    .where("r.is_current", "=", 1)
    .where("r.step", "in", ["answer", "keyword", "entry", "score", "comment"]);
  const total = Number((await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const labels = campaignType(c.type).labels?.(c) ?? [];
  const rows = await base
    .select(["r.member_id", "r.phone", "r.answer", "r.raw", "r.created_at", "m.first_name", "m.full_name"])
    .orderBy("r.created_at", "desc")
    .orderBy("r.id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
  const optionLabel = (answer: string | null): string | null => {
    if (!answer || answer === "REPLY" || answer === "KEYWORD" || answer === "ENTRY" || answer === "COMMENT" || answer === "CHECKIN") return null;
    if (c.type === "CUSTOMEREXP") return `${answer}/10`;
    if (c.type === "POLL") return labels[Number(answer) - 1] ?? null;
    if (c.type === "INVITATION") return answer === "ACCEPT" ? labels[0] : answer === "DECLINE" ? labels[1] : answer;
    return answer;
  };
  return {
    total,
    rows: rows.map((r) => ({
      memberId: Number(r.member_id ?? 0),
      name: r.full_name || r.first_name || null,
      phone: r.phone,
      response: r.raw,
      responseOption: optionLabel(r.answer),
      at: r.created_at,
    })),
  };
}

async function doorList(db: Db, c: LoadedCampaign): Promise<DoorListRow[]> {
  const rows = await db
    .selectFrom("campaign_responses as r")
    .innerJoin("members as m", "m.id", "r.member_id")
    .select(["r.member_id", "r.phone", "r.answer", "r.party_size", "r.created_at", "m.first_name", "m.full_name"])
    .where("r.campaign_id", "=", c.id)
    .where("r.is_current", "=", 1)
    .where("r.answer", "in", ["ACCEPT", "WAITLIST", "DECLINE"])
    .orderBy("r.created_at")
    .orderBy("r.id")
    .execute();
  const rank: Record<DoorListRow["status"], number> = { ACCEPTED: 0, WAITLIST: 1, DECLINED: 2 };
  return rows
    .map((r) => ({
      memberId: Number(r.member_id),
      name: r.full_name || r.first_name || null,
      phone: r.phone,
      partySize: Number(r.party_size),
      status: (r.answer === "ACCEPT" ? "ACCEPTED" : r.answer === "DECLINE" ? "DECLINED" : "WAITLIST") as DoorListRow["status"],
      at: r.created_at,
    }))
    .sort((a, b) => rank[a.status] - rank[b.status]);
}

/** The start of today (UK), of yesterday and of this month, as ISO instants. */
function ukDayStarts(now: Date): { today: string; yesterday: string; month: string } {
  const w = wallClock(now);
  const today = wallClockToUtc(w.year, w.month, w.day, 0);
  const y = new Date(Date.UTC(w.year, w.month - 1, w.day) - DAY);
  const yesterday = wallClockToUtc(y.getUTCFullYear(), y.getUTCMonth() + 1, y.getUTCDate(), 0);
  return { today: today.toISOString(), yesterday: yesterday.toISOString(), month: wallClockToUtc(w.year, w.month, 1, 0).toISOString() };
}

async function keywordTotals(db: Db, c: LoadedCampaign, now: Date): Promise<{ today: number; yesterday: number; month: number }> {
  const s = ukDayStarts(now);
  const since = s.month < s.yesterday ? s.month : s.yesterday;
  const r = await db
    .selectFrom("campaign_responses")
    .select([
      sql<number>`coalesce(sum(case when created_at >= ${s.today} then 1 else 0 end), 0)`.as("today"),
      sql<number>`coalesce(sum(case when created_at >= ${s.yesterday} and created_at < ${s.today} then 1 else 0 end), 0)`.as("yesterday"),
      sql<number>`coalesce(sum(case when created_at >= ${s.month} then 1 else 0 end), 0)`.as("month"),
    ])
    .where("campaign_id", "=", c.id)
    .where("created_at", ">=", since)
    .executeTakeFirstOrThrow();
  return { today: Number(r.today), yesterday: Number(r.yesterday), month: Number(r.month) };
}

export async function campaignResults(db: Database, businessId: number, campaignId: number, now: Date, options: { replyLimit?: number; replyOffset?: number } = {}): Promise<CampaignResults | null> {
  const c = await loadCampaign(db, businessId, campaignId);
  if (!c) return null;
  const counts = await answerCounts(db, c.id);
  const campaign = await view(db, c, counts);
  const offset = Math.max(0, Math.trunc(options.replyOffset ?? 0));
  const { rows, total } = await replyRows(db, c, Math.max(1, Math.min(500, options.replyLimit ?? 50)), offset);
  const out: CampaignResults = { campaign, replies: rows, repliesTotal: total, topResponse: null };
  const answered = campaign.responses.reduce((a, r) => a + r.total, 0);
  if (answered > 0) {
    const top = campaign.responses.reduce((a, r) => (r.total > a.total ? r : a));
    out.topResponse = { ...top, percent: Math.round((top.total / answered) * 100) };
  }
  if (c.type === "BOUNCEBACK") out.totals = await keywordTotals(db, c, now);
  if (c.type === "INVITATION") {
    const s = invitationSettings(c);
    const accepted = counts.get("ACCEPT");
    const replied = (accepted?.total ?? 0) + (counts.get("DECLINE")?.total ?? 0) + (counts.get("WAITLIST")?.total ?? 0);
    out.invitation = {
      acceptedReplies: accepted?.total ?? 0,
      acceptedPlaces: accepted?.places ?? 0,
      declined: counts.get("DECLINE")?.total ?? 0,
      waitlist: counts.get("WAITLIST")?.total ?? 0,
      noReply: Math.max(0, campaign.totalSent - replied),
      capacity: s.capacity,
      doorList: await doorList(db, c),
    };
  }
  if (isDated(c)) out.upcoming = await upcomingSends(db, c, now);
  if (c.type === "CUSTOMEREXP") out.nps = await npsFigures(db, c, now);
  if (c.type === "CHECKIN") out.checkin = await checkinFigures(db, c, now);
  if (c.type === "PICKWINNERS") {
    const drawn = c.status === "ENDED" && c.seed !== null;
    const winners = await db
      .selectFrom("campaign_winners as w")
      .innerJoin("members as m", "m.id", "w.member_id")
      .select(["w.rank", "w.member_id", "w.drawn_at", "m.phone", "m.first_name", "m.full_name"])
      .where("w.campaign_id", "=", c.id)
      .orderBy("w.rank")
      .execute();
    const settings = pickSettings(c);
    out.draw = {
      entries: settings.entries ?? (c.status === "FAILED" ? 0 : (await entrants(db, c, now)).length),
      seedHash: c.seedHash ?? "",
      seed: drawn && winners.length ? c.seed : null,
      drawnAt: winners[0]?.drawn_at ?? null,
      winners: winners.map((w) => ({ rank: Number(w.rank), memberId: Number(w.member_id), name: w.full_name || w.first_name || null, phone: w.phone })),
    };
  }
  return out;
}

/** Planned member sends from now to the end of this UK month, and the next one. */
export async function upcomingSends(db: Db, c: LoadedCampaign, now: Date): Promise<{ thisMonth: number; nextAt: string | null }> {
  const w = wallClock(now);
  const monthEnd = wallClockToUtc(w.month === 12 ? w.year + 1 : w.year, w.month === 12 ? 1 : w.month + 1, 1, 0).toISOString();
  const base = db.selectFrom("campaign_fires").where("campaign_id", "=", c.id).where("member_id", "!=", 0).where("status", "=", "DUE");
  const [count, next] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number>().as("n")).where("fire_at", "<", monthEnd).executeTakeFirstOrThrow(),
    base.select("fire_at").orderBy("fire_at").limit(1).executeTakeFirst(),
  ]);
  return { thisMonth: Number(count.n), nextAt: next?.fire_at ?? null };
}

/** This month's and last month's scores (UK calendar months). */
export async function npsFigures(db: Db, c: LoadedCampaign, now: Date): Promise<NonNullable<CampaignResults["nps"]>> {
  const w = wallClock(now);
  const thisMonth = wallClockToUtc(w.year, w.month, 1, 0).toISOString();
  const lastMonth = wallClockToUtc(w.month === 1 ? w.year - 1 : w.year, w.month === 1 ? 12 : w.month - 1, 1, 0).toISOString();
  const tally = { current: { PROMOTER: 0, PASSIVE: 0, DETRACTOR: 0 }, previous: { PROMOTER: 0, PASSIVE: 0, DETRACTOR: 0 } };
  for (const [period, from, to] of [["previous", lastMonth, thisMonth], ["current", thisMonth, null]] as const) {
    let q = db
      .selectFrom("campaign_responses")
      .select(["answer", (eb) => eb.fn.countAll<number>().as("n")])
      .where("campaign_id", "=", c.id)
      .where("step", "=", "score")
      .where("created_at", ">=", from);
    if (to) q = q.where("created_at", "<", to);
    for (const r of await q.groupBy("answer").execute()) tally[period][npsClass(Number(r.answer))] += Number(r.n);
  }
  const currentScore = npsScore(tally.current.PROMOTER, tally.current.PASSIVE, tally.current.DETRACTOR);
  const previousScore = npsScore(tally.previous.PROMOTER, tally.previous.PASSIVE, tally.previous.DETRACTOR);
  const trend = currentScore === null || previousScore === null || currentScore === previousScore ? "unchanged" : currentScore > previousScore ? "up" : "down";
  return { promoters: tally.current.PROMOTER, passives: tally.current.PASSIVE, detractors: tally.current.DETRACTOR, currentScore, previousScore, trend };
}

/** Who is here now (checked in, not out, not past the automatic check-out), and visits today and in 21 days. */
export async function checkinFigures(db: Db, c: LoadedCampaign, now: Date): Promise<NonNullable<CampaignResults["checkin"]>> {
  const since = new Date(now.getTime() - 21 * DAY).toISOString();
  const today = ukDayStarts(now).today;
  const rows = await db
    .selectFrom("campaign_checkins as k")
    .leftJoin("members as m", "m.id", "k.member_id")
    .select(["k.phone", "k.checked_in_at", "k.checked_out_at", "m.first_name", "m.full_name"])
    .where("k.campaign_id", "=", c.id)
    .where("k.checked_in_at", ">=", since)
    .orderBy("k.checked_in_at", "desc")
    .execute();
  const nowIso = now.toISOString();
  const here = rows
    .filter((r) => !r.checked_out_at && (autoCheckoutAt(c, r.checked_in_at) ?? "9999") > nowIso)
    .map((r) => ({ name: r.full_name || r.first_name || null, phone: r.phone, checkedInAt: r.checked_in_at }));
  return { here, today: rows.filter((r) => r.checked_in_at >= today).length, last21Days: rows.length };
}

/** What the public check-out page shows for a personal reference; NF003 when there is no such check-in. */
export async function checkoutInfo(db: Database, ref: string, now: Date): Promise<{ businessName: string; campaignName: string; checkedInAt: string; checkedOutAt: string | null }> {
  if (!/^[A-Za-z0-9_-]{8,40}$/.test(ref)) throw new AppError("NF003", undefined, { status: 404 });
  const row = await db
    .selectFrom("campaign_checkins as k")
    .innerJoin("campaigns as c", "c.id", "k.campaign_id")
    .innerJoin("businesses as b", "b.id", "k.business_id")
    .select(["k.checked_in_at", "k.checked_out_at", "c.name", "c.settings", "b.name as business_name"])
    .where("k.ref", "=", ref)
    .executeTakeFirst();
  if (!row) throw new AppError("NF003", undefined, { status: 404 });
  const auto = autoCheckoutAt({ settings: JSON.parse(row.settings) as Record<string, unknown> }, row.checked_in_at);
  const out = row.checked_out_at ?? (auto && auto <= now.toISOString() ? auto : null);
  return { businessName: row.business_name, campaignName: row.name, checkedInAt: row.checked_in_at, checkedOutAt: out };
}

/** Checks a visit out through its personal link: BR040 when it already was, NF003 for an unknown link. */
export async function checkOut(db: Database, ref: string, now: Date): Promise<{ businessName: string; checkedOutAt: string }> {
  const info = await checkoutInfo(db, ref, now);
  if (info.checkedOutAt) throw new AppError("BR040");
  const at = now.toISOString();
  const done = await db.updateTable("campaign_checkins").set({ checked_out_at: at }).where("ref", "=", ref).where("checked_out_at", "is", null).executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1) throw new AppError("BR040");
  return { businessName: info.businessName, checkedOutAt: at };
}

/** The CSV of a campaign's answers (or an invitation's door list, or a draw's winners). */
export async function exportCampaignCsv(db: Database, businessId: number, campaignId: number): Promise<{ filename: string; csv: string } | null> {
  const c = await loadCampaign(db, businessId, campaignId);
  if (!c) return null;
  const safe = c.name.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "").toLowerCase() || "campaign";
  const lines: string[] = [];
  if (c.type === "INVITATION") {
    lines.push(csvLine(["Name", "Mobile", "RSVP", "Party size", "Replied at"]));
    for (const r of await doorList(db, c)) lines.push(csvLine([r.name ?? "", r.phone, r.status, r.partySize, r.at]));
  } else if (c.type === "PICKWINNERS") {
    lines.push(csvLine(["Rank", "Name", "Mobile"]));
    const results = await campaignResults(db, businessId, campaignId, new Date());
    for (const w of results?.draw?.winners ?? []) lines.push(csvLine([w.rank, w.name ?? "", w.phone]));
  } else {
    lines.push(csvLine(["Name", "Mobile", "Reply", "Counted as", "Received at"]));
    const { rows } = await replyRows(db, c, 100_000);
    for (const r of rows) lines.push(csvLine([r.name ?? "", r.phone, r.response, r.responseOption ?? "", r.at]));
  }
  return { filename: `${safe}-${c.id}.csv`, csv: `${lines.join("\r\n")}\r\n` };
}

/** Campaigns live or ongoing now. */
export async function countLiveCampaigns(db: Database, businessId: number): Promise<number> {
  const [r] = await liveCampaignCount(db, businessId);
  return Number(r?.n ?? 0);
}

// Read on every home page (the tile and the feed): compiled once.
const liveCampaignCount = compiledQuery((db: Database, businessId: number) =>
  db
    .selectFrom("campaigns")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("status", "in", ["LIVE", "ONGOING"]),
);

const recentCampaigns = compiledQuery((db: Database, businessId: number, endedSince: string) =>
  db
    .selectFrom("campaigns")
    .selectAll()
    .where("business_id", "=", businessId)
    .where((eb) => eb.or([eb("status", "!=", "ENDED"), eb("ended_at", ">=", endedSince)]))
    .orderBy("updated_at", "desc")
    .limit(10),
);

/** A member's campaign interactions: answers, keyword texts and entries (CONTACTCAMPAIGNINTERACTIONTOTAL). */
export async function memberCampaignInteractions(db: Database, businessId: number, memberId: number): Promise<number> {
  const r = await db
    .selectFrom("campaign_responses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("member_id", "=", memberId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** Per campaign, the members its texts went to (the issue's recipients; every reply for an auto responder or a draw). */
async function sentCounts(db: Db, cs: readonly LoadedCampaign[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const everyText = (c: LoadedCampaign) => c.kind === "ONGOING" || c.type === "PICKWINNERS";
  const issued = cs.filter((c) => !everyText(c)).map((c) => c.id);
  const all = cs.filter(everyText).map((c) => c.id);
  if (issued.length) {
    const rows = await db
      .selectFrom("campaign_fires as f")
      .innerJoin("messages as m", "m.id", "f.message_id")
      .select(["f.campaign_id", (eb) => eb.fn.sum<number>("m.recipients").as("n")])
      .where("f.campaign_id", "in", issued)
      .where("f.step", "=", ISSUE)
      .groupBy("f.campaign_id")
      .execute();
    for (const r of rows) out.set(Number(r.campaign_id), Number(r.n));
  }
  if (all.length) {
    const rows = await db
      .selectFrom("messages")
      .select(["campaign_id", (eb) => eb.fn.sum<number>("recipients").as("n")])
      .where("campaign_id", "in", all)
      .groupBy("campaign_id")
      .execute();
    for (const r of rows) out.set(Number(r.campaign_id), Number(r.n));
  }
  return out;
}

/**
 * The feed's campaign items: the business's recent campaigns (ended ones for a week), newest activity first. A
 * fixed handful of queries whatever the number of campaigns (the home page reads it on every load).
 */
export async function campaignFeedItems(db: Database, businessId: number, now: Date): Promise<FeedItem[]> {
  const weekAgo = new Date(now.getTime() - 7 * DAY).toISOString();
  const rows = await recentCampaigns(db, businessId, weekAgo);
  if (!rows.length) return [];
  const cs = rows.map(loaded);
  const ids = cs.map((c) => c.id);
  const groupIds = [...new Set(cs.map((c) => c.groupId).filter((g): g is number => g !== null && g > 0))];
  const [countRows, lastRows, groupRows, sent] = await Promise.all([
    db.selectFrom("campaign_answer_counts").select(["campaign_id", "answer", "total", "places"]).where("campaign_id", "in", ids).execute(),
    db.selectFrom("campaign_responses").select(["campaign_id", (eb) => eb.fn.max("created_at").as("last")]).where("campaign_id", "in", ids).groupBy("campaign_id").execute(),
    groupIds.length ? db.selectFrom("groups").select(["id", "name"]).where("id", "in", groupIds).execute() : Promise.resolve([]),
    sentCounts(db, cs),
  ]);
  const counts = new Map<number, Map<string, { total: number; places: number }>>();
  for (const r of countRows) {
    const m = counts.get(Number(r.campaign_id)) ?? new Map<string, { total: number; places: number }>();
    m.set(r.answer, { total: Number(r.total), places: Number(r.places) });
    counts.set(Number(r.campaign_id), m);
  }
  const last = new Map(lastRows.map((r) => [Number(r.campaign_id), String(r.last)]));
  const groupNames = new Map(groupRows.map((g) => [Number(g.id), g.name]));
  const items: FeedItem[] = [];
  for (const c of cs) {
    const cCounts = counts.get(c.id) ?? new Map<string, { total: number; places: number }>();
    const responses = responsesOf(c, cCounts);
    const status = c.status === "ENDED" ? "COMPLETE" : c.status === "ONGOING" ? "LIVE" : c.status;
    const item: FeedItem = {
      type: c.type,
      id: `campaign-${c.id}`,
      name: c.name,
      status,
      ...(c.messageText ? { messageText: c.messageText } : {}),
      ...(c.groupId !== null ? { contactGroupId: c.groupId } : {}),
      ...(c.groupId && groupNames.has(c.groupId) ? { contactGroupName: groupNames.get(c.groupId) } : {}),
      totalSent: sent.get(c.id) ?? 0,
      totalReceived: totalReceived(c, cCounts),
      lastInteraction: last.get(c.id) ?? c.issuedAt ?? c.updatedAt,
      ...(c.status === "SCHEDULED" ? { nextSending: c.issueAt } : {}),
      ...(c.closeAt ? { closeDate: c.closeAt } : {}),
      ...(responses.length ? { responses } : {}),
      ...(c.errorCode ? { errorMessage: c.errorCode } : {}),
    };
    if (c.type === "BOUNCEBACK") {
      const t = await keywordTotals(db, c, now);
      Object.assign(item, { totalToday: t.today, totalYesterday: t.yesterday, totalMonth: t.month });
    }
    if (c.type === "PICKWINNERS") item.numberWinnersToPick = pickSettings(c).numberWinnersToPick;
    if (isDated(c)) {
      const u = await upcomingSends(db, c, now);
      Object.assign(item, { totalMonth: u.thisMonth, ...(u.nextAt ? { nextSending: u.nextAt } : {}) });
    }
    if (c.type === "CUSTOMEREXP") {
      const n = await npsFigures(db, c, now);
      Object.assign(item, { promoters: n.promoters, passives: n.passives, detractors: n.detractors, currentScore: n.currentScore ?? undefined, previousScore: n.previousScore ?? undefined });
    }
    if (c.type === "CHECKIN") {
      const k = await checkinFigures(db, c, now);
      Object.assign(item, { totalToday: k.today, totalReceived: k.last21Days, contactGroupCount: k.here.length });
    }
    items.push(item);
  }
  return items;
}
