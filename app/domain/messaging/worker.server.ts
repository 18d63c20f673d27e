// Workers: claim due outbound rows atomically in batches, send them (send.server.ts), recover rows
// whose lease ran out (outcome unknown: reconcile with the provider before any resend), and process
// inbound texts. Several workers (in the web process, `npm run worker`, on other machines) share the
// load: PostgreSQL claims with FOR UPDATE SKIP LOCKED; SQLite claims inside BEGIN IMMEDIATE, which
// serialises writers across processes.
//
// Claim = one statement: status SENDING, lease_until, worker_id, attempts + 1, committed BEFORE the
// provider is called. A worker killed after the provider accepted a text but before recording it
// leaves the row SENDING; once its lease expires, recovery asks the provider (by our reference, the
// row id) and records SENT, or puts the row back to QUEUED only when the provider never had it.
import crypto from "node:crypto";
import os from "node:os";
import { sql, type Kysely } from "kysely";
import type { DB } from "#db/types";
import { claimRows, writeTransaction } from "#db/claim";
import type { SmsProvider } from "~/providers/sms/types";
import {
  applyRowChanges,
  backoffMs,
  CLAIMED_COLUMNS,
  finaliseMessages,
  lookUpAtProvider,
  sendClaimed,
  type ClaimedRow,
  type MessagingSettings,
  type RowChange,
} from "./send.server";
import { processInbound } from "./inbound-processing.server";
import { wakeDueSnoozed } from "~/domain/conversations/conversations.server";
import { NumberPacer } from "./pacing.server";
import type { WorkerRound } from "~/domain/jobs/round";

type Db = Kysely<DB>;

