// Inbound processing: a worker step over the texts the webhooks stored (inbound_messages with processed_at
// NULL, deduplicated by provider id on arrival), oldest first, in batches.
//
// What a text means (STOP and other objections, START, HELP, the join keyword, campaign keywords and answers,
// the conversation) is decided by the inbound router (app/domain/inbound); member status changes go through the
// consent service. This module only claims texts, loads what a batch needs, calls the router and records the
// outcome.
//
// Each batch is one transaction that first claims its texts (processed_at set only if still NULL): a replayed or
// concurrently seen row changes nothing. Replies are queued as outbound rows in the same transaction, so they are
// sent exactly once by the pipeline. A text waits while an older text from the same phone to the same business is
// unprocessed, so STOP and START keep their order.
import { sql, type Kysely } from "kysely";
import type { DB, Member } from "#db/types";
import { isPostgresDb } from "#db/index";
import { skipLocked } from "#db/claim";
import { findMemberByPhone } from "~/domain/members/core.server";
import { recordInboundEvents, type InboundEventInput } from "~/domain/webhooks/events.server";
import { inboundRouter, type InboundKind, type PipelineSettings, type RouteResult, type RouterBusiness } from "~/domain/inbound/index.server";

type Db = Kysely<DB>;

export { STOP_WORDS, START_WORDS, HELP_WORDS } from "~/domain/consent/objection";
export type { InboundKind };

/** The keyword a text is, if it is a single word: upper case, accents and surrounding punctuation removed. */
export function keywordOf(body: string): string | null {
  const word = body
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, "")
    .toUpperCase();
  if (!word || !/^[A-Z0-9]+$/.test(word)) return null;
  return word;
}

interface InboundDeps {
  db: Db;
  now: () => Date;
  /** The pipeline's pauses, for replies the router's handlers queue (campaign thank-yous); defaults otherwise. */
  config?: { messaging: { sendDelaySeconds?: number; dmSendDelaySeconds?: number }; publicUrl?: string };
}

function pipelineSettings(deps: InboundDeps): PipelineSettings | undefined {
  const m = deps.config?.messaging;
  if (!m || m.sendDelaySeconds === undefined) return undefined;
  return { sendDelaySeconds: m.sendDelaySeconds, dmSendDelaySeconds: m.dmSendDelaySeconds, publicUrl: deps.config?.publicUrl };
}

