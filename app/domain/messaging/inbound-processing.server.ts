// Inbound processing: a worker step over the texts the webhooks stored (inbound_messages with
// processed_at NULL, deduplicated by provider id on arrival), oldest first.
//
// A text that is a single compliance keyword (any case; surrounding spaces and punctuation ignored):
//   STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, ARRET -> opt out, confirmation once
//   START, UNSTOP, YES (OUI)  -> rejoin an opted-out member or confirm a pending opt-in, welcome text
//   HELP, INFO                -> the help text
// The business's join keyword from an unknown (or opted-out, or deleted) number starts the double
// opt-in: member PENDING + the opt-in request. Any other text from a member opens or re-activates
// the DM conversation as unread. Every opt-in and opt-out is written to consent_log.
//
// Each text is processed in one transaction that first claims it (processed_at set only if still
// NULL): a replayed or concurrently seen row changes nothing. Replies are queued as SYSTEM outbound
// rows in the same transaction, so they are sent exactly once by the pipeline. A text waits while an
// older text from the same phone to the same business is unprocessed, so STOP/START keep their order.
import { sql, type Kysely } from "kysely";
import type { DB, Member } from "#db/types";
import { isPostgresDb } from "#db/index";
import { skipLocked } from "#db/claim";
import { findMemberByPhone, insertMember, logConsent, transitionMember } from "~/domain/members/core.server";
import en from "~/locales/en-GB/pipeline.json";
import fr from "~/locales/fr/pipeline.json";
import { enqueueSystemText } from "./outbound.server";

type Db = Kysely<DB>;

export const STOP_WORDS = new Set(["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "ARRET"]);
export const START_WORDS = new Set(["START", "UNSTOP", "YES", "OUI"]);
export const HELP_WORDS = new Set(["HELP", "INFO", "AIDE"]);

export type InboundKind = "STOP" | "START" | "HELP" | "JOIN" | "MESSAGE" | "UNKNOWN_SENDER";

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

type SmsTexts = typeof en.sms;
function texts(locale: string): SmsTexts {
  return locale === "fr" ? fr.sms : en.sms;
}
function fill(template: string, business: string): string {
  return template.replace(/\{\{\s*business\s*\}\}/g, business);
}

interface InboundDeps {
  db: Db;
  now: () => Date;
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
        if (claimed.length) await handleBatch(trx, now, claimed);
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
    const outcome = await handleText(trx, now, row, business, member);
    await trx.updateTable("inbound_messages").set({ member_id: outcome.memberId, kind: outcome.kind }).where("id", "=", row.id).execute();
    return true;
  });
}

const BUSINESS_COLUMNS = ["id", "name", "locale", "phone_number", "join_keyword", "opt_in_message", "opt_out_message", "help_message"] as const;
type BusinessRow = { id: number; name: string; locale: string; phone_number: string | null; join_keyword: string; opt_in_message: string | null; opt_out_message: string | null; help_message: string | null };
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
async function handleBatch(trx: Db, now: Date, rows: ClaimedText[]): Promise<void> {
  const businessIds = [...new Set(rows.map((r) => r.business_id))];
  const businesses = new Map<number, BusinessRow>();
  for (const b of await trx.selectFrom("businesses").select(BUSINESS_COLUMNS).where("id", "in", businessIds).execute()) businesses.set(b.id, b);
  const members = new Map<string, Member>();
  for (const businessId of businessIds) {
    const phones = [...new Set(rows.filter((r) => r.business_id === businessId).map((r) => r.from_number))];
    const found = await trx.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "in", phones).execute();
    for (const m of found) members.set(`${businessId}:${m.phone}`, m);
  }
  // The kind and member of each text, written in one statement per distinct pair.
  const outcomes = new Map<string, { kind: InboundKind; memberId: number | null; ids: number[] }>();
  for (const row of rows) {
    const business = businesses.get(row.business_id);
    if (!business) continue;
    const outcome = await handleText(trx, now, row, business, members.get(`${business.id}:${row.from_number}`));
    const key = `${outcome.kind}:${outcome.memberId ?? ""}`;
    const entry = outcomes.get(key);
    if (entry) entry.ids.push(row.id);
    else outcomes.set(key, { ...outcome, ids: [row.id] });
  }
  for (const { kind, memberId, ids } of outcomes.values()) {
    await trx.updateTable("inbound_messages").set({ member_id: memberId, kind }).where("id", "in", ids).execute();
  }
}

