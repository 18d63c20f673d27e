// A text whose handling fails every time (here: the consent log refuses one phone's opt-in request) must not
// hold up the others: the rest of its batch is handled one by one, the failure is counted on later rounds,
// and at the limit the text is set aside (kind ERROR, the error kept, logged). The phone's next text then goes.
import { afterAll, describe, expect, it, vi } from "vitest";
import { INBOUND_MAX_ATTEMPTS, processInbound } from "~/domain/messaging/inbound-processing.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";

const poison = vi.hoisted(() => ({ phones: new Set<string>() }));

vi.mock("~/domain/members/core.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/domain/members/core.server")>();
  return {
    ...real,
    logConsent: (async (db, input) => {
      if (poison.phones.has(input.phone) && input.action === "OPT_IN_REQUESTED") throw new Error("consent log refused this row");
      return real.logConsent(db, input);
    }) as typeof real.logConsent,
  };
});

const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
afterAll(() => errors.mockRestore());

describe.each(DIALECTS)("inbound processing with a failing text (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("handles the others, sets the failing text aside after the limit, then handles that phone's next text", async () => {
    const businessId = await createBusiness(t.db, { name: "Stubborn" });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const bad = ukMobile();
    poison.phones.add(bad);
    const good = Array.from({ length: 6 }, () => ukMobile());
    let n = 0;
    const at = new Date("2026-11-22T12:00:00Z");
    const text = (from: string, body: string) =>
      receiveInbound({ db: t.db }, { providerId: `SMpoison${dialect}${Date.now()}${++n}`, from, to: biz, body, receivedAt: new Date(at.getTime() + n * 1000) });
    await text(good[0], "JOIN");
    await text(bad, "JOIN");
    for (const g of good.slice(1)) await text(g, "JOIN");
    await text(bad, "STOP");

    const deps = { db: t.db, now: () => new Date() };
    // Rounds as the worker runs them: a round that meets a failure ends, the next one tries again.
    for (let round = 0; round < INBOUND_MAX_ATTEMPTS + 3; round++) await processInbound(deps, 100);

    const rows = await t.db.selectFrom("inbound_messages").select(["from_number", "body", "kind", "attempts", "error", "processed_at"]).where("business_id", "=", businessId).orderBy("id").execute();
    const failedJoin = rows.find((r) => r.from_number === bad && r.body === "JOIN")!;
    expect(failedJoin).toMatchObject({ kind: "ERROR", attempts: INBOUND_MAX_ATTEMPTS, error: "consent log refused this row" });
    expect(failedJoin.processed_at).not.toBeNull();
    // Everyone else joined (pending, opt-in request queued); the failing phone's STOP was handled after it.
    for (const g of good) {
      const m = await t.db.selectFrom("members").select("status").where("business_id", "=", businessId).where("phone", "=", g).executeTakeFirstOrThrow();
      expect(m.status).toBe("PENDING");
    }
    expect(rows.find((r) => r.from_number === bad && r.body === "STOP")).toMatchObject({ kind: "STOP", attempts: 0 });
    expect(rows.every((r) => r.processed_at !== null)).toBe(true);
    // Nothing half-done for the failing text: no member, one consent entry (the STOP).
    expect(await t.db.selectFrom("members").select("id").where("business_id", "=", businessId).where("phone", "=", bad).execute()).toEqual([]);
    expect((await t.db.selectFrom("consent_log").select("action").where("business_id", "=", businessId).where("phone", "=", bad).execute()).map((r) => r.action)).toEqual(["OPTED_OUT"]);
    expect(errors.mock.calls.some((c) => String(c[0]).includes("set aside after 5 failed attempts"))).toBe(true);
  });
});
