import { describe, expect, it } from "vitest";
import { addMonths, amounts, formatPounds, nextMonthly, proRata } from "~/domain/billing/money";

describe("billing money", () => {
  it("takes discounts before VAT, rounds VAT to the penny and never goes below zero", () => {
    expect(amounts(2500, 20)).toEqual({ netPence: 2500, companyDiscountPence: 0, referralDiscountPence: 0, creditPence: 0, vatPence: 500, totalPence: 3000 });
    expect(amounts(4500, 20, { companyPercent: 10, referralPence: 1000 })).toMatchObject({ companyDiscountPence: 450, referralDiscountPence: 1000, vatPence: 610, totalPence: 3660 });
    expect(amounts(1333, 20)).toMatchObject({ vatPence: 267, totalPence: 1600 });
    expect(amounts(500, 20, { referralPence: 1000 })).toMatchObject({ referralDiscountPence: 500, vatPence: 0, totalPence: 0 });
  });

  it("prices what is left of a period to the penny", () => {
    const start = new Date(Date.UTC(2027, 2, 1));
    const end = new Date(Date.UTC(2027, 3, 1));
    expect(proRata(1000, start, end, new Date(Date.UTC(2027, 2, 16, 12)))).toBe(500);
    expect(proRata(1000, start, end, start)).toBe(1000);
    expect(proRata(1000, start, end, end)).toBe(0);
    expect(proRata(1000, start, end, new Date(Date.UTC(2027, 4, 1)))).toBe(0);
  });

  it("keeps a monthly date on its day, or the month's last day when it is shorter", () => {
    const anchor = new Date(Date.UTC(2027, 0, 31, 9));
    expect(addMonths(anchor, 1).toISOString()).toBe("2027-02-28T09:00:00.000Z");
    expect(addMonths(anchor, 2).toISOString()).toBe("2027-03-31T09:00:00.000Z");
    expect(nextMonthly(anchor, new Date(Date.UTC(2027, 1, 28, 9))).toISOString()).toBe("2027-03-31T09:00:00.000Z");
    expect(nextMonthly(anchor, anchor).toISOString()).toBe("2027-02-28T09:00:00.000Z");
  });

  it("writes pounds as each locale does, with the £ sign", () => {
    expect(formatPounds(123456, "en-GB")).toBe("£1,234.56");
    expect(formatPounds(7396, "fr").replace(/\s/g, " ")).toBe("73,96 £");
  });
});
