import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { markInboundProcessed, receiveInbound, unprocessedInbound } from "~/domain/messaging/inbound.server";
import { receiptsFor, recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";

const sid = () => `SM${crypto.randomBytes(16).toString("hex")}`;
const number = () => `+447700${crypto.randomInt(100000, 999999)}`;

describe.each(DIALECTS)("inbound texts and delivery receipts store (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("stores a text for the business that owns the number, once per provider id, even when repeated concurrently", async () => {
    const to = number();
    const businessId = await createBusiness(t.db, { phoneNumber: to });
    const input = { providerId: sid(), from: ukMobile(), to, body: "Bonjour 👋", receivedAt: new Date("2026-11-22T09:00:00Z") };
    const results = await Promise.all(Array.from({ length: 6 }, () => receiveInbound({ db: t.db }, input)));
    expect(results.filter((r) => r.outcome === "stored")).toHaveLength(1);
    expect(results.filter((r) => r.outcome === "duplicate")).toHaveLength(5);
    const rows = await t.db.selectFrom("inbound_messages").selectAll().where("provider_id", "=", input.providerId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ business_id: businessId, from_number: input.from, to_number: to, body: "Bonjour 👋", received_at: "2026-11-22T09:00:00.000Z", processed_at: null });
    // A replay with other content still changes nothing.
    const replay = await receiveInbound({ db: t.db }, { ...input, body: "changed" });
    expect(replay.outcome).toBe("duplicate");
    expect(replay.outcome !== "unknown-number" && replay.message.body).toBe("Bonjour 👋");
  });

  it("stores nothing for a number no business owns", async () => {
    const input = { providerId: sid(), from: ukMobile(), to: number(), body: "hi", receivedAt: new Date() };
    expect(await receiveInbound({ db: t.db }, input)).toEqual({ outcome: "unknown-number" });
    expect(await t.db.selectFrom("inbound_messages").selectAll().where("provider_id", "=", input.providerId).execute()).toHaveLength(0);
  });

  it("hands unprocessed texts to the inbound pipeline, and marks each processed once", async () => {
    const to = number();
    await createBusiness(t.db, { phoneNumber: to });
    const stored = await receiveInbound({ db: t.db }, { providerId: sid(), from: ukMobile(), to, body: "STOP", receivedAt: new Date() });
    if (stored.outcome !== "stored") throw new Error("expected stored");
    expect((await unprocessedInbound(t.db, 1000)).map((r) => r.id)).toContain(stored.message.id);
    expect(await markInboundProcessed(t.db, stored.message.id, new Date())).toBe(true);
    expect(await markInboundProcessed(t.db, stored.message.id, new Date())).toBe(false);
    expect((await unprocessedInbound(t.db, 1000)).map((r) => r.id)).not.toContain(stored.message.id);
  });

  it("records each delivery status once, tied to the sending business", async () => {
    const from = number();
    const businessId = await createBusiness(t.db, { phoneNumber: from });
    const providerId = sid();
    const receivedAt = new Date();
    const sent = await Promise.all(Array.from({ length: 4 }, () => recordDeliveryStatus({ db: t.db }, { providerId, status: "sent", errorCode: null, from, receivedAt })));
    expect(sent.filter((r) => r.outcome === "stored")).toHaveLength(1);
    expect((await recordDeliveryStatus({ db: t.db }, { providerId, status: "undelivered", errorCode: "30003", from, receivedAt })).outcome).toBe("stored");
    expect((await receiptsFor(t.db, providerId)).map((r) => [r.status, r.error_code, r.business_id])).toEqual([
      ["sent", null, businessId],
      ["undelivered", "30003", businessId],
    ]);
    expect(await recordDeliveryStatus({ db: t.db }, { providerId: sid(), status: "sent", errorCode: null, from: number(), receivedAt })).toEqual({ outcome: "unknown-number" });
  });
});
