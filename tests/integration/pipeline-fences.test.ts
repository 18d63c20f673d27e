// The guarantees that keep a text from being sent twice or lost, each checked on both databases: a worker whose
// lease ran out cannot overwrite what another worker recovered; a row whose lease is about to run out is not
// handed to the provider; every STOP word opts out; a repeated STOP from a non-member is confirmed once; the
// per-text fallback claim never processes one text twice, even with two workers at it at once.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";
import { Clock, middayToday, pipelineDeps, seedMembers, TEST_SETTINGS, makeWorker } from "../support/pipeline";
import { createMessage } from "~/domain/messaging/outbound.server";
import { applyRowChanges, sendClaimed } from "~/domain/messaging/send.server";
import { claimDue, claimExpired } from "~/domain/messaging/worker.server";
import { NumberPacer } from "~/domain/messaging/pacing.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { processInbound, processOne } from "~/domain/messaging/inbound-processing.server";
import { STOP_WORDS } from "~/domain/consent/objection";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";
import { SimulatorSmsProvider } from "~/providers/sms/simulator.server";
import type { Database } from "#db/index";

describe.each(DIALECTS)("pipeline fences (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let n = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  async function queuedDm(db: Database) {
    const businessId = await createBusiness(db, { trialCredits: 1000 });
    const [m] = await seedMembers(db, businessId, 1);
    await createMessage(pipelineDeps(db, clock, 0), { businessId, kind: "DM", body: "Hello", recipients: [m.id] });
    clock.advance(1000);
    return { businessId, member: m };
  }

  it("a worker whose lease ran out cannot overwrite the row another worker recovered", async () => {
    const { member } = await queuedDm(t.db);
    const [mine] = (await claimDue(t.db, "worker-a", clock.now(), 30, 10)).filter((r) => r.member_id === member.id);
    expect(mine).toBeDefined();
    clock.advance(31_000);
    const recovered = (await claimExpired(t.db, "worker-b", clock.now(), 30, 10)).filter((r) => r.id === mine.id);
    expect(recovered).toHaveLength(1);
    // Worker A wakes up late and tries to record a failure: nothing changes.
    const changed = await applyRowChanges(t.db, "worker-a", [{ id: mine.id, status: "FAILED", errorCode: "LATE", error: "late", leaseUntil: null }]);
    expect(changed).toEqual([]);
    const row = await t.db.selectFrom("outbound").select(["status", "worker_id", "error_code"]).where("id", "=", mine.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "SENDING", worker_id: "worker-b", error_code: null });
    // Worker B, which holds it, can.
    expect(await applyRowChanges(t.db, "worker-b", [{ id: mine.id, status: "SENT", providerId: "SMx", leaseUntil: null }])).toEqual([mine.id]);
  });

  it("does not hand the provider a row whose lease is about to run out", async () => {
    const { member } = await queuedDm(t.db);
    // Claimed with a 3-second lease: inside the sender's safety margin (5 s at a 30 s lease setting).
    const rows = (await claimDue(t.db, "worker-a", clock.now(), 3, 10)).filter((r) => r.member_id === member.id);
    expect(rows).toHaveLength(1);
    const sms = new SimulatorSmsProvider(t.db, clock.now);
    let calls = 0;
    const counting = Object.assign(Object.create(Object.getPrototypeOf(sms)), sms, {
      send: (...args: Parameters<typeof sms.send>) => {
        calls++;
        return sms.send(...args);
      },
      sendMany: undefined,
    });
    const deps = { db: t.db, sms: counting, now: clock.now, config: { messaging: { ...TEST_SETTINGS, ratePerSecond: 0 } } };
    await sendClaimed(deps, "worker-a", rows, new NumberPacer(t.db, 0));
    expect(calls).toBe(0);
    expect(await textsReceivedBy(t.db, member.phone)).toHaveLength(0);
    const row = await t.db.selectFrom("outbound").select(["status"]).where("id", "=", rows[0].id).executeTakeFirstOrThrow();
    expect(row.status).toBe("SENDING"); // left for recovery, which asks the provider before any resend
  });

  async function text(db: Database, from: string, to: string, body: string) {
    clock.advance(1000);
    return receiveInbound({ db }, { providerId: `SMf${dialect}${++n}${Date.now()}`, from, to, body, receivedAt: clock.now() });
  }

  it.each([...STOP_WORDS])("opts a member out on %s", async (word) => {
    const businessId = await createBusiness(t.db);
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const [m] = await seedMembers(t.db, businessId, 1);
    await text(t.db, m.phone, biz, word.toLowerCase());
    await processInbound({ db: t.db, now: clock.now });
    const row = await t.db.selectFrom("members").select("status").where("id", "=", m.id).executeTakeFirstOrThrow();
    expect(row.status).toBe("OPTED_OUT");
  });

  it("confirms a repeated STOP from a number that is not a member once", async () => {
    const businessId = await createBusiness(t.db);
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const p = ukMobile();
    await text(t.db, p, biz, "STOP");
    await text(t.db, p, biz, "stop");
    await text(t.db, p, biz, "STOP!");
    await processInbound({ db: t.db, now: clock.now });
    await makeWorker(t.db, clock).drain();
    expect(await textsReceivedBy(t.db, p)).toHaveLength(1);
    const log = await t.db.selectFrom("consent_log").select("action").where("business_id", "=", businessId).where("phone", "=", p).execute();
    expect(log.map((l) => l.action)).toEqual(["OPTED_OUT"]);
  });

  it("never processes one text twice when two workers take the per-text path at once", async () => {
    const businessId = await createBusiness(t.db);
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const p = ukMobile();
    const stored = await text(t.db, p, biz, "JOIN");
    if (stored.outcome !== "stored") throw new Error("not stored");
    const results = await Promise.all([processOne({ db: t.db, now: clock.now }, stored.message.id), processOne({ db: t.db, now: clock.now }, stored.message.id)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const members = await t.db.selectFrom("members").select("id").where("business_id", "=", businessId).where("phone", "=", p).execute();
    expect(members).toHaveLength(1);
    const queued = await t.db.selectFrom("outbound").select("id").where("to_phone", "=", p).execute();
    expect(queued).toHaveLength(1);
  });

  it("wakes a snoozed conversation whose time has come in the worker, not on read", async () => {
    const businessId = await createBusiness(t.db);
    const [m] = await seedMembers(t.db, businessId, 1);
    await t.db
      .insertInto("conversations")
      .values({ business_id: businessId, member_id: m.id, state: "SNOOZED", snoozed_until: new Date(clock.now().getTime() - 1000).toISOString(), last_message_at: clock.now().toISOString(), unread_count: 0 })
      .execute();
    await makeWorker(t.db, clock).tick();
    const row = await t.db.selectFrom("conversations").select(["state", "snoozed_until"]).where("member_id", "=", m.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ state: "UNREAD", snoozed_until: null });
  });
});
