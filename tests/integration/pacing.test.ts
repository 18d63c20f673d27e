// The per-number pace (segments per second) is shared through the database: reservations from any
// number of workers never exceed a second's burst plus the rate, and each number has its own pace.
import { describe, expect, it } from "vitest";
import { NumberPacer, PACE_BURST_MS } from "~/domain/messaging/pacing.server";
import { createMessage } from "~/domain/messaging/outbound.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, pipelineDeps, seedMembers, simCounts } from "../support/pipeline";

describe.each(DIALECTS)("per-number pace (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("lets a second's worth go at once, then spaces reservations at the rate, per number", async () => {
    const pacer = new NumberPacer(t.db, 10);
    const number = `+4477009${String(process.pid % 100000).padStart(5, "0")}`.slice(0, 13);
    const other = `${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`;
    await t.db.deleteFrom("number_pace").where("from_phone", "in", [number, other]).execute();
    const t0 = 5_000_000_000_000;
    // 10 segments a second: the first 10 go now, the 11th waits 100 ms, two more wait 300 ms.
    for (let i = 0; i < 10; i++) expect(await pacer.reserve(number, 1, t0)).toBe(0);
    expect(await pacer.reserve(number, 1, t0)).toBe(100);
    expect(await pacer.reserve(number, 2, t0)).toBe(300);
    // Another number has its own pace.
    expect(await pacer.reserve(other, 3, t0)).toBe(0);
    // Time passing frees the pace again (never more than a second's burst banked).
    expect(await pacer.reserve(number, 1, t0 + 10_000)).toBe(0);
    expect(await pacer.reserve(number, 10, t0 + 10_000)).toBe(100);
    // A second pacer (another worker process) shares the same pace.
    expect(await new NumberPacer(t.db, 10).reserve(number, 1, t0 + 10_000)).toBe(200);
    // 0 = unlimited: nothing reserved.
    expect(await new NumberPacer(t.db, 0).reserve(number, 50, t0)).toBe(0);
    expect(PACE_BURST_MS).toBe(1000);
  });

  it("two workers sending from one number together keep to its pace", async () => {
    const clock = new Clock(middayToday());
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 40);
    await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Paced together" });
    const settings = { ratePerSecond: 20, leaseSeconds: 2 };
    const a = makeWorker(t.db, clock, settings);
    const b = makeWorker(t.db, clock, settings);
    const started = Date.now();
    await Promise.all([a.drain(), b.drain()]);
    const elapsed = Date.now() - started;
    // 40 segments at 20 a second with a one-second burst: the last 20 need a second, whoever sends them.
    // Each worker pacing on its own would have sent all 40 at once.
    expect(elapsed).toBeGreaterThanOrEqual(900);
    const counts = await simCounts(t.db);
    expect(members.every((m) => counts.get(m.phone) === 1)).toBe(true);
  });
});
