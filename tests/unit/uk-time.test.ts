import { describe, expect, it } from "vitest";
import * as schedule from "~/domain/group-messages/uk-time";
import {
  formatLongDate,
  formatUkDayMonthAndTime,
  formatUkTime,
  ukDateTimeLocalToUtc,
  ukDateTimeToUtc,
  utcToUkDateTime,
  utcToUkDateTimeLocal,
  wallClockToUtc,
  zoneOffsetMinutes,
} from "~/lib/uk-time";

const iso = (d: Date | null) => d?.toISOString() ?? null;

describe("§9 long dates in UK time", () => {
  it("formats a winter date in GMT", () => {
    expect(formatLongDate("2026-11-21T14:05:00Z")).toBe("21 November, 14:05");
  });

  it("formats a summer date in BST (an hour ahead of UTC)", () => {
    expect(formatLongDate("2026-07-01T23:30:00Z")).toBe("2 July, 00:30");
  });

  it("names the month in French for fr", () => {
    expect(formatLongDate("2026-11-21T14:05:00Z", "fr")).toBe("21 novembre, 14:05");
  });

  it("answers an empty string for a date it cannot read", () => {
    expect(formatLongDate("not a date")).toBe("");
  });

  it("gives the UK clock time for 'try again after …' and the merge-tag date and time", () => {
    expect(formatUkTime(new Date("2026-07-01T13:05:00Z"))).toBe("14:05");
    expect(formatUkTime(new Date("2026-12-01T09:05:00Z"), "fr")).toBe("09:05");
    expect(formatUkDayMonthAndTime(new Date("2026-07-01T23:05:00Z"))).toEqual({ date: "2 July", time: "00:05" });
  });
});

describe("UK wall-clock time <-> UTC", () => {
  it("knows the offset in winter and summer", () => {
    expect(zoneOffsetMinutes(new Date("2026-01-15T12:00:00Z"))).toBe(0);
    expect(zoneOffsetMinutes(new Date("2026-07-15T12:00:00Z"))).toBe(60);
  });

  it("reads a UK date and time into UTC across GMT and BST", () => {
    expect(iso(ukDateTimeToUtc("2026-07-01", "10:00"))).toBe("2026-07-01T09:00:00.000Z");
    expect(iso(ukDateTimeToUtc("2026-12-01", "10:00"))).toBe("2026-12-01T10:00:00.000Z");
  });

  it("reads datetime-local values (snooze) both ways", () => {
    expect(iso(ukDateTimeLocalToUtc("2026-01-15T09:30"))).toBe("2026-01-15T09:30:00.000Z");
    expect(iso(ukDateTimeLocalToUtc("2026-07-15T09:30"))).toBe("2026-07-15T08:30:00.000Z");
    expect(utcToUkDateTimeLocal(new Date("2026-07-15T08:30:00Z"))).toBe("2026-07-15T09:30");
    expect(ukDateTimeLocalToUtc("2026-02-30T09:30")).toBeNull();
    expect(ukDateTimeLocalToUtc("tomorrow")).toBeNull();
  });

  it("refuses dates and times that do not exist or are not in the expected shape", () => {
    for (const [d, t] of [
      ["2026-02-30", "10:00"],
      ["2026-13-01", "10:00"],
      ["2026-04-31", "10:00"],
      ["2026-01-01", "24:00"],
      ["2026-01-01", "10:60"],
      ["2026-1-1", "10:00"],
      ["2026-01-01", "9:00"],
      ["'; drop table members; --", "10:00"],
      ["", ""],
    ]) {
      expect(ukDateTimeToUtc(d, t), `${d} ${t}`).toBeNull();
    }
    expect(iso(ukDateTimeToUtc("2028-02-29", "12:00"))).toBe("2028-02-29T12:00:00.000Z");
  });

  it("moves a time skipped when the clocks go forward on by the gap, and round-trips every other minute", () => {
    // 29 March 2026: 01:00 GMT becomes 02:00 BST.
    expect(iso(ukDateTimeToUtc("2026-03-29", "00:59"))).toBe("2026-03-29T00:59:00.000Z");
    expect(iso(ukDateTimeToUtc("2026-03-29", "01:30"))).toBe("2026-03-29T01:30:00.000Z");
    expect(iso(ukDateTimeToUtc("2026-03-29", "02:00"))).toBe("2026-03-29T01:00:00.000Z");
    // 25 October 2026: 02:00 BST becomes 01:00 GMT; 01:30 happens twice and reads as the GMT one.
    expect(iso(ukDateTimeToUtc("2026-10-25", "00:30"))).toBe("2026-10-24T23:30:00.000Z");
    expect(iso(ukDateTimeToUtc("2026-10-25", "01:30"))).toBe("2026-10-25T01:30:00.000Z");
    expect(iso(ukDateTimeToUtc("2026-10-25", "02:30"))).toBe("2026-10-25T02:30:00.000Z");
    for (let t = Date.UTC(2026, 9, 24, 22); t < Date.UTC(2026, 9, 25, 4); t += 15 * 60_000) {
      const at = new Date(t);
      const { date, time } = utcToUkDateTime(at);
      const back = ukDateTimeToUtc(date, time)!;
      expect(utcToUkDateTime(back)).toEqual({ date, time });
    }
  });

  it("carries minutes past midnight over to the next day", () => {
    expect(wallClockToUtc(2026, 7, 1, 24 * 60 + 30).toISOString()).toBe("2026-07-01T23:30:00.000Z");
  });

  it("keeps years below 100 as written", () => {
    expect(ukDateTimeToUtc("0050-06-01", "12:00")!.getUTCFullYear()).toBe(50);
  });
});

describe("group-message schedule fields", () => {
  it("ignores surrounding spaces and keeps years to 2000-2100", () => {
    expect(iso(schedule.ukLocalToUtc(" 2026-07-01 ", " 10:00 "))).toBe("2026-07-01T09:00:00.000Z");
    expect(schedule.ukLocalToUtc("1999-12-31", "10:00")).toBeNull();
    expect(schedule.ukLocalToUtc("2101-01-01", "10:00")).toBeNull();
    expect(schedule.ukLocalToUtc("2026-02-30", "10:00")).toBeNull();
    expect(schedule.utcToUkLocal(new Date("2026-07-01T09:00:00Z"))).toEqual({ date: "2026-07-01", time: "10:00" });
  });
});