/** Processes up to `limit` unprocessed inbound texts. Returns how many were handled. */
export async function processInbound(deps: InboundDeps, limit = 100): Promise<number> {
  let handled = 0;
  while (handled < limit) {
    const now = deps.now();
    let claimed: ClaimedText[] = [];
    let n: number;
    try {
      // One transaction per batch: claim up to INBOUND_BATCH texts in one statement, look their businesses
      // and members up in one query each, handle them, record their kinds grouped, commit once.
      n = await deps.db.transaction().execute(async (trx) => {
        claimed = await claimBatch(trx, now, Math.min(INBOUND_BATCH, limit - handled));
        if (claimed.length) await handleBatch(trx, now, claimed, pipelineSettings(deps));
        return claimed.length;
      });
    } catch (error) {
      if (!claimed.length) throw error;
      // The batch was rolled back. One bad text must not hold back the others: one text per transaction,
      // and a text that fails on its own has the failure counted (set aside at the limit).
      let any = false;
      let failed = false;
      for (const row of claimed) {
        try {
          if (await processOne(deps, row.id)) {
            handled++;
            any = true;
          }
        } catch (textError) {
          failed = true;
          await recordFailure(deps, row.id, textError);
        }
      }
      // A failing text is tried again on a later round, not at once.
      if (!any || failed) break;
      continue;
    }
    if (n === 0) break;
    handled += n;
    // Let requests waiting for the database (webhooks, pages) go first between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return handled;
}

const INBOUND_BATCH = 25;
/** Failures of one text before it is set aside. */
export const INBOUND_MAX_ATTEMPTS = 5;

/**
 * Counts a failed attempt at one text; at INBOUND_MAX_ATTEMPTS the text is set aside: processed, kind ERROR,
 * the error kept, and logged for the operator. When the database itself is failing nothing is counted, so an
 * outage never sets texts aside.
 */
async function recordFailure(deps: InboundDeps, inboundId: number, error: unknown): Promise<void> {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
  try {
    const row = await deps.db
      .updateTable("inbound_messages")
      .set((eb) => ({
        attempts: eb("attempts", "+", 1),
        error: message,
        processed_at: sql<string | null>`case when ${eb.ref("attempts")} + 1 >= ${INBOUND_MAX_ATTEMPTS} then ${deps.now().toISOString()} else null end`,
        kind: sql<string | null>`case when ${eb.ref("attempts")} + 1 >= ${INBOUND_MAX_ATTEMPTS} then 'ERROR' else ${eb.ref("kind")} end`,
      }))
      .where("id", "=", inboundId)
      .where("processed_at", "is", null)
      .returning(["attempts", "processed_at"])
      .executeTakeFirst();
    if (row?.processed_at) console.error(`[inbound] text ${inboundId} set aside after ${row.attempts} failed attempts: ${message}`);
  } catch {
    // The database itself is failing: nothing is counted.
  }
}

/** Processes one inbound text. False when it was already processed or must wait for an older one. */
export async function processOne(deps: InboundDeps, inboundId: number): Promise<boolean> {
  const now = deps.now();
  return deps.db.transaction().execute(async (trx) => {
    const row = await claimOne(trx, now, inboundId);
    if (!row) return false;
    const business = await trx.selectFrom("businesses").select(BUSINESS_COLUMNS).where("id", "=", row.business_id).executeTakeFirst();
    if (!business) return true;
    const member = await findMemberByPhone(trx, business.id, row.from_number);
    const preloaded = await inboundRouter.preload(trx, [row], new Map([[business.id, business]]));
    const outcome = await inboundRouter.route(trx, now, row, business, member, preloaded, pipelineSettings(deps));
    await recordOutcomes(trx, [[row.id, outcome]]);
    await recordInboundEvents(trx, [inboundEvent(row, business, outcome)], now);
    return true;
  });
}

const BUSINESS_COLUMNS = ["id", "name", "locale", "phone_number", "join_keyword", "opt_in_message", "opt_out_message", "help_message"] as const;
type BusinessRow = RouterBusiness;
type ClaimedText = { id: number; business_id: number; from_number: string; body: string; received_at: string };
const CLAIMED_COLUMNS = ["id", "business_id", "from_number", "body", "received_at"] as const;

/** No older text from the same phone to the same business is still waiting (texts from one phone are handled in order). */
function noOlderPending(alias: "im" | "c") {
  return sql<boolean>`not exists (select 1 from inbound_messages as older where older.processed_at is null and older.id < ${sql.ref(`${alias}.id`)} and older.business_id = ${sql.ref(`${alias}.business_id`)} and older.from_number = ${sql.ref(`${alias}.from_number`)})`;
}

/** Claims one text in one statement: only while it is unprocessed and no older text from its phone waits. */
async function claimOne(trx: Db, now: Date, inboundId: number): Promise<ClaimedText | undefined> {
  return trx
    .updateTable("inbound_messages as im")
    .set({ processed_at: now.toISOString() })
    .where("im.id", "=", inboundId)
    .where("im.processed_at", "is", null)
    .where(noOlderPending("im"))
    .returning([...CLAIMED_COLUMNS])
    .executeTakeFirst();
}

/** How many of the oldest waiting texts a batch claim looks at. */
const CLAIM_WINDOW = 200;

/**
 * Claims up to `limit` texts, oldest first, in one statement: each the oldest waiting text from its phone
 * to its business, so a batch never holds two texts from one phone. Only the CLAIM_WINDOW oldest waiting
 * texts are looked at: an older waiting text from the same phone is always among them, so the check costs
 * the same however long the backlog. On PostgreSQL the chosen texts are locked with SKIP LOCKED, so workers
 * sharing the queue take different texts; a text another worker holds still counts as waiting for its
 * phone's newer texts (the window is read without skipping), which keeps each phone's texts in order.
 */
async function claimBatch(trx: Db, now: Date, limit: number): Promise<ClaimedText[]> {
  const pg = isPostgresDb(trx);
  // The claim must read the waiting texts in index order and stop after CLAIM_WINDOW rows. Left to itself the
  // planner goes by statistics that lag behind a burst (after it, they say almost nothing waits: a bitmap scan
  // and a sort of every waiting text; later, that most rows wait: a sequential scan), so both are off for
  // this transaction, whose other statements are all primary-key or index lookups.
  if (pg) await sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true)`.execute(trx);
  const lock = skipLocked(trx);
  const { rows } = await sql<ClaimedText>`
    with waiting as (
      select id, business_id, from_number from inbound_messages where processed_at is null order by id limit ${CLAIM_WINDOW}
    )
    update inbound_messages set processed_at = ${now.toISOString()}
    where id in (
      select c.id from inbound_messages as c
      where c.processed_at is null
        and c.id in (
          select w.id from waiting as w
          where not exists (
            select 1 from waiting as o where o.id < w.id and o.business_id = w.business_id and o.from_number = w.from_number
          )
          order by w.id
          limit ${limit * 4}
        )
      order by c.id
      limit ${limit}${lock}
    )
    and processed_at is null
    returning id, business_id, from_number, body, received_at`.execute(trx);
  return rows.map((r) => ({ ...r, id: Number(r.id), business_id: Number(r.business_id) })).sort((x, y) => x.id - y.id);
}

/** Handles claimed texts (at most one per phone and business) inside the caller's transaction. */
async function handleBatch(trx: Db, now: Date, rows: ClaimedText[], pipeline?: PipelineSettings): Promise<void> {
  const businessIds = [...new Set(rows.map((r) => r.business_id))];
  const businesses = new Map<number, BusinessRow>();
  for (const b of await trx.selectFrom("businesses").select(BUSINESS_COLUMNS).where("id", "in", businessIds).execute()) businesses.set(b.id, b);
  const members = new Map<string, Member>();
  for (const businessId of businessIds) {
    const phones = [...new Set(rows.filter((r) => r.business_id === businessId).map((r) => r.from_number))];
    const found = await trx.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "in", phones).execute();
    for (const m of found) members.set(`${businessId}:${m.phone}`, m);
  }
  const preloaded = await inboundRouter.preload(trx, rows, businesses);
  const outcomes: Array<[number, RouteResult]> = [];
  const events: InboundEventInput[] = [];
  for (const row of rows) {
    const business = businesses.get(row.business_id);
    if (!business) continue;
    const outcome = await inboundRouter.route(trx, now, row, business, members.get(`${business.id}:${row.from_number}`), preloaded, pipeline);
    outcomes.push([row.id, outcome]);
    events.push(inboundEvent(row, business, outcome));
  }
  await recordOutcomes(trx, outcomes);
  await recordInboundEvents(trx, events, now);
}

/** The message.received webhook event for a routed text, written in the same transaction as its outcome. */
function inboundEvent(row: ClaimedText, business: BusinessRow, outcome: RouteResult): InboundEventInput {
  return {
    businessId: business.id,
    inboundId: row.id,
    from: row.from_number,
    to: business.phone_number,
    body: row.body,
    receivedAt: row.received_at,
    memberId: outcome.memberId ?? null,
    kind: outcome.kind,
  };
}

/** Writes each text's kind, member, flag and campaign: one statement per distinct outcome. */
async function recordOutcomes(trx: Db, outcomes: ReadonlyArray<readonly [number, RouteResult]>): Promise<void> {
  const groups = new Map<string, { result: RouteResult; ids: number[] }>();
  for (const [id, result] of outcomes) {
    const key = `${result.kind}:${result.memberId ?? ""}:${result.flag ?? ""}:${result.campaignId ?? ""}`;
    const entry = groups.get(key);
    if (entry) entry.ids.push(id);
    else groups.set(key, { result, ids: [id] });
  }
  for (const { result, ids } of groups.values()) {
    await trx
      .updateTable("inbound_messages")
      .set({ member_id: result.memberId, kind: result.kind, flag: result.flag ?? null, campaign_id: result.campaignId ?? null })
      .where("id", "in", ids)
      .execute();
  }
}
