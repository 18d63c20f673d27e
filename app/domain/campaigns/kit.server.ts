// What the engine and the type modules share: the campaign as loaded, the context a step or a reply runs in, sending
// to members (always through the pipeline) without letting a refusal undo the rest of the work, and answers recorded
// with their running totals (+1 for the new answer, -1 for the one it replaces).
import { sql, type Kysely } from "kysely";
import type { CampaignRow, DB, Member } from "#db/types";
import { AppError } from "~/lib/errors";
import { isCodesShort } from "~/domain/shop/codes.server";
import { enqueueMessage, enqueueSystemText, type PipelineEnv } from "~/domain/messaging/outbound.server";
import type { CampaignKind, CampaignStatus, CampaignTypeName } from "./model";

export type Db = Kysely<DB>;

export interface LoadedCampaign {
  id: number;
  businessId: number;
  type: CampaignTypeName;
  kind: CampaignKind;
  name: string;
  keyword: string | null;
  messageText: string | null;
  thankYouText: string | null;
  groupId: number | null;
  issueAt: string;
  closeAt: string | null;
  status: CampaignStatus;
  errorCode: string | null;
  version: number;
  settings: Record<string, unknown>;
  publicRef: string;
  resultGroupId: number | null;
  seedHash: string | null;
  seed: string | null;
  issuedAt: string | null;
  endedAt: string | null;
  createdBy: number | null;
  createdAt: string;
  updatedAt: string;
}

