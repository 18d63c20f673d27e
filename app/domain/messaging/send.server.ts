// The outbound pipeline, part 2: what a worker does with rows it has claimed (status SENDING, lease
// held, attempts already counted). Everything is batched: one guard query, one provider call
// (sendMany) where the provider can, one UPDATE per outcome kind, one finalising UPDATE.
//
// Order of checks before the provider, the last step:
//   1. the member-status guard (non-system rows need a SUBSCRIBED member: else FAILED "opted out",
//      credits refunded);
//   2. quiet hours (group and campaign rows go back to QUEUED until the window ends);
//   3. the lease (a row whose lease ran out is left alone: another worker may reconcile it);
//   4. the per-number pace (segments per second per from-number, shared by every worker: pacing.server.ts).
// Outcomes: accepted -> SENT or DELIVERED with provider_id; retryable -> QUEUED with exponential
// backoff until the attempt limit, then FAILED + refund; permanent -> FAILED + refund (Twilio 21610
// also opts the member out); outcome unknown (time-out after sending) -> left SENDING with a short
// lease so that recovery reconciles it with the provider before any resend.
// Every row update is conditional on (status = SENDING, worker_id = me), so a worker that lost its
// lease can never overwrite what another worker decided.
import { sql, type Kysely } from "kysely";
import type { DB, OutboundStatus } from "#db/types";
import { jsonRows, unindexed } from "#db/dialect";
import { refund } from "~/domain/billing/credits.server";
import { loadConsentBusiness, optOut } from "~/domain/consent/consent.server";
import type { FoundMessage, OutboundSms, ReferenceQuery, SendOutcome, SmsProvider } from "~/providers/sms/types";
import { SmsProviderError } from "~/providers/sms/types";
import { quietUntil } from "./quiet-hours";
import type { NumberPacer } from "./pacing.server";
import { recordStatusEvents, type StatusEventInput } from "~/domain/webhooks/events.server";
import type { MessageState } from "~/domain/webhooks/model";

type Db = Kysely<DB>;

export interface MessagingSettings {
  ratePerSecond: number;
  batchSize: number;
  pollMs: number;
  leaseSeconds: number;
  maxAttempts: number;
  backoffMs: number;
}

export interface SenderDeps {
  db: Db;
  sms: SmsProvider;
  now: () => Date;
  config: { messaging: MessagingSettings };
}

export interface ClaimedRow {
  id: number;
  message_id: number;
  business_id: number;
  member_id: number | null;
  to_phone: string;
  from_phone: string;
  body: string;
  segments: number;
  priority: number;
  attempts: number;
  quiet_hours: number;
  charged: number;
  lease_until: string | null;
  created_at: string;
}

export const CLAIMED_COLUMNS = sql.raw(
  "id, message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, attempts, quiet_hours, charged, lease_until, created_at",
);

/** One row's new state. Fields left undefined keep their value. */
export interface RowChange {
  id: number;
  status: OutboundStatus;
  providerId?: string | null;
  errorCode?: string | null;
  error?: string | null;
  sentAt?: string | null;
  deliveredAt?: string | null;
  nextAttemptAt?: string | null;
  leaseUntil?: string | null;
  /** Added to attempts (-1 when a claim is given back without trying the provider). */
  attemptsDelta?: number;
}

/**
 * Applies changes to rows this worker holds (status SENDING, worker_id = workerId), through one
 * JSON parameter. Returns the ids really changed.
 */
export async function applyRowChanges(db: Db, workerId: string, changes: RowChange[], now: Date = new Date()): Promise<number[]> {
  if (!changes.length) return [];
  // A row that reaches SENT, DELIVERED or FAILED is a message.status webhook event: the event's delivery rows are
  // written in the same transaction as the state, so neither exists without the other.
  if (db.isTransaction || !changes.some((c) => c.status in FINAL_STATES)) return applyRowChangesIn(db, workerId, changes, now);
  return db.transaction().execute((trx) => applyRowChangesIn(trx, workerId, changes, now));
}

