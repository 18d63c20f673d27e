import { describe, expect, it } from "vitest";
import { planView } from "~/domain/billing/plan";

const now = new Date("2026-11-21T12:00:00Z");
const inDays = (d: number) => new Date(now.getTime() + d * 86400_000).toISOString();
const trial = (credits: number, days = 30) => planView({ status: "TRIAL", messageAllowance: 0, allowanceUsed: 0, trialCredits: credits, trialEndsAt: inDays(days) }, now);
const monthly = (used: number, allowance = 1000, status = "SUBSCRIBED") => planView({ status, messageAllowance: allowance, allowanceUsed: used, trialCredits: 0, trialEndsAt: null }, now);

describe("§9 trial meter", () => {
  it.each([
    [50, 100, "green", null],
    [10, 20, "green", null],
    [9, 18, "yellow", null],
    [5, 10, "yellow", null],
    [4, 8, "red", "LOWCREDIT"],
    [0, 0, "red", "NOCREDIT"],
  ])("%i credits is %i%%, %s, %s", (credits, percent, tone, notification) => {
    const v = trial(credits);
    expect(v.kind).toBe("trial");
    expect(v.percent).toBe(percent);
    expect(v.tone).toBe(tone);
    expect(v.notification).toBe(notification);
  });

  it("warns at 7 days or less and ends the trial below 1 day", () => {
    expect(trial(40, 8).notification).toBeNull();
    expect(trial(40, 7).notification).toBe("7DAYSORLESS");
    expect(trial(40, 7).daysLeftOfTrial).toBe(7);
    expect(trial(40, 0).notification).toBe("TRIALENDED");
  });
});

describe("§9 monthly meter", () => {
  it.each([
    [0, "green", null],
    [799, "green", null],
    [800, "yellow", null],
    [899, "yellow", null],
    [900, "red", null],
    [901, "red", "ALLOWANCELIMIT"],
    [1000, "red", "ALLOWANCELIMIT"],
    [1001, "red", "ALLOWANCEEXCEEDED"],
  ])("%i of 1000 used is %s with %s", (used, tone, notification) => {
    const v = monthly(used);
    expect(v.kind).toBe("monthly");
    expect(v.tone).toBe(tone);
    expect(v.notification).toBe(notification);
    expect(v.percent).toBeLessThanOrEqual(100);
  });

  it("shows payment failed above everything else", () => {
    expect(monthly(10, 1000, "PAYMENT_FAILED").notification).toBe("PAYMENTFAILED");
  });
});