/** What one text means for its member and business: keywords, the double opt-in, conversations. */
async function handleText(trx: Db, now: Date, row: ClaimedText, business: BusinessRow, found: Member | undefined): Promise<{ kind: InboundKind; memberId: number | null }> {
  let member = found;
  const t = texts(business.locale);
  const phone = row.from_number;
  const evidence = row.body.slice(0, 500);
  const send = (body: string, memberId: number | null) => enqueueSystemText(trx, { businessId: business.id, to: phone, body, memberId, now, fromPhone: business.phone_number });
  const optInRequest = () => (business.opt_in_message?.trim() ? business.opt_in_message : fill(t.optInRequest, business.name));
  const welcome = () => fill(t.welcome, business.name);
  const optOutText = () => (business.opt_out_message?.trim() ? business.opt_out_message : fill(t.optOut, business.name));

  const word = keywordOf(row.body);
  const joinWord = (business.join_keyword || "JOIN").trim().toUpperCase();
  let kind: InboundKind;
  const base = { businessId: business.id, phone, channel: "SMS" as const, evidence, now };
  if (word && STOP_WORDS.has(word)) {
    kind = "STOP";
    if (member) {
      if (await transitionMember(trx, member, "OPTED_OUT", ["PENDING", "SUBSCRIBED", "DELETED"], now)) {
        await logConsent(trx, { ...base, memberId: member.id, action: "OPTED_OUT" });
        await send(optOutText(), member.id);
      }
    } else {
      // Not a member: remember the opt-out (so nobody re-adds the number) and confirm once.
      const last = await trx
        .selectFrom("consent_log")
        .select("action")
        .where("business_id", "=", business.id)
        .where("phone", "=", phone)
        .orderBy("id", "desc")
        .limit(1)
        .executeTakeFirst();
      if (last?.action !== "OPTED_OUT") {
        await logConsent(trx, { ...base, memberId: null, action: "OPTED_OUT" });
        await send(optOutText(), null);
      }
    }
  } else if (word && START_WORDS.has(word) && member && member.status !== "SUBSCRIBED") {
    kind = "START";
    const wasPending = member.status === "PENDING";
    if (await transitionMember(trx, member, "SUBSCRIBED", ["PENDING", "OPTED_OUT", "DELETED"], now)) {
      await logConsent(trx, { ...base, memberId: member.id, action: wasPending ? "OPTED_IN" : "REJOINED" });
      await send(welcome(), member.id);
    }
  } else if (word && HELP_WORDS.has(word)) {
    kind = "HELP";
    await send(business.help_message?.trim() ? business.help_message : fill(t.help, business.name), member?.id ?? null);
  } else if (word === joinWord && (!member || member.status !== "SUBSCRIBED")) {
    kind = "JOIN";
    if (!member) {
      member = await insertMember(trx, { businessId: business.id, phone, status: "PENDING", now });
      await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
      await send(optInRequest(), member.id);
    } else if (member.status === "PENDING") {
      // Asked again: send the request again, nothing else changes.
      await send(optInRequest(), member.id);
    } else if (await transitionMember(trx, member, "PENDING", ["OPTED_OUT", "DELETED"], now)) {
      await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
      await send(optInRequest(), member.id);
    }
  } else if (word && START_WORDS.has(word) && !member) {
    kind = "UNKNOWN_SENDER";
  } else if (member) {
    kind = "MESSAGE";
    await trx
      .insertInto("conversations")
      .values({ business_id: business.id, member_id: member.id, state: "UNREAD", last_message_at: row.received_at, unread_count: 1 })
      .onConflict((oc) =>
        oc.columns(["business_id", "member_id"]).doUpdateSet((eb) => ({
          state: "UNREAD",
          last_message_at: eb.ref("excluded.last_message_at"),
          unread_count: eb(eb.ref("conversations.unread_count"), "+", 1),
        })),
      )
      .execute();
  } else {
    kind = "UNKNOWN_SENDER";
  }
  return { kind, memberId: member?.id ?? null };
}