const FINAL_STATES = { SENT: true, DELIVERED: true, FAILED: true } as const;

/** The webhook word for a row's new state ("undelivered" when the network could not deliver an accepted text). */
function messageState(status: string, error: string | null): MessageState | null {
  if (status === "SENT") return "sent";
  if (status === "DELIVERED") return "delivered";
  if (status === "FAILED") return error === "undelivered" ? "undelivered" : "failed";
  return null;
}

async function applyRowChangesIn(db: Db, workerId: string, changes: RowChange[], now: Date): Promise<number[]> {
  const changed: number[] = [];
  const events: StatusEventInput[] = [];
  for (let i = 0; i < changes.length; i += 2000) {
    const r = jsonRows(
      db,
      JSON.stringify(
        changes.slice(i, i + 2000).map((c) => [
          c.id,
          c.status,
          c.providerId ?? null,
          c.errorCode === undefined ? null : c.errorCode,
          c.error === undefined ? null : c.error?.slice(0, 500) ?? null,
          c.sentAt ?? null,
          c.deliveredAt ?? null,
          c.nextAttemptAt ?? null,
          c.leaseUntil ?? null,
          c.attemptsDelta ?? 0,
        ]),
      ),
    );
    // The row must still be this worker's: SENDING with worker_id = me. The status and worker columns are read
    // unindexed so that SQLite walks the JSON list and finds each row by primary key.
    const result = await sql<ChangedRow>`UPDATE outbound SET status = ${r.text(1)}, provider_id = COALESCE(${r.text(2)}, outbound.provider_id),
        error_code = ${r.text(3)}, error = ${r.text(4)}, sent_at = COALESCE(${r.text(5)}, outbound.sent_at),
        delivered_at = COALESCE(${r.text(6)}, outbound.delivered_at), next_attempt_at = COALESCE(${r.text(7)}, outbound.next_attempt_at),
        lease_until = ${r.text(8)}, attempts = outbound.attempts + ${r.int(9)}
        FROM ${r.from}
        WHERE outbound.id = ${r.int(0)} AND ${unindexed(db, "outbound.status")} = 'SENDING' AND ${unindexed(db, "outbound.worker_id")} = ${workerId}
        RETURNING outbound.id AS id, outbound.business_id AS business_id, outbound.message_id AS message_id, outbound.member_id AS member_id,
          outbound.to_phone AS to_phone, outbound.status AS status, outbound.error_code AS error_code, outbound.error AS error`.execute(db);
    for (const row of result.rows) {
      changed.push(Number(row.id));
      const state = messageState(row.status, row.error);
      if (state) events.push(statusEvent(row, state));
    }
  }
  if (events.length) await recordStatusEvents(db, events, now);
  return changed;
}

interface ChangedRow {
  id: number;
  business_id: number;
  message_id: number;
  member_id: number | null;
  to_phone: string;
  status: string;
  error_code: string | null;
  error: string | null;
}

function statusEvent(row: ChangedRow, state: MessageState): StatusEventInput {
  return {
    businessId: Number(row.business_id),
    outboundId: Number(row.id),
    messageId: Number(row.message_id),
    memberId: row.member_id === null ? null : Number(row.member_id),
    to: row.to_phone,
    state,
    errorCode: state === "failed" || state === "undelivered" ? row.error_code : null,
  };
}

