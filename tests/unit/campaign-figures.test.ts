// The campaign panels' display rules (spec sections 4 and 9): time left in §9 units, the top response's share.
import { describe, expect, it } from "vitest";
import { campaignIdOf, timeLeft, topResponseShare } from "~/domain/feed/campaign-figures";

const now = new Date("2026-11-24T12:00:00.000Z");
const after = (ms: number) => new Date(now.getTime() + ms).toISOString();
const S = 1000;
const M = 60 * S;
const H = 60 * M;
const D = 24 * H;

describe("time left", () => {
  it("uses the largest §9 unit that fits, rounded down", () => {
    expect(timeLeft(after(42 * S), now)).toEqual({ value: 42, unit: "SECONDS" });
    expect(timeLeft(after(59 * S + 999), now)).toEqual({ value: 59, unit: "SECONDS" });
    expect(timeLeft(after(60 * S), now)).toEqual({ value: 1, unit: "MINUTES" });
    expect(timeLeft(after(59 * M), now)).toEqual({ value: 59, unit: "MINUTES" });
    expect(timeLeft(after(5 * H + 59 * M), now)).toEqual({ value: 5, unit: "HOURS" });
    expect(timeLeft(after(2 * D + 23 * H), now)).toEqual({ value: 2, unit: "DAYS" });
    expect(timeLeft(after(29 * D), now)).toEqual({ value: 29, unit: "DAYS" });
    expect(timeLeft(after(30 * D), now)).toEqual({ value: 1, unit: "MONTHS" });
    expect(timeLeft(after(364 * D), now)).toEqual({ value: 12, unit: "MONTHS" });
    expect(timeLeft(after(365 * D), now)).toEqual({ value: 1, unit: "YEARS" });
    expect(timeLeft(after(800 * D), now)).toEqual({ value: 2, unit: "YEARS" });
  });

  it("is null once the close date has passed, or without one", () => {
    expect(timeLeft(after(0), now)).toBeNull();
    expect(timeLeft(after(-5 * M), now)).toBeNull();
    expect(timeLeft(undefined, now)).toBeNull();
    expect(timeLeft("not a date", now)).toBeNull();
  });
});

describe("top response", () => {
  it("is the most given answer, with its whole-number share and the rest", () => {
    expect(topResponseShare([{ response: "Yes", total: 2 }, { response: "No", total: 1 }])).toEqual({ response: "Yes", total: 2, percent: 67, rest: 1 });
    expect(topResponseShare([{ response: "A", total: 1 }, { response: "B", total: 5 }, { response: "C", total: 2 }])).toEqual({ response: "B", total: 5, percent: 63, rest: 3 });
    expect(topResponseShare([{ response: "Only", total: 4 }])).toEqual({ response: "Only", total: 4, percent: 100, rest: 0 });
  });

  it("gives a tie to the first option listed", () => {
    expect(topResponseShare([{ response: "Tea", total: 3 }, { response: "Coffee", total: 3 }])?.response).toBe("Tea");
  });

  it("is null while nobody has answered", () => {
    expect(topResponseShare([])).toBeNull();
    expect(topResponseShare(undefined)).toBeNull();
    expect(topResponseShare([{ response: "Yes", total: 0 }, { response: "No", total: 0 }])).toBeNull();
  });
});

describe("campaign id of a feed item", () => {
  it("reads the number at the end of the item id", () => {
    expect(campaignIdOf("campaign-12")).toBe(12);
    expect(campaignIdOf("40")).toBe(40);
    expect(campaignIdOf("campaign")).toBeNull();
  });
});
