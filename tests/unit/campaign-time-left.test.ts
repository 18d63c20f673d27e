// How long a campaign has left, in the spec's units: the largest whole unit that fits, months of 30 days and
// years of 365, nothing once the close date has passed; and a failure reason never shown as a raw code.
import { describe, expect, it } from "vitest";
import { failureKey, timeLeft } from "~/components/campaign-bits";

const now = new Date("2026-11-24T12:00:00Z");
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

describe("time left", () => {
  it("uses the largest whole unit", () => {
    expect(timeLeft(at(45), now)).toEqual({ count: 45, unit: "seconds" });
    expect(timeLeft(at(60 * 59 + 59), now)).toEqual({ count: 59, unit: "minutes" });
    expect(timeLeft(at(3600 * 23), now)).toEqual({ count: 23, unit: "hours" });
    expect(timeLeft(at(86_400 * 29), now)).toEqual({ count: 29, unit: "days" });
    expect(timeLeft(at(86_400 * 30), now)).toEqual({ count: 1, unit: "months" });
    expect(timeLeft(at(86_400 * 364), now)).toEqual({ count: 12, unit: "months" });
    expect(timeLeft(at(86_400 * 365 * 2), now)).toEqual({ count: 2, unit: "years" });
  });

  it("says nothing once past, or without a date", () => {
    expect(timeLeft(at(0), now)).toBeNull();
    expect(timeLeft(at(-5), now)).toBeNull();
    expect(timeLeft(null, now)).toBeNull();
    expect(timeLeft("not a date", now)).toBeNull();
  });

  it("translates each failure reason and never shows an unknown code", () => {
    expect(failureKey("SURVEYERROR_OUTOFCREDIT_FAILURE")).toBe("campaigns.failure.SURVEYERROR_OUTOFCREDIT_FAILURE");
    expect(failureKey("<script>")).toBe("campaigns.failure.SURVEYERROR_PROCESSING_FAILED");
    expect(failureKey(null)).toBeNull();
  });
});