/** Fails rows and refunds the credits of those that changed, in one transaction. */
export async function failAndRefund(
  db: Db,
  workerId: string,
  rows: ClaimedRow[],
  change: (row: ClaimedRow) => RowChange,
  now: Date,
  extra?: (trx: Db, changed: Set<number>) => Promise<void>,
): Promise<void> {
  if (!rows.length) return;
  await db.transaction().execute(async (trx) => {
    const changed = new Set(await applyRowChanges(trx, workerId, rows.map(change), now));
    const refunds = new Map<string, { businessId: number; messageId: number; credits: number }>();
    for (const r of rows) {
      if (!changed.has(r.id) || !r.charged || r.segments <= 0) continue;
      const key = `${r.business_id}:${r.message_id}`;
      const entry = refunds.get(key) ?? { businessId: r.business_id, messageId: r.message_id, credits: 0 };
      entry.credits += r.segments;
      refunds.set(key, entry);
    }
    for (const e of refunds.values()) {
      await refund(trx, e.businessId, e.credits, { reason: "failed-before-provider", reference: `message:${e.messageId}`, now });
    }
    if (extra) await extra(trx, changed);
  });
}

/** Marks messages COMPLETE or FAILED once none of their rows is QUEUED or SENDING. */
export async function finaliseMessages(db: Db, messageIds: Iterable<number>, now: Date): Promise<void> {
  const ids = [...new Set(messageIds)];
  for (let i = 0; i < ids.length; i += 500) {
    const slice = ids.slice(i, i + 500);
    await sql`UPDATE messages SET
        status = CASE WHEN EXISTS (SELECT 1 FROM outbound o WHERE o.message_id = messages.id AND o.status IN ('SENT', 'DELIVERED', 'UNKNOWN')) THEN 'COMPLETE' ELSE 'FAILED' END,
        error = CASE WHEN EXISTS (SELECT 1 FROM outbound o WHERE o.message_id = messages.id AND o.status IN ('SENT', 'DELIVERED', 'UNKNOWN')) THEN NULL
          ELSE (SELECT o.error FROM outbound o WHERE o.message_id = messages.id AND o.status = 'FAILED' ORDER BY o.id LIMIT 1) END,
        updated_at = ${now.toISOString()}
      WHERE id IN (${sql.join(slice)}) AND status NOT IN ('COMPLETE', 'FAILED')
        AND NOT EXISTS (SELECT 1 FROM outbound o WHERE o.message_id = messages.id AND o.status IN ('QUEUED', 'SENDING'))`.execute(db);
  }
}

/** Exponential backoff: base × 2^(attempts-1), capped at one hour, with ±20 % jitter. */
export function backoffMs(base: number, attempts: number): number {
  const raw = Math.min(3_600_000, base * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function callProvider(sms: SmsProvider, batch: OutboundSms[]): Promise<SendOutcome[]> {
  if (sms.sendMany) {
    try {
      return await sms.sendMany(batch);
    } catch (error) {
      // The whole call failed: we cannot know what was accepted.
      const e = error instanceof SmsProviderError ? error : new SmsProviderError(String((error as Error)?.message ?? error), { retryable: true, outcomeUnknown: true });
      return batch.map(() => ({ ok: false as const, error: e.outcomeUnknown ? e : new SmsProviderError(e.message, { retryable: e.retryable, providerCode: e.providerCode, reason: e.reason, outcomeUnknown: true }) }));
    }
  }
  const out = new Array<SendOutcome>(batch.length);
  const CONCURRENCY = 8;
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, batch.length) }, async () => {
      for (;;) {
        const i = next++;
        if (i >= batch.length) return;
        try {
          out[i] = { ok: true, result: await sms.send(batch[i]) };
        } catch (error) {
          out[i] = {
            ok: false,
            error:
              error instanceof SmsProviderError
                ? error
                : new SmsProviderError(String((error as Error)?.message ?? error), { retryable: true, outcomeUnknown: true }),
          };
        }
      }
    }),
  );
  return out;
}

function isOptOutError(e: SmsProviderError) {
  return e.providerCode === "21610" || e.reason === "opted-out";
}

/**
 * Sends rows this worker has claimed. Returns the number of rows handled (sent, failed, deferred).
 */