export function loaded(row: CampaignRow): LoadedCampaign {
  let settings: Record<string, unknown> = {};
  try {
    settings = JSON.parse(row.settings) as Record<string, unknown>;
  } catch {
    settings = {};
  }
  return {
    id: Number(row.id),
    businessId: Number(row.business_id),
    type: row.type as CampaignTypeName,
    kind: row.kind,
    name: row.name,
    keyword: row.keyword,
    messageText: row.message_text,
    thankYouText: row.thank_you_text,
    groupId: row.group_id === null ? null : Number(row.group_id),
    issueAt: row.issue_at,
    closeAt: row.close_at,
    status: row.status,
    errorCode: row.error_code,
    version: Number(row.version),
    settings,
    publicRef: row.public_ref,
    resultGroupId: row.result_group_id === null ? null : Number(row.result_group_id),
    seedHash: row.seed_hash,
    seed: row.seed,
    issuedAt: row.issued_at,
    endedAt: row.ended_at,
    createdBy: row.created_by === null ? null : Number(row.created_by),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export async function loadCampaign(db: Db, businessId: number, campaignId: number): Promise<LoadedCampaign | null> {
  if (!Number.isSafeInteger(campaignId) || campaignId <= 0) return null;
  const row = await db.selectFrom("campaigns").selectAll().where("business_id", "=", businessId).where("id", "=", campaignId).executeTakeFirst();
  return row ? loaded(row) : null;
}

export interface EngineBusiness {
  id: number;
  name: string;
  locale: string;
  phone_number: string | null;
}

/** Where a step or a reply runs: inside the caller's transaction, at one moment. */
export interface EngineCtx {
  trx: Db;
  now: Date;
  env: PipelineEnv;
  business: EngineBusiness;
}

/**
 * Runs `fn` under a savepoint: if it throws, what it wrote is undone and the error is passed on, while the
 * enclosing transaction (an inbound batch, a fire) stays usable.
 */
export async function withSavepoint<T>(trx: Db, fn: () => Promise<T>): Promise<T> {
  const name = sql.raw(`sp_${Math.random().toString(36).slice(2, 10)}`);
  await sql`savepoint ${name}`.execute(trx);
  try {
    const result = await fn();
    await sql`release savepoint ${name}`.execute(trx);
    return result;
  } catch (error) {
    await sql`rollback to savepoint ${name}`.execute(trx);
    await sql`release savepoint ${name}`.execute(trx);
    throw error;
  }
}

/**
 * A campaign text to some members through the pipeline (merge tags, the opted-out guard, credits, the opt-out line).
 * `reply`: an answer to the member's own text (short pause, no quiet hours). A refusal (no credit, nobody left) sends
 * nothing and returns null without disturbing the caller's transaction; other errors are thrown.
 */
export async function sendToMembers(
  ctx: EngineCtx,
  c: LoadedCampaign,
  memberIds: readonly number[],
  body: string,
  options: { reply?: boolean } = {},
): Promise<number | null> {
  if (!memberIds.length || !body.trim()) return null;
  try {
    const created = await withSavepoint(ctx.trx, () =>
      enqueueMessage(
        ctx.trx,
        { businessId: c.businessId, kind: "CAMPAIGN", audience: { memberIds }, body, campaignId: c.id, reply: options.reply, chargeReference: null },
        ctx.env,
      ),
    );
    return created.messageId;
  } catch (error) {
    if (error instanceof AppError && (error.code === "BR012" || error.code === "BR026" || error.code === "BR027")) return null;
    // An answer to a member's own text cannot wait for discount codes: it is not sent (a planned step waits, see engine).
    if (options.reply && isCodesShort(error)) return null;
    throw error;
  }
}

/** A reply to a number that is not a subscribed member (not charged, no merge tags): a system text. */
export async function sendToPhone(ctx: EngineCtx, c: LoadedCampaign, phone: string, body: string, memberId: number | null): Promise<void> {
  if (!body.trim()) return;
  await enqueueSystemText(ctx.trx, { businessId: c.businessId, to: phone, body, memberId, now: ctx.now, fromPhone: ctx.business.phone_number });
}

/** Adds to an answer's running totals (a negative delta takes a replaced answer away). */
export async function adjustCount(trx: Db, campaignId: number, answer: string, total: number, places: number): Promise<void> {
  await trx
    .insertInto("campaign_answer_counts")
    .values({ campaign_id: campaignId, answer, total, places })
    .onConflict((oc) =>
      oc.columns(["campaign_id", "answer"]).doUpdateSet((eb) => ({
        total: eb("campaign_answer_counts.total", "+", total),
        places: eb("campaign_answer_counts.places", "+", places),
      })),
    )
    .execute();
}

export interface PreviousAnswer {
  id: number;
  answer: string | null;
  partySize: number;
  createdAt: string;
}

/**
 * Records one answer. With `replaces`, the member's earlier answer to the same step stops counting (a changed vote
 * is counted once). A text already recorded (a replayed inbound text) records nothing: returns null.
 */
export async function recordResponse(
  trx: Db,
  c: LoadedCampaign,
  r: { memberId: number | null; phone: string; step: string; answer: string | null; raw: string; inboundId: number | null; partySize?: number; at: string; replaces: boolean },
): Promise<{ id: number; previous: PreviousAnswer | null } | null> {
  if (r.inboundId !== null) {
    const seen = await trx.selectFrom("campaign_responses").select("id").where("inbound_id", "=", r.inboundId).executeTakeFirst();
    if (seen) return null;
  }
  let previous: PreviousAnswer | null = null;
  if (r.replaces && r.memberId !== null) {
    const prev = await trx
      .selectFrom("campaign_responses")
      .select(["id", "answer", "party_size", "created_at"])
      .where("campaign_id", "=", c.id)
      .where("member_id", "=", r.memberId)
      .where("step", "=", r.step)
      .where("is_current", "=", 1)
      .executeTakeFirst();
    if (prev) {
      previous = { id: Number(prev.id), answer: prev.answer, partySize: Number(prev.party_size), createdAt: prev.created_at };
      await trx.updateTable("campaign_responses").set({ is_current: 0 }).where("id", "=", previous.id).execute();
      if (previous.answer !== null) await adjustCount(trx, c.id, previous.answer, -1, -previous.partySize);
    }
  }
  const party = r.partySize ?? 1;
  const row = await trx
    .insertInto("campaign_responses")
    .values({
      business_id: c.businessId,
      campaign_id: c.id,
      member_id: r.memberId,
      phone: r.phone,
      step: r.step,
      answer: r.answer,
      raw: r.raw.slice(0, 1600),
      inbound_id: r.inboundId,
      party_size: party,
      is_current: 1,
      created_at: r.at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (r.answer !== null) await adjustCount(trx, c.id, r.answer, 1, party);
  return { id: Number(row.id), previous };
}

/** Moves a recorded answer to another key (an acceptance becoming a waitlist place, or the reverse). */
export async function changeAnswer(trx: Db, c: LoadedCampaign, responseId: number, from: string | null, to: string, partySize: number): Promise<void> {
  await trx.updateTable("campaign_responses").set({ answer: to }).where("id", "=", responseId).execute();
  if (from !== null) await adjustCount(trx, c.id, from, -1, -partySize);
  await adjustCount(trx, c.id, to, 1, partySize);
}

/** The subscribed member with that id, or undefined. */
export function isSubscribed(member: Member | undefined): member is Member & { status: "SUBSCRIBED" } {
  return member?.status === "SUBSCRIBED";
}
