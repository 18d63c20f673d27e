// Pure parts of the messaging pipeline: merge tags, quiet hours (Europe/London, DST-aware), the
// backoff and receipt states (the per-number pace is in tests/integration/pacing.test.ts).
import { describe, expect, it } from "vitest";
import { compileTemplate, renderTemplate } from "~/domain/messaging/merge";
import { nextAllowedTime, quietUntil } from "~/domain/messaging/quiet-hours";
import { backoffMs, receiptState } from "~/domain/messaging/send.server";

describe("merge tags", () => {
  it("renders known tags per member with fallbacks, and leaves unknown tags as typed", () => {
    const t = compileTemplate("Hi {{firstName|there}} ({{ fullName }}) from {{businessName}} {{nickname}}");
    expect(t.constant).toBe(false);
    expect(t.render({ firstName: "Ann", fullName: "Ann Lee", businessName: "Bakery" })).toBe("Hi Ann (Ann Lee) from Bakery {{nickname}}");
    expect(t.render({ firstName: "  ", fullName: null, businessName: "Bakery" })).toBe("Hi there () from Bakery {{nickname}}");
    // A member with only a full name is greeted by its first word.
    expect(t.render({ fullName: "Raj Patel", businessName: "B" })).toBe("Hi Raj (Raj Patel) from B {{nickname}}");
  });

  it("compiles a text without tags to a constant", () => {
    const t = compileTemplate("Sale today {not a tag}");
    expect(t.constant).toBe(true);
    expect(t.render({ firstName: "x" })).toBe("Sale today {not a tag}");
    expect(renderTemplate("{{firstName}}", { firstName: "Zoë" })).toBe("Zoë");
  });
});

describe("quiet hours (Europe/London)", () => {
  it("holds texts between 21:00 and 08:00 UK time in winter (GMT)", () => {
    expect(quietUntil(new Date("2027-01-12T20:59:00Z"))).toBeNull();
    expect(quietUntil(new Date("2027-01-12T21:00:00Z"))?.toISOString()).toBe("2027-01-13T08:00:00.000Z");
    expect(quietUntil(new Date("2027-01-13T03:00:00Z"))?.toISOString()).toBe("2027-01-13T08:00:00.000Z");
    expect(quietUntil(new Date("2027-01-13T08:00:00Z"))).toBeNull();
  });

  it("follows British Summer Time (UTC+1)", () => {
    // 20:30 UTC is 21:30 in London in July.
    expect(quietUntil(new Date("2027-07-10T20:30:00Z"))?.toISOString()).toBe("2027-07-11T07:00:00.000Z");
    expect(quietUntil(new Date("2027-07-10T19:59:00Z"))).toBeNull();
    expect(quietUntil(new Date("2027-07-11T06:59:00Z"))?.toISOString()).toBe("2027-07-11T07:00:00.000Z");
  });

  it("ends at 08:00 local on the night the clocks change", () => {
    // Clocks go forward on 28 March 2027 at 01:00 UTC: 08:00 that morning is 07:00 UTC.
    expect(quietUntil(new Date("2027-03-27T22:00:00Z"))?.toISOString()).toBe("2027-03-28T07:00:00.000Z");
    // Clocks go back on 31 October 2027 at 01:00 UTC: 08:00 that morning is 08:00 UTC.
    expect(quietUntil(new Date("2027-10-30T21:00:00Z"))?.toISOString()).toBe("2027-10-31T08:00:00.000Z");
  });

  it("takes a business's own window, wrapping midnight or not, and none when start equals end", () => {
    expect(quietUntil(new Date("2027-01-12T13:30:00Z"), { start: "13:00", end: "14:00" })?.toISOString()).toBe("2027-01-12T14:00:00.000Z");
    expect(quietUntil(new Date("2027-01-12T12:30:00Z"), { start: "13:00", end: "14:00" })).toBeNull();
    expect(quietUntil(new Date("2027-01-12T23:30:00Z"), { start: "22:00", end: "06:30" })?.toISOString()).toBe("2027-01-13T06:30:00.000Z");
    expect(quietUntil(new Date("2027-01-12T23:30:00Z"), { start: "00:00", end: "00:00" })).toBeNull();
    expect(nextAllowedTime(new Date("2027-01-12T12:00:00Z")).toISOString()).toBe("2027-01-12T12:00:00.000Z");
    // A malformed setting falls back to the defaults.
    expect(quietUntil(new Date("2027-01-12T22:00:00Z"), { start: "late", end: "" })?.toISOString()).toBe("2027-01-13T08:00:00.000Z");
  });
});

describe("retries", () => {
  it("backs off exponentially with jitter, capped at an hour", () => {
    for (let i = 0; i < 20; i++) {
      const b1 = backoffMs(1000, 1);
      const b4 = backoffMs(1000, 4);
      expect(b1).toBeGreaterThanOrEqual(800);
      expect(b1).toBeLessThanOrEqual(1200);
      expect(b4).toBeGreaterThanOrEqual(6400);
      expect(b4).toBeLessThanOrEqual(9600);
    }
    expect(backoffMs(1000, 40)).toBeLessThanOrEqual(3_600_000 * 1.2);
  });

  it("maps receipt words to final states", () => {
    expect(receiptState("delivered")).toBe("DELIVERED");
    expect(receiptState("UNDELIVERED")).toBe("FAILED");
    expect(receiptState("failed")).toBe("FAILED");
    expect(receiptState("sent")).toBeNull();
    expect(receiptState("queued")).toBeNull();
  });
});