export async function sendClaimed(deps: SenderDeps, workerId: string, rows: ClaimedRow[], pacer: NumberPacer): Promise<number> {
  if (!rows.length) return 0;
  const { db } = deps;
  const settings = deps.config.messaging;
  const now = deps.now();
  const nowIso = now.toISOString();
  const touched = new Set<number>();
  for (const r of rows) touched.add(r.message_id);

  // 1. The member-status guard. System texts (opt-in requests, confirmations, help, PINs) are exempt.
  const messageIds = [...touched];
  const kinds = new Map<number, string>();
  for (let i = 0; i < messageIds.length; i += 500) {
    for (const m of await db.selectFrom("messages").select(["id", "kind"]).where("id", "in", messageIds.slice(i, i + 500)).execute()) kinds.set(m.id, m.kind);
  }
  const memberIds = [...new Set(rows.filter((r) => r.member_id !== null && kinds.get(r.message_id) !== "SYSTEM").map((r) => r.member_id!))];
  const statuses = new Map<number, string>();
  for (let i = 0; i < memberIds.length; i += 1000) {
    for (const m of await db.selectFrom("members").select(["id", "status"]).where("id", "in", memberIds.slice(i, i + 1000)).execute()) statuses.set(m.id, m.status);
  }
  const blocked: ClaimedRow[] = [];
  const deferred: RowChange[] = [];
  let ready: ClaimedRow[] = [];
  // 2. Quiet hours, per business.
  const quietBusinesses = [...new Set(rows.filter((r) => r.quiet_hours).map((r) => r.business_id))];
  const quietEnds = new Map<number, Date | null>();
  if (quietBusinesses.length) {
    for (const b of await db.selectFrom("businesses").select(["id", "quiet_start", "quiet_end"]).where("id", "in", quietBusinesses).execute()) {
      quietEnds.set(b.id, quietUntil(now, { start: b.quiet_start, end: b.quiet_end }));
    }
  }
  for (const r of rows) {
    const kind = kinds.get(r.message_id);
    if (kind !== "SYSTEM" && r.member_id !== null && statuses.get(r.member_id) !== "SUBSCRIBED") {
      blocked.push(r);
      continue;
    }
    const until = r.quiet_hours ? quietEnds.get(r.business_id) : null;
    if (until) {
      deferred.push({ id: r.id, status: "QUEUED", nextAttemptAt: until.toISOString(), leaseUntil: null, attemptsDelta: -1, errorCode: null, error: null });
      continue;
    }
    ready.push(r);
  }
  if (blocked.length) {
    await failAndRefund(db, workerId, blocked, (r) => ({
      id: r.id,
      status: "FAILED",
      errorCode: "OPTED_OUT",
      error: statuses.get(r.member_id!) === "DELETED" ? "deleted" : statuses.get(r.member_id!) === "PENDING" ? "pending opt-in" : "opted out",
      leaseUntil: null,
    }), now);
  }
  if (deferred.length) await applyRowChanges(db, workerId, deferred);

  // 3. The lease: never call the provider for a row another worker may already be reconciling.
  const safety = Math.min(5000, settings.leaseSeconds * 250);
  ready = ready.filter((r) => !r.lease_until || Date.parse(r.lease_until) - safety > now.getTime());

  // 4. Rate limit, then the provider, in chunks.
  const sent: RowChange[] = [];
  const retry: RowChange[] = [];
  const unknown: RowChange[] = [];
  const failed: Array<{ row: ClaimedRow; error: SmsProviderError }> = [];
  const handle = async (all: ClaimedRow[]) => {
    // Pacing takes time: never hand the provider a row whose lease is running out (recovery owns it).
    const nowMs = deps.now().getTime();
    const chunk = all.filter((r) => !r.lease_until || Date.parse(r.lease_until) - safety > nowMs);
    if (!chunk.length) return;
    const outcomes = await callProvider(
      deps.sms,
      chunk.map((r) => ({ from: r.from_phone, to: r.to_phone, body: r.body, reference: String(r.id) })),
    );
    const at = deps.now();
    const atIso = at.toISOString();
    chunk.forEach((r, i) => {
      const o = outcomes[i];
      if (o && o.ok) {
        const res = o.result;
        if (res.status === "delivered") sent.push({ id: r.id, status: "DELIVERED", providerId: res.providerId, sentAt: atIso, deliveredAt: atIso, leaseUntil: null, errorCode: null, error: null });
        else if (res.status === "failed") sent.push({ id: r.id, status: "FAILED", providerId: res.providerId, sentAt: atIso, leaseUntil: null, errorCode: res.errorCode ?? "UNDELIVERED", error: "undelivered" });
        else sent.push({ id: r.id, status: "SENT", providerId: res.providerId, sentAt: atIso, leaseUntil: null, errorCode: null, error: null });
        return;
      }
      const error = o ? o.error : new SmsProviderError("no outcome", { retryable: true, outcomeUnknown: true });
      if (error.outcomeUnknown) {
        // Reconcile before any resend: recovery picks it up once this short lease runs out.
        unknown.push({ id: r.id, status: "SENDING", leaseUntil: new Date(at.getTime() + backoffMs(settings.backoffMs, r.attempts)).toISOString(), errorCode: error.providerCode ?? "UNKNOWN", error: error.message });
      } else if (error.retryable && r.attempts < settings.maxAttempts) {
        retry.push({ id: r.id, status: "QUEUED", nextAttemptAt: new Date(at.getTime() + backoffMs(settings.backoffMs, r.attempts)).toISOString(), leaseUntil: null, errorCode: error.providerCode ?? null, error: error.message });
      } else {
        failed.push({ row: r, error });
      }
    });
  };
  if (settings.ratePerSecond <= 0) {
    for (let i = 0; i < ready.length; i += 1000) await handle(ready.slice(i, i + 1000));
  } else {
    // Each number's rows in claim order, up to a second's worth of segments at a time: reserve them in the shared
    // pace, wait until the reservation starts, send. Different numbers go side by side.
    const byNumber = new Map<string, ClaimedRow[]>();
    for (const r of ready) {
      const list = byNumber.get(r.from_phone);
      if (list) list.push(r);
      else byNumber.set(r.from_phone, [r]);
    }
    await Promise.all(
      [...byNumber].map(async ([number, list]) => {
        for (let i = 0; i < list.length; ) {
          const slice: ClaimedRow[] = [];
          let segments = 0;
          while (i < list.length && slice.length < 200) {
            const s = Math.max(1, list[i].segments);
            if (slice.length && segments + s > settings.ratePerSecond) break;
            slice.push(list[i++]);
            segments += s;
          }
          const wait = await pacer.reserve(number, segments, Date.now());
          if (wait > 0) await sleep(wait);
          await handle(slice);
        }
      }),
    );
  }

  const providerIds = sent.filter((c) => c.status === "SENT").map((c) => c.providerId!);
  await applyRowChanges(db, workerId, [...sent, ...retry, ...unknown], deps.now());
  if (failed.length) {
    const byId = new Map(failed.map((f) => [f.row.id, f.error]));
    const optOuts = failed.filter((f) => isOptOutError(f.error) && f.row.member_id !== null);
    await failAndRefund(
      db,
      workerId,
      failed.map((f) => f.row),
      (r) => {
        const e = byId.get(r.id)!;
        return { id: r.id, status: "FAILED", errorCode: e.providerCode ?? e.reason, error: isOptOutError(e) ? "opted out" : e.message, leaseUntil: null };
      },
      deps.now(),
      async (trx, changed) => {
        for (const f of optOuts) {
          if (!changed.has(f.row.id)) continue;
          const member = await trx.selectFrom("members").selectAll().where("id", "=", f.row.member_id!).where("business_id", "=", f.row.business_id).executeTakeFirst();
          if (!member) continue;
          const business = await loadConsentBusiness(trx, f.row.business_id);
          const evidence = `Provider refused the text: recipient opted out (${f.error.providerCode ?? "21610"})`;
          await optOut(trx, { business, phone: member.phone, member, channel: "SMS", evidence, confirm: false }, now);
        }
      },
    );
  }
  // Receipts that arrived before we recorded the provider id (fast providers) are applied now.
  if (providerIds.length && deps.sms.name !== "simulator") await applyStoredReceipts(db, providerIds, deps.now());
  await finaliseMessages(db, touched, deps.now());
  void nowIso;
  return rows.length;
}