export interface WorkerDeps {
  db: Db;
  sms: SmsProvider;
  now: () => Date;
  config: { messaging: MessagingSettings & { sendDelaySeconds?: number; dmSendDelaySeconds?: number }; publicUrl?: string };
}

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${crypto.randomBytes(3).toString("hex")}`;
}

/** Claims up to `limit` due QUEUED rows, DMs and system texts first. */
export async function claimDue(db: Db, workerId: string, now: Date, leaseSeconds: number, limit: number): Promise<ClaimedRow[]> {
  const nowIso = now.toISOString();
  const lease = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
  const rows = await writeTransaction(db, async (conn) => {
    const claimed = await claimRows<ClaimedRow>(conn, {
      table: "outbound",
      set: sql`status = 'SENDING', lease_until = ${lease}, worker_id = ${workerId}, attempts = attempts + 1`,
      where: sql`status = 'QUEUED' and next_attempt_at <= ${nowIso}`,
      orderBy: sql`priority, id`,
      limit,
      returning: CLAIMED_COLUMNS,
    });
    const messageIds = [...new Set(claimed.map((r) => Number(r.message_id)))];
    if (messageIds.length) {
      await conn
        .updateTable("messages")
        .set({ status: "SENDING", updated_at: nowIso })
        .where("id", "in", messageIds)
        .where("status", "in", ["SCHEDULED", "SENDING_SOON"])
        .execute();
    }
    return claimed;
  });
  return rows.map(normalise).sort((a, b) => a.priority - b.priority || a.id - b.id);
}

/** Claims up to `limit` rows left SENDING with an expired lease (their worker died or timed out). */
export async function claimExpired(db: Db, workerId: string, now: Date, leaseSeconds: number, limit: number): Promise<ClaimedRow[]> {
  const nowIso = now.toISOString();
  const lease = new Date(now.getTime() + leaseSeconds * 1000).toISOString();
  const rows = await writeTransaction(db, (conn) =>
    claimRows<ClaimedRow>(conn, {
      table: "outbound",
      set: sql`lease_until = ${lease}, worker_id = ${workerId}`,
      where: sql`status = 'SENDING' and lease_until < ${nowIso}`,
      orderBy: sql`id`,
      limit,
      returning: CLAIMED_COLUMNS,
    }),
  );
  return rows.map(normalise);
}

function normalise(r: ClaimedRow): ClaimedRow {
  return {
    ...r,
    id: Number(r.id),
    message_id: Number(r.message_id),
    business_id: Number(r.business_id),
    member_id: r.member_id === null ? null : Number(r.member_id),
    segments: Number(r.segments),
    priority: Number(r.priority),
    attempts: Number(r.attempts),
    quiet_hours: Number(r.quiet_hours),
    charged: Number(r.charged),
  };
}

/**
 * Reconciles rows whose outcome is unknown with the provider's own record: found -> SENT/DELIVERED
 * (or FAILED if it says so) with its id; not found -> QUEUED again (now safe to send); provider
 * unreachable -> tried again later; provider without lookups -> UNKNOWN (never resent blindly).
 */
export async function recoverExpired(deps: WorkerDeps, workerId: string, limit: number): Promise<number> {
  const now = deps.now();
  const rows = await claimExpired(deps.db, workerId, now, deps.config.messaging.leaseSeconds, limit);
  if (!rows.length) return 0;
  let found;
  try {
    found = await lookUpAtProvider(
      deps.sms,
      rows.map((r) => ({ reference: String(r.id), from: r.from_phone, to: r.to_phone, body: r.body, sentAfter: new Date(Date.parse(r.created_at) - 60_000) })),
    );
  } catch (error) {
    // Cannot ask now: keep the rows SENDING and look again after a backoff.
    const at = deps.now();
    await applyRowChanges(
      deps.db,
      workerId,
      rows.map((r) => ({ id: r.id, status: "SENDING", leaseUntil: new Date(at.getTime() + backoffMs(deps.config.messaging.backoffMs, r.attempts)).toISOString(), errorCode: "RECONCILE", error: `reconciliation failed: ${(error as Error).message}` })),
    );
    return rows.length;
  }
  const at = deps.now().toISOString();
  const changes: RowChange[] = rows.map((r) => {
    if (found === null) return { id: r.id, status: "UNKNOWN", leaseUntil: null, errorCode: "UNKNOWN", error: "outcome unknown: the provider cannot be asked" };
    const f = found.get(String(r.id));
    if (!f) return { id: r.id, status: "QUEUED", nextAttemptAt: at, leaseUntil: null };
    if (f.status === "delivered") return { id: r.id, status: "DELIVERED", providerId: f.providerId, sentAt: at, deliveredAt: at, leaseUntil: null, errorCode: null, error: null };
    if (f.status === "failed") return { id: r.id, status: "FAILED", providerId: f.providerId, sentAt: at, leaseUntil: null, errorCode: f.errorCode ?? "UNDELIVERED", error: "undelivered" };
    return { id: r.id, status: "SENT", providerId: f.providerId, sentAt: at, leaseUntil: null, errorCode: null, error: null };
  });
  await applyRowChanges(deps.db, workerId, changes, deps.now());
  await finaliseMessages(deps.db, rows.map((r) => r.message_id), deps.now());
  return rows.length;
}

export interface TickResult {
  recovered: number;
  sent: number;
  inbound: number;
  /** Items handled by the other rounds. */
  other: number;
}

/** One round of work: recovery, one claimed batch, inbound texts. */
export class OutboundWorker {
  readonly id: string;
  private readonly pacer: NumberPacer;
  private stopping = false;
  private readonly wakers = new Set<() => void>();
  private loop: Promise<void> | null = null;

  /** Other rounds of background work (campaign fires, emails…), each run in a loop of its own by start(). */
  private readonly rounds: readonly WorkerRound[];

  constructor(private readonly deps: WorkerDeps, options: { id?: string; rounds?: readonly WorkerRound[] } = {}) {
    this.id = options.id ?? newWorkerId();
    this.pacer = new NumberPacer(deps.db, deps.config.messaging.ratePerSecond);
    this.rounds = options.rounds ?? [];
  }

  /** Recovery of expired leases, then one claimed batch sent (paced per number). */
  private async sendRound(): Promise<{ recovered: number; sent: number }> {
    const s = this.deps.config.messaging;
    const recovered = await recoverExpired(this.deps, this.id, s.batchSize);
    // With a rate limit, claim no more than a quarter of a lease's worth of sending.
    const limit = s.ratePerSecond > 0 ? Math.max(1, Math.min(s.batchSize, Math.floor((s.ratePerSecond * s.leaseSeconds) / 4))) : s.batchSize;
    const rows = await claimDue(this.deps.db, this.id, this.deps.now(), s.leaseSeconds, limit);
    const sent = await sendClaimed(this.deps, this.id, rows, this.pacer);
    return { recovered, sent };
  }

  /** Snoozed conversations whose time has come are woken here, not by the pages that read them. */
  private static readonly HOUSEKEEPING_MS = 15_000;
  private lastHousekeeping = -Infinity;

  private async inboundRound(): Promise<number> {
    const handled = await processInbound(this.deps, 100);
    const now = this.deps.now();
    if (now.getTime() - this.lastHousekeeping >= OutboundWorker.HOUSEKEEPING_MS) {
      this.lastHousekeeping = now.getTime();
      await wakeDueSnoozed(this.deps.db, now);
    }
    return handled;
  }

  async tick(): Promise<TickResult> {
    const { recovered, sent } = await this.sendRound();
    const inbound = await this.inboundRound();
    let other = 0;
    for (const round of this.rounds) other += await round.run();
    return { recovered, sent, inbound, other };
  }

  /** Works until nothing is due (tests, benchmarks). */
  async drain(maxRounds = 100_000): Promise<void> {
    for (let i = 0; i < maxRounds; i++) {
      const r = await this.tick();
      if (!r.recovered && !r.sent && !r.inbound && !r.other) return;
    }
  }

  /**
   * Two loops: sending (which waits on the per-number pace) and inbound texts. Kept apart so that a
   * paced bulk send never delays a STOP, a YES or a member's reply.
   */
  start(): void {
    if (this.loop) return;
    this.stopping = false;
    const run = async (round: () => Promise<number>) => {
      while (!this.stopping) {
        let busy = false;
        try {
          busy = (await round()) > 0;
        } catch (error) {
          console.error(`[worker ${this.id}]`, error instanceof Error ? error.stack ?? error.message : error);
        }
        if (!busy && !this.stopping) await this.idle();
      }
    };
    this.loop = Promise.all([
      run(async () => {
        const r = await this.sendRound();
        return r.recovered + r.sent;
      }),
      run(() => this.inboundRound()),
      ...this.rounds.map((round) => run(() => round.run())),
    ]).then(() => undefined);
  }

  private idle(): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, this.deps.config.messaging.pollMs);
      const wakers = this.wakers;
      function done() {
        clearTimeout(timer);
        wakers.delete(done);
        resolve();
      }
      wakers.add(done);
    });
  }

  /** Wakes the loops now (new work was queued in this process). */
  poke(): void {
    for (const wake of [...this.wakers]) wake();
  }

  /** Finishes the batch in hand, then stops. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.poke();
    await this.loop;
    this.loop = null;
  }
}
