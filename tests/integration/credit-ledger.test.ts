import { describe, expect, it } from "vitest";
import { charge, derivedBalances, grantAllowance, grantTrialCredits, reconcile, refund, startAllowancePeriod } from "~/domain/billing/credits.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";

// A small deterministic random sequence, so a failure can be replayed.
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe.each(DIALECTS)("credit ledger (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const at = (day: number) => new Date(Date.UTC(2027, 0, 1) + day * 86400_000);

  it("derives the trial balance from the grant, charges and refunds, and matches the running total", async () => {
    const id = await createBusiness(t.db, { trialCredits: 0 });
    expect(await grantTrialCredits(t.db, id, 50, at(0))).toBe(true);
    expect(await grantTrialCredits(t.db, id, 50, at(0))).toBe(false); // never granted twice
    expect(await charge(t.db, id, 7, { reason: "send", reference: "message:1", now: at(1) })).toBe(true);
    expect(await charge(t.db, id, 44, { reason: "send", reference: "message:2", now: at(1) })).toBe(false);
    expect(await refund(t.db, id, 2, { reason: "failed", reference: "message:1", now: at(2) })).toBe(true);
    expect((await derivedBalances(t.db, id)).trial).toEqual({ granted: 50, used: 5, remaining: 45 });
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("counts each allowance period on its own: a renewal starts again from the new grant", async () => {
    const id = await createBusiness(t.db, { trialCredits: 0 });
    await grantTrialCredits(t.db, id, 50, at(0));
    await charge(t.db, id, 10, { reason: "send", now: at(1) });
    expect(await startAllowancePeriod(t.db, id, 500, "period:a", { reason: "allowance", now: at(2) })).toBe(true);
    expect(await startAllowancePeriod(t.db, id, 500, "period:a", { reason: "allowance", now: at(2) })).toBe(false);
    await charge(t.db, id, 120, { reason: "send", reference: "m:1", now: at(3) });
    expect(await grantAllowance(t.db, id, 250, "increase:1", { reason: "increase", now: at(4) })).toBe(true);
    expect(await grantAllowance(t.db, id, 250, "increase:1", { reason: "increase", now: at(4) })).toBe(false);
    expect(await derivedBalances(t.db, id)).toMatchObject({ trial: { remaining: 40 }, allowance: { granted: 750, used: 120, remaining: 630 } });
    await startAllowancePeriod(t.db, id, 500, "period:b", { reason: "allowance", now: at(32) });
    expect((await derivedBalances(t.db, id)).allowance).toMatchObject({ granted: 500, used: 0 });
    expect(await reconcile(t.db, id)).toEqual([]);
  });

  it("stays reconciled through many random grants, charges and refunds, and finds a running total that drifted", async () => {
    const id = await createBusiness(t.db, { trialCredits: 0 });
    const random = rng(42);
    await grantTrialCredits(t.db, id, 50, at(0));
    let day = 0;
    let sent = 0;
    for (let i = 0; i < 120; i++) {
      const r = random();
      if (i === 30 || (i > 30 && r < 0.05)) await startAllowancePeriod(t.db, id, 300, `period:${i}`, { reason: "allowance", now: at(++day) });
      else if (r < 0.1 && i > 30) await grantAllowance(t.db, id, 50, `inc:${i}`, { reason: "increase", now: at(day) });
      else if (r < 0.75) {
        if (await charge(t.db, id, 1 + Math.floor(random() * 20), { reason: "send", reference: `m:${i}`, now: at(day) })) sent++;
      } else await refund(t.db, id, 1 + Math.floor(random() * 3), { reason: "failed", reference: `m:${i - 1}`, now: at(day) });
      expect(await reconcile(t.db, id)).toEqual([]);
    }
    expect(sent).toBeGreaterThan(10);
    await t.db.updateTable("businesses").set({ allowance_used: 0 }).where("id", "=", id).execute();
    expect((await reconcile(t.db, id)).join()).toMatch(/allowance used 0 but the ledger gives/);
  });
});