/** Maps a provider's receipt word to a row state (null: not final yet). */
export function receiptState(status: string): "DELIVERED" | "FAILED" | null {
  const s = status.toLowerCase();
  if (s === "delivered" || s === "read") return "DELIVERED";
  if (s === "undelivered" || s === "failed") return "FAILED";
  return null;
}

/**
 * Applies a delivery receipt to the outbound row with that provider id (DELIVERED or FAILED; a
 * FAILED receipt after a DELIVERED one is ignored). Idempotent: replays change nothing. Returns
 * whether a row changed.
 */
export async function applyDeliveryReceipt(db: Db, receipt: { providerId: string; status: string; errorCode?: string | null }, now: Date): Promise<boolean> {
  const state = receiptState(receipt.status);
  if (!state) return false;
  const at = now.toISOString();
  // The state and its message.status webhook event commit together.
  const apply = async (trx: Db) => {
    const rows = await trx
      .updateTable("outbound")
      .set(state === "DELIVERED" ? { status: "DELIVERED", delivered_at: at } : { status: "FAILED", error_code: receipt.errorCode ?? "UNDELIVERED", error: "undelivered" })
      .where("provider_id", "=", receipt.providerId)
      .where("status", "in", state === "DELIVERED" ? ["SENT", "UNKNOWN", "FAILED"] : ["SENT", "UNKNOWN"])
      .returning(["id", "business_id", "message_id", "member_id", "to_phone", "status", "error_code", "error"])
      .execute();
    // The provider's own word says which failure it was: "failed" (never sent) or "undelivered" (sent, not delivered).
    const word: MessageState = state === "DELIVERED" ? "delivered" : receipt.status.toLowerCase() === "failed" ? "failed" : "undelivered";
    if (rows.length) await recordStatusEvents(trx, rows.map((r) => statusEvent(r, word)), now);
    return rows.length > 0;
  };
  return db.isTransaction ? apply(db) : db.transaction().execute(apply);
}

