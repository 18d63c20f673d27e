import { describe, expect, it } from "vitest";
import { parseUkMobile } from "~/lib/phone";

describe("UK mobile numbers (§5)", () => {
  it.each([
    ["07911 123456", "+447911123456"],
    ["07911 578481", "+447911578481"],
    ["07911-123-456", "+447911123456"],
    ["(07911) 123456", "+447911123456"],
    ["+44 7911 123456", "+447911123456"],
  ])("accepts %s", (input, e164) => expect(parseUkMobile(input)).toBe(e164));

  it.each([
    ["landline", "020 7123 4567"],
    ["pager", "07600 123456"],
    ["personal number", "07012 345678"],
    ["drama range", "07700 900123"],
    ["letters", "07911 12345a"],
    ["too short", "0791"],
    ["foreign", "+33 6 12 34 56 78"],
    ["too long", "0".repeat(26)],
    ["markup", "<b>07911123456</b>"],
    ["empty", ""],
  ])("refuses %s", (_why, input) => expect(parseUkMobile(input)).toBeNull());
});
