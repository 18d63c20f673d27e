import { describe, expect, it } from "vitest";
import { assertCredit, charge, creditsRemaining, ledger, refund } from "~/domain/billing/credits.server";
import { AppError } from "~/lib/errors";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";

const now = new Date();

describe.each(DIALECTS)("credits (%s)", (dialect) => {
  const t = useTestDb(dialect);

  const balance = (id: number) =>
    t.db.selectFrom("businesses").select(["trial_credits", "allowance_used", "message_allowance"]).where("id", "=", id).executeTakeFirstOrThrow();

  describe("assertCredit", () => {
    it("passes when the trial has enough credits and refuses with BR012 {needed, remaining} when not", async () => {
      const id = await createBusiness(t.db, { trialCredits: 10 });
      await expect(assertCredit(t.db, id, 10, now)).resolves.toEqual({ remaining: 10 });
      const error = await assertCredit(t.db, id, 11, now).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe("BR012");
      expect((error as AppError).data).toEqual({ needed: 11, remaining: 10 });
    });

    it("counts a monthly allowance as allowance less used", async () => {
      const id = await createBusiness(t.db, { messageAllowance: 500, allowanceUsed: 480, trialCredits: 50 });
      expect(await creditsRemaining(t.db, id, now)).toBe(20);
      await expect(assertCredit(t.db, id, 20, now)).resolves.toEqual({ remaining: 20 });
      await expect(assertCredit(t.db, id, 21, now)).rejects.toMatchObject({ code: "BR012", data: { needed: 21, remaining: 20 } });
    });

    it("treats an ended trial as having nothing left", async () => {
      const id = await createBusiness(t.db, { trialCredits: 40, trialDays: -1 });
      await expect(assertCredit(t.db, id, 1, now)).rejects.toMatchObject({ code: "BR012", data: { needed: 1, remaining: 0 } });
    });
  });

  describe("charge and refund", () => {
    it("takes trial credits, records the charge, and refuses to go below zero", async () => {
      const id = await createBusiness(t.db, { trialCredits: 5 });
      expect(await charge(t.db, id, 3, { reason: "send", reference: "message:1", now })).toBe(true);
      expect((await balance(id)).trial_credits).toBe(2);
      expect(await charge(t.db, id, 3, { reason: "send", reference: "message:2", now })).toBe(false);
      expect((await balance(id)).trial_credits).toBe(2);
      const rows = await ledger(t.db, id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: "CHARGE", pool: "TRIAL", credits: 3, reason: "send", reference: "message:1", created_at: now.toISOString() });
    });

    it("counts against a monthly allowance and never past it", async () => {
      const id = await createBusiness(t.db, { messageAllowance: 100, allowanceUsed: 98, trialCredits: 50 });
      expect(await charge(t.db, id, 2, { reason: "send" })).toBe(true);
      expect(await charge(t.db, id, 1, { reason: "send" })).toBe(false);
      const b = await balance(id);
      expect(b.allowance_used).toBe(100);
      expect(b.trial_credits).toBe(50); // a monthly plan never dips into leftover trial credits
      expect((await ledger(t.db, id)).map((r) => r.pool)).toEqual(["ALLOWANCE"]);
    });

    it("refunds to the pool the referenced charge came from, and records it", async () => {
      const id = await createBusiness(t.db, { trialCredits: 10 });
      await charge(t.db, id, 4, { reason: "send", reference: "message:9" });
      // The business subscribes before the message fails: the trial charge still goes back to the trial.
      await t.db.updateTable("businesses").set({ message_allowance: 1000, allowance_used: 0 }).where("id", "=", id).execute();
      expect(await refund(t.db, id, 4, { reason: "failed-before-provider", reference: "message:9" })).toBe(true);
      const b = await balance(id);
      expect(b.trial_credits).toBe(10);
      expect(b.allowance_used).toBe(0);
      expect((await ledger(t.db, id)).map((r) => [r.kind, r.pool, r.credits, r.reason])).toEqual([
        ["REFUND", "TRIAL", 4, "failed-before-provider"],
        ["CHARGE", "TRIAL", 4, "send"],
      ]);
    });

    it("never takes allowance used below zero", async () => {
      const id = await createBusiness(t.db, { messageAllowance: 100, allowanceUsed: 2 });
      expect(await refund(t.db, id, 3, { reason: "refund" })).toBe(false);
      expect((await balance(id)).allowance_used).toBe(2);
      expect(await refund(t.db, id, 2, { reason: "refund" })).toBe(true);
      expect((await balance(id)).allowance_used).toBe(0);
      expect(await ledger(t.db, id)).toHaveLength(1);
    });

    it("rolls back the balance when the caller's transaction fails", async () => {
      const id = await createBusiness(t.db, { trialCredits: 10 });
      await expect(
        t.db.transaction().execute(async (trx) => {
          expect(await charge(trx, id, 5, { reason: "send" })).toBe(true);
          throw new Error("the insert of the message rows failed");
        }),
      ).rejects.toThrow("message rows");
      expect((await balance(id)).trial_credits).toBe(10);
      expect(await ledger(t.db, id)).toHaveLength(0);
    });

    it("refuses amounts that are not whole positive numbers", async () => {
      const id = await createBusiness(t.db, { trialCredits: 10 });
      await expect(charge(t.db, id, 0)).rejects.toThrow(RangeError);
      await expect(charge(t.db, id, -2)).rejects.toThrow(RangeError);
      await expect(refund(t.db, id, 1.5)).rejects.toThrow(RangeError);
      expect((await balance(id)).trial_credits).toBe(10);
    });
  });

  describe("concurrent charges never overdraw", () => {
    it("trial: 80 charges of 1 against 50 credits, each in its own transaction", async () => {
      const id = await createBusiness(t.db, { trialCredits: 50 });
      const results = await Promise.all(
        Array.from({ length: 80 }, (_, i) => t.db.transaction().execute((trx) => charge(trx, id, 1, { reason: "send", reference: `message:${i}` }))),
      );
      expect(results.filter(Boolean)).toHaveLength(50);
      expect((await balance(id)).trial_credits).toBe(0);
      expect(await ledger(t.db, id, 1000)).toHaveLength(50);
    });

    it("trial: 30 charges of 3 against 50 credits leave 2", async () => {
      const id = await createBusiness(t.db, { trialCredits: 50 });
      const results = await Promise.all(Array.from({ length: 30 }, () => charge(t.db, id, 3, { reason: "send" })));
      expect(results.filter(Boolean)).toHaveLength(16);
      expect((await balance(id)).trial_credits).toBe(2);
    });

    it("monthly: 40 charges of 1 with 25 left in the allowance", async () => {
      const id = await createBusiness(t.db, { messageAllowance: 1000, allowanceUsed: 975 });
      const results = await Promise.all(Array.from({ length: 40 }, () => charge(t.db, id, 1, { reason: "send" })));
      expect(results.filter(Boolean)).toHaveLength(25);
      expect((await balance(id)).allowance_used).toBe(1000);
      const rows = await ledger(t.db, id, 1000);
      expect(rows.reduce((s, r) => s + r.credits, 0)).toBe(25);
    });
  });
});