async function applyStoredReceipts(db: Db, providerIds: string[], now: Date) {
  for (let i = 0; i < providerIds.length; i += 500) {
    const receipts = await db
      .selectFrom("delivery_receipts")
      .select(["provider_id", "status", "error_code"])
      .where("provider_id", "in", providerIds.slice(i, i + 500))
      .orderBy("id")
      .execute();
    for (const r of receipts) await applyDeliveryReceipt(db, { providerId: r.provider_id, status: r.status, errorCode: r.error_code }, now);
  }
}

/**
 * Asks the provider about texts whose outcome is unknown. Returns null when the provider cannot be
 * asked at all (then the rows become UNKNOWN: never resent blindly).
 */
export async function lookUpAtProvider(sms: SmsProvider, queries: ReferenceQuery[]): Promise<Map<string, FoundMessage> | null> {
  if (sms.findByReferences) return sms.findByReferences(queries);
  if (sms.findMessages) {
    const found = new Map<string, FoundMessage>();
    const used = new Set<string>();
    for (const q of queries) {
      const list = await sms.findMessages({ from: q.from, to: q.to, since: q.sentAfter });
      const match = list.find((m) => m.body === q.body && !used.has(m.providerId));
      if (match) {
        used.add(match.providerId);
        found.set(q.reference, {
          providerId: match.providerId,
          status: match.state === "pending" ? "queued" : match.state,
          errorCode: match.errorCode,
        });
      }
    }
    return found;
  }
  return null;
}
