// Merge tags: business, system, member and custom tags with fallbacks; unknown tags stay as typed.
import { describe, expect, it } from "vitest";
import { compileTemplate, formatAppointment, formatBirthday, MERGE_TAG_CATALOGUE } from "~/domain/messaging/merge";

describe("merge tags (extended)", () => {
  it("renders business, system, member and custom tags, each with a fallback when empty", () => {
    const t = compileTemplate(
      "{{businessName}} {{businessNumber}} text {{joinKeyword}}. {{firstName|Hi}} born {{birthday|?}}, seen {{appointmentDate|soon}} {{appointmentTime|}} cake {{attr.favouriteCake|none}} {{memberFormLink}}",
    );
    expect(t.usesExtendedValues).toBe(true);
    expect(t.customKeys).toEqual(["favouriteCake"]);
    expect(
      t.render({
        businessName: "Bakery",
        businessNumber: "07700 900123",
        joinKeyword: "JOIN",
        firstName: "Ann",
        birthday: "14 March",
        appointmentDate: "2 July",
        appointmentTime: "10:30",
        memberFormLink: "https://x.test/myinfo/abc",
        custom: { favouriteCake: "Lemon" },
      }),
    ).toBe("Bakery 07700 900123 text JOIN. Ann born 14 March, seen 2 July 10:30 cake Lemon https://x.test/myinfo/abc");
    expect(t.render({ businessName: "Bakery", custom: { favouriteCake: "  " } })).toBe("Bakery  text . Hi born ?, seen soon  cake none ");
  });

  it("basic tags alone need no extra member values; unknown and malformed tags stay as typed", () => {
    const t = compileTemplate("Hi {{firstName}} {{attr.}} {{attr.Bad-Key}} {{checkoutLink}} {{shop.discount}}");
    expect(t.usesExtendedValues).toBe(false);
    expect(t.render({ firstName: "Bo" })).toBe("Hi Bo {{attr.}} {{attr.Bad-Key}} {{checkoutLink}} {{shop.discount}}");
  });

  it("formats birthdays and appointments in UK time", () => {
    expect(formatBirthday("03-14")).toBe("14 March");
    expect(formatBirthday("13-01")).toBe("");
    expect(formatAppointment("2026-07-01T09:05:00Z")).toEqual({ date: "1 July", time: "10:05" }); // BST
    expect(formatAppointment("2026-12-01T09:05:00Z")).toEqual({ date: "1 December", time: "09:05" });
    expect(formatAppointment("nonsense")).toEqual({ date: "", time: "" });
  });

  it("has the shop's discount code as its one integration tag, filled per member and marked for the pipeline", () => {
    expect(MERGE_TAG_CATALOGUE.integration).toEqual(["shopify.code"]);
    const c = compileTemplate("Hi {{firstName}}, use {{shopify.code|at the till}}");
    expect(c.usesShopCode).toBe(true);
    expect(c.render({ firstName: "Ann", shopifyCode: "ABCDE-23456" })).toBe("Hi Ann, use ABCDE-23456");
    expect(c.render({ firstName: "Ann" })).toBe("Hi Ann, use at the till");
    expect(compileTemplate("Hi {{firstName}}").usesShopCode).toBe(false);
  });
});
