// Helpers for the messaging pipeline suites: a controllable clock, fast member seeding, an
// in-process worker on the simulator.
import type { Database } from "#db/index";
import { newMemberRef } from "~/domain/members/core.server";
import { OutboundWorker } from "~/domain/messaging/worker.server";
import { workerRounds } from "~/domain/jobs/index.server";
import type { MessagingSettings } from "~/domain/messaging/send.server";
import { SimulatorSmsProvider, setSimSetting } from "~/providers/sms/simulator.server";
import type { MemberStatus } from "#db/types";

export class Clock {
  t: number;
  constructor(start: Date) {
    this.t = start.getTime();
  }
  now = () => new Date(this.t);
  advance(ms: number) {
    this.t += ms;
  }
  set(d: Date) {
    this.t = d.getTime();
  }
}

/** Today at 12:00 UTC: inside UK daytime whatever the season, near the real date (trials are relative to it). */
export function middayToday(): Date {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), 12, 0, 0));
}

export const TEST_SETTINGS: MessagingSettings = {
  ratePerSecond: 0,
  batchSize: 500,
  pollMs: 20,
  leaseSeconds: 30,
  maxAttempts: 4,
  backoffMs: 1000,
};

let phoneSeq = 0;
/** Distinct valid UK mobiles for bulk seeding. */
export function bulkPhone(): string {
  phoneSeq++;
  return `+44790${String(process.pid % 100).padStart(2, "0")}${String(phoneSeq).padStart(5, "0")}`;
}

export async function seedMembers(
  db: Database,
  businessId: number,
  count: number,
  options: { status?: MemberStatus; firstName?: (i: number) => string | null; now?: Date } = {},
): Promise<Array<{ id: number; phone: string }>> {
  const at = (options.now ?? new Date()).toISOString();
  const out: Array<{ id: number; phone: string }> = [];
  for (let i = 0; i < count; i += 500) {
    const rows = Array.from({ length: Math.min(500, count - i) }, (_, k) => ({
      business_id: businessId,
      phone: bulkPhone(),
      first_name: options.firstName ? options.firstName(i + k) : `Member${i + k}`,
      full_name: null,
      status: options.status ?? "SUBSCRIBED",
      unique_ref: newMemberRef(),
      joined_at: at,
      invited_at: null,
      opted_out_at: null,
      created_at: at,
      updated_at: at,
    }));
    const inserted = await db.insertInto("members").values(rows).returning(["id", "phone"]).execute();
    out.push(...inserted.map((r) => ({ id: Number(r.id), phone: r.phone })));
  }
  return out;
}

export function makeWorker(db: Database, clock: Clock, settings: Partial<MessagingSettings> = {}) {
  const sms = new SimulatorSmsProvider(db, clock.now);
  return new OutboundWorker({ db, sms, now: clock.now, config: { messaging: { ...TEST_SETTINGS, ...settings } } });
}

export function pipelineDeps(db: Database, clock: Clock, sendDelaySeconds = 60) {
  return { db, now: clock.now, config: { messaging: { sendDelaySeconds } } };
}

export { setSimSetting };

/** How many texts each phone received at the simulator. */
export async function simCounts(db: Database): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("sim_messages")
    .select(["phone", (eb) => eb.fn.countAll<number>().as("n")])
    .where("direction", "=", "TO_PHONE")
    .groupBy("phone")
    .execute();
  return new Map(rows.map((r) => [r.phone, Number(r.n)]));
}

/**
 * Sends everything the pipeline has queued (PINs, codes, opt-in texts…) through the simulator, as a worker would.
 * Its clock is set far ahead so that every queued row is due whatever time the test's own clock says.
 */
export async function deliverQueued(db: Database): Promise<void> {
  const later = () => new Date("2100-01-01T12:00:00.000Z");
  const sms = new SimulatorSmsProvider(db, later);
  await new OutboundWorker({ db, sms, now: later, config: { messaging: TEST_SETTINGS } }).drain();
}

/**
 * A worker that also runs the background rounds (campaign fires…), with the pipeline's pauses given:
 * `sendDelaySeconds` for group and campaign texts, 5 s for replies.
 */
export function makeFullWorker(db: Database, clock: Clock, sendDelaySeconds = 0) {
  const sms = new SimulatorSmsProvider(db, clock.now);
  const config = { messaging: { ...TEST_SETTINGS, sendDelaySeconds, dmSendDelaySeconds: 5 } };
  return new OutboundWorker({ db, sms, now: clock.now, config }, { rounds: workerRounds({ db, now: clock.now, config }) });
}
