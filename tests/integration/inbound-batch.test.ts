// Group commit of inbound texts: texts arriving together share a transaction, and every caller still
// gets its own answer (stored, duplicate or unknown number) with nothing lost or stored twice.
import { describe, expect, it } from "vitest";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";

describe.each(DIALECTS)("inbound group commit (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("answers each of 120 simultaneous texts correctly", async () => {
    const number = `+4477009${String(Date.now() % 100000).padStart(5, "0")}`;
    const businessId = await createBusiness(t.db, { phoneNumber: number });
    const receivedAt = new Date("2026-11-21T12:00:00Z");
    const run = `${dialect}${Date.now()}`;
    const inputs = Array.from({ length: 120 }, (_, i) => ({
      providerId: `SM${run}-${i % 100}`, // the last 20 repeat earlier ids
      from: `+447400${String(i).padStart(6, "0")}`,
      to: i % 30 === 29 ? "+447700900999" : number, // a few to a number nobody owns
      body: `text ${i}`,
      receivedAt,
    }));
    const results = await Promise.all(inputs.map((input) => receiveInbound({ db: t.db }, input)));

    const outcomes = results.map((r) => r.outcome);
    const unknown = inputs.filter((x) => x.to !== number).length;
    expect(outcomes.filter((o) => o === "unknown-number")).toHaveLength(unknown);
    const stored = results.filter((r) => r.outcome === "stored");
    const dup = results.filter((r) => r.outcome === "duplicate");
    expect(stored.length + dup.length).toBe(120 - unknown);

    const rows = await t.db.selectFrom("inbound_messages").select(["provider_id", "business_id"]).where("provider_id", "like", `SM${run}-%`).execute();
    // Each provider id is stored at most once, and every stored answer is a row in the table.
    expect(new Set(rows.map((r) => r.provider_id)).size).toBe(rows.length);
    expect(rows).toHaveLength(stored.length);
    expect(rows.every((r) => r.business_id === businessId)).toBe(true);
    for (const r of dup) if (r.outcome === "duplicate") expect(rows.map((x) => x.provider_id)).toContain(r.message.provider_id);
  });
});
