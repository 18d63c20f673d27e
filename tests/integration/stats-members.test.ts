// Community stats behind the home screen's community panel: subscribed members, joined this month
// and left this month (UK calendar month), scoped to the business.
import { describe, expect, it } from "vitest";
import { getStat, startOfUkMonth } from "~/domain/stats/stats.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";

describe("start of the UK month", () => {
  it("is midnight UK time on the 1st, in summer and in winter", () => {
    expect(startOfUkMonth(new Date("2026-07-15T12:00:00Z"))).toBe("2026-06-30T23:00:00.000Z");
    expect(startOfUkMonth(new Date("2026-11-21T12:00:00Z"))).toBe("2026-11-01T00:00:00.000Z");
    // 00:30 UK on 1 July is still 30 June in UTC: already July's month in the UK.
    expect(startOfUkMonth(new Date("2026-06-30T23:30:00Z"))).toBe("2026-06-30T23:00:00.000Z");
  });
});

describe.each(DIALECTS)("community stats (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("counts subscribed members, joins and opt-outs this month, for this business only", async () => {
    const now = new Date("2026-11-21T12:00:00Z");
    const mine = await createBusiness(t.db);
    const other = await createBusiness(t.db);
    const add = (businessId: number, status: string, joinedAt: string | null, optedOutAt: string | null = null) =>
      t.db
        .insertInto("members")
        .values({
          business_id: businessId,
          phone: ukMobile(),
          status,
          unique_ref: `ref-${Math.random().toString(36).slice(2)}-${Date.now()}`,
          joined_at: joinedAt,
          opted_out_at: optedOutAt,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        } as never)
        .execute();
    await add(mine, "SUBSCRIBED", "2026-11-03T10:00:00Z"); // joined this month
    await add(mine, "SUBSCRIBED", "2026-10-31T23:59:00Z"); // last month
    await add(mine, "SUBSCRIBED", "2026-11-20T09:00:00Z"); // this month
    await add(mine, "PENDING", null);
    await add(mine, "OPTED_OUT", "2026-09-01T10:00:00Z", "2026-11-10T10:00:00Z"); // left this month
    await add(mine, "OPTED_OUT", "2026-09-01T10:00:00Z", "2026-10-10T10:00:00Z"); // left last month
    await add(other, "SUBSCRIBED", "2026-11-05T10:00:00Z");

    expect(await getStat(t.db, mine, "SUBSCRIBERSTOTAL", {}, now)).toBe(3);
    expect(await getStat(t.db, mine, "SUBSCRIBERSTOTALPERIOD", {}, now)).toBe(2);
    expect(await getStat(t.db, mine, "SUBSCRIBERSOPTEDOUTPERIOD", {}, now)).toBe(1);
    expect(await getStat(t.db, other, "SUBSCRIBERSTOTAL", {}, now)).toBe(1);
  });
});
