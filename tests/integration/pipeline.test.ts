// The durable outbound pipeline on both databases: message creation (recipients, merge tags,
// segments, credits), the sending-soon window, the worker (claim, send, guard, retries, failures,
// reconciliation, quiet hours, priority) and delivery receipts.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, pipelineDeps, seedMembers, setSimSetting, simCounts } from "../support/pipeline";
import { createMessage, deleteMessage, messageProgress, updateMessage } from "~/domain/messaging/outbound.server";
import { applyDeliveryReceipt } from "~/domain/messaging/send.server";
import { claimDue } from "~/domain/messaging/worker.server";
import { SIM_FAULT_INVALID_NUMBERS, SIM_FAULT_OPTED_OUT_NUMBERS, SIM_FAULT_TIMEOUT_NEXT, SIM_FAULT_TRANSIENT_NEXT } from "~/providers/sms/simulator.server";
import type { Database } from "#db/index";
import { appError } from "../support/errors";

async function credits(db: Database, businessId: number) {
  const b = await db.selectFrom("businesses").select(["trial_credits", "allowance_used", "message_allowance"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  return b;
}

async function rows(db: Database, messageId: number) {
  return db.selectFrom("outbound").selectAll().where("message_id", "=", messageId).orderBy("id").execute();
}

describe.each(DIALECTS)("outbound pipeline (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(async () => {
    clock = new Clock(middayToday());
    // Each test sees only its own rows at the simulator and in the queue.
    await t.db.deleteFrom("outbound").execute();
    await t.db.deleteFrom("sim_messages").execute();
    await t.db.deleteFrom("sim_settings").execute();
  });

  it("resolves subscribed recipients once, renders merge tags, counts segments and charges credits in one go", async () => {
    const businessId = await createBusiness(t.db, { name: "Rosie's Bakery", messageAllowance: 1000 });
    const subscribed = await seedMembers(t.db, businessId, 5, { firstName: (i) => (i === 0 ? null : `Ann${i}`) });
    await seedMembers(t.db, businessId, 2, { status: "OPTED_OUT" });
    await seedMembers(t.db, businessId, 2, { status: "PENDING" });
    await seedMembers(t.db, businessId, 1, { status: "DELETED" });
    const other = await createBusiness(t.db, { messageAllowance: 1000 });
    await seedMembers(t.db, other, 3);

    const created = await createMessage(pipelineDeps(t.db, clock), {
      businessId,
      kind: "GROUP",
      groupId: -1,
      body: "Hi {{firstName|friend}}, fresh bread at {{businessName}} today!",
    });
    expect(created.recipients).toBe(5);
    expect(created.credits).toBe(5);
    expect(created.status).toBe("SENDING_SOON");
    const r = await rows(t.db, created.messageId);
    expect(r.map((x) => x.to_phone).sort()).toEqual(subscribed.map((m) => m.phone).sort());
    expect(r.find((x) => x.member_id === subscribed[0].id)!.body).toBe("Hi friend, fresh bread at Rosie's Bakery today!\nReply STOP to opt out");
    expect(r.find((x) => x.member_id === subscribed[1].id)!.body).toBe("Hi Ann1, fresh bread at Rosie's Bakery today!\nReply STOP to opt out");
    expect(r.every((x) => x.status === "QUEUED" && x.priority === 1 && x.quiet_hours === 1 && x.segments === 1)).toBe(true);
    expect((await credits(t.db, businessId)).allowance_used).toBe(5);
    const ledger = await t.db.selectFrom("credit_ledger").selectAll().where("business_id", "=", businessId).execute();
    expect(ledger).toHaveLength(1);
    expect(ledger[0].reference).toBe(`message:${created.messageId}`);
  });

  it("counts credits per segment per member (a UCS-2 text and a long text)", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 1000 });
    await seedMembers(t.db, businessId, 3);
    const created = await createMessage(pipelineDeps(t.db, clock), { businessId, kind: "GROUP", groupId: -1, body: "Café ☕ ".repeat(12) });
    // 84 UTF-16 units: UCS-2, two segments each.
    expect(created.credits).toBe(6);
    expect((await rows(t.db, created.messageId)).every((r) => r.segments === 2)).toBe(true);
  });

  it("refuses an empty group (BR026), a DM to a pending member (BR027) and a send beyond the credit (BR012)", async () => {
    const businessId = await createBusiness(t.db, { trialCredits: 3 });
    expect((await appError(createMessage(pipelineDeps(t.db, clock), { businessId, kind: "GROUP", groupId: -1, body: "Hello" }))).code).toBe("BR026");
    const [pending] = await seedMembers(t.db, businessId, 1, { status: "PENDING" });
    expect((await appError(createMessage(pipelineDeps(t.db, clock), { businessId, kind: "DM", recipients: [pending.id], body: "Hello" }))).code).toBe("BR027");
    await seedMembers(t.db, businessId, 2);
    // Two members, two segments each = 4 credits; 3 remain.
    const e = await appError(createMessage(pipelineDeps(t.db, clock), { businessId, kind: "GROUP", groupId: -1, body: "x".repeat(200) }));
    expect(e.code).toBe("BR012");
    expect(e.data).toEqual({ needed: 4, remaining: 3 });
    expect((await credits(t.db, businessId)).trial_credits).toBe(3);
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", businessId).execute()).toEqual([]);
    expect(await t.db.selectFrom("outbound").select("id").where("business_id", "=", businessId).execute()).toEqual([]);
  });

  it("lets a message be edited or deleted while sending soon, then BR014/BR015", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 1000 });
    await seedMembers(t.db, businessId, 4);
    const deps = pipelineDeps(t.db, clock, 60);
    const m = await createMessage(deps, { businessId, kind: "GROUP", groupId: -1, body: "Short" });
    expect((await credits(t.db, businessId)).allowance_used).toBe(4);
    const edited = await updateMessage(deps, { businessId, messageId: m.messageId, body: "y".repeat(161) });
    expect(edited.credits).toBe(8);
    expect((await credits(t.db, businessId)).allowance_used).toBe(8);
    expect((await rows(t.db, m.messageId)).every((r) => r.body === `${"y".repeat(161)}\nReply STOP to opt out`)).toBe(true);
    // Another business cannot touch it.
    const other = await createBusiness(t.db);
    expect((await appError(deleteMessage(deps, { businessId: other, messageId: m.messageId }))).status).toBe(404);

    const d = await createMessage(deps, { businessId, kind: "GROUP", groupId: -1, body: "To delete" });
    await deleteMessage(deps, { businessId, messageId: d.messageId });
    expect((await credits(t.db, businessId)).allowance_used).toBe(8);
    expect(await rows(t.db, d.messageId)).toEqual([]);

    clock.advance(61_000);
    expect((await appError(updateMessage(deps, { businessId, messageId: m.messageId, body: "late" }))).code).toBe("BR014");
    expect((await appError(deleteMessage(deps, { businessId, messageId: m.messageId }))).code).toBe("BR015");
  });

  it("ends the edit window as soon as a worker has claimed a row", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 1000 });
    await seedMembers(t.db, businessId, 3);
    const deps = pipelineDeps(t.db, clock, 60);
    const m = await createMessage(deps, { businessId, kind: "GROUP", groupId: -1, body: "Hello" });
    // A worker whose clock runs ahead claims one row.
    const claimed = await claimDue(t.db, "early-worker", new Date(clock.t + 61_000), 30, 1);
    expect(claimed).toHaveLength(1);
    expect((await appError(deleteMessage(deps, { businessId, messageId: m.messageId }))).code).toBe("BR015");
    expect(await rows(t.db, m.messageId)).toHaveLength(3);
    expect((await credits(t.db, businessId)).allowance_used).toBe(3);
  });

  it("sends every row once through the worker and completes the message", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 5000 });
    const members = await seedMembers(t.db, businessId, 1200);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Hi {{firstName}}" });
    const worker = makeWorker(t.db, clock, { batchSize: 500 });
    await worker.drain();
    const counts = await simCounts(t.db);
    expect(members.every((x) => counts.get(x.phone) === 1)).toBe(true);
    expect(counts.size).toBe(1200);
    const progress = await messageProgress(t.db, businessId, m.messageId);
    expect(progress!.counts).toEqual({ DELIVERED: 1200 });
    expect(progress!.message.status).toBe("COMPLETE");
    const one = await t.db.selectFrom("sim_messages").selectAll().where("phone", "=", members[7].phone).executeTakeFirstOrThrow();
    expect(one.body).toBe("Hi Member7\nReply STOP to opt out");
    const row = (await rows(t.db, m.messageId)).find((r) => r.member_id === members[7].id)!;
    expect(row.provider_id).toBe(one.sid);
    expect(one.reference).toBe(String(row.id));
  });

  it("never sends to a member who opted out after the message was queued: FAILED 'opted out' and refunded", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 3);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Offer" });
    await t.db.updateTable("members").set({ status: "OPTED_OUT" }).where("id", "=", members[1].id).execute();
    await t.db.updateTable("members").set({ status: "DELETED" }).where("id", "=", members[2].id).execute();
    await makeWorker(t.db, clock).drain();
    const counts = await simCounts(t.db);
    expect(counts.get(members[0].phone)).toBe(1);
    expect(counts.has(members[1].phone)).toBe(false);
    expect(counts.has(members[2].phone)).toBe(false);
    const r = await rows(t.db, m.messageId);
    expect(r.find((x) => x.member_id === members[1].id)).toMatchObject({ status: "FAILED", error: "opted out", error_code: "OPTED_OUT" });
    expect(r.find((x) => x.member_id === members[2].id)).toMatchObject({ status: "FAILED", error: "deleted" });
    expect((await credits(t.db, businessId)).allowance_used).toBe(1);
    expect((await messageProgress(t.db, businessId, m.messageId))!.message.status).toBe("COMPLETE");
  });

  it("retries transient provider failures with backoff and sends everything once it recovers", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 20);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Retry me" });
    await setSimSetting(t.db, SIM_FAULT_TRANSIENT_NEXT, "30");
    const worker = makeWorker(t.db, clock, { maxAttempts: 5, backoffMs: 1000 });
    await worker.tick();
    let r = await rows(t.db, m.messageId);
    expect(r.every((x) => x.status === "QUEUED" && x.attempts === 1 && x.error_code === "503")).toBe(true);
    expect(r.every((x) => Date.parse(x.next_attempt_at) > clock.t)).toBe(true);
    // Nothing is due until the backoff passes.
    expect((await worker.tick()).sent).toBe(0);
    for (let i = 0; i < 6; i++) {
      clock.advance(10_000);
      await worker.drain();
    }
    r = await rows(t.db, m.messageId);
    expect(r.every((x) => x.status === "DELIVERED")).toBe(true);
    const counts = await simCounts(t.db);
    expect(members.every((x) => counts.get(x.phone) === 1)).toBe(true);
    expect((await credits(t.db, businessId)).allowance_used).toBe(20);
  });

  it("fails a row after the retry limit, and at once on a permanent error, with the reason and a refund", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 3);
    await setSimSetting(t.db, SIM_FAULT_INVALID_NUMBERS, members[0].phone);
    await setSimSetting(t.db, SIM_FAULT_OPTED_OUT_NUMBERS, members[1].phone);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Hello" });
    await makeWorker(t.db, clock).drain();
    const r = await rows(t.db, m.messageId);
    expect(r.find((x) => x.member_id === members[0].id)).toMatchObject({ status: "FAILED", error_code: "21211", attempts: 1 });
    expect(r.find((x) => x.member_id === members[0].id)!.error).toMatch(/not a valid phone number/);
    expect(r.find((x) => x.member_id === members[1].id)).toMatchObject({ status: "FAILED", error_code: "21610", error: "opted out" });
    expect(r.find((x) => x.member_id === members[2].id)!.status).toBe("DELIVERED");
    expect((await credits(t.db, businessId)).allowance_used).toBe(1);
    // Twilio's 21610 means the recipient texted STOP to the carrier: they are opted out here too.
    const opted = await t.db.selectFrom("members").select("status").where("id", "=", members[1].id).executeTakeFirstOrThrow();
    expect(opted.status).toBe("OPTED_OUT");
    const log = await t.db.selectFrom("consent_log").selectAll().where("member_id", "=", members[1].id).execute();
    expect(log.map((l) => l.action)).toEqual(["OPTED_OUT"]);

    // A message whose every row failed is FAILED with the reason.
    const [only] = await seedMembers(t.db, businessId, 1);
    await t.db.updateTable("members").set({ status: "OPTED_OUT" }).where("id", "in", [members[0].id, members[2].id]).execute();
    await setSimSetting(t.db, SIM_FAULT_TRANSIENT_NEXT, "100");
    const m2 = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Doomed" });
    const worker = makeWorker(t.db, clock, { maxAttempts: 3, backoffMs: 10 });
    for (let i = 0; i < 5; i++) {
      await worker.drain();
      clock.advance(1000);
    }
    const failed = await rows(t.db, m2.messageId);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ member_id: only.id, status: "FAILED", attempts: 3, error_code: "503" });
    const p = await messageProgress(t.db, businessId, m2.messageId);
    expect(p!.message.status).toBe("FAILED");
    expect(p!.message.error).toMatch(/503/);
    expect((await credits(t.db, businessId)).allowance_used).toBe(1);
  });

  it("reconciles a time-out after acceptance with the provider instead of sending again", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 10);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Once only" });
    await setSimSetting(t.db, SIM_FAULT_TIMEOUT_NEXT, "4");
    const worker = makeWorker(t.db, clock, { backoffMs: 1000 });
    await worker.tick();
    let r = await rows(t.db, m.messageId);
    expect(r.filter((x) => x.status === "SENDING")).toHaveLength(4);
    clock.advance(5000);
    await worker.drain();
    r = await rows(t.db, m.messageId);
    expect(r.every((x) => x.status === "DELIVERED" && x.provider_id)).toBe(true);
    const counts = await simCounts(t.db);
    expect(members.every((x) => counts.get(x.phone) === 1)).toBe(true);
  });

  it("recovers a row whose worker died: found at the provider -> SENT, never there -> sent once", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 4);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Crash test" });
    const claimed = await claimDue(t.db, "dead-worker", clock.now(), 30, 10);
    expect(claimed).toHaveLength(4);
    // The dead worker got two texts to the provider before it died.
    const { SimulatorSmsProvider } = await import("~/providers/sms/simulator.server");
    await new SimulatorSmsProvider(t.db, clock.now).sendMany(claimed.slice(0, 2).map((c) => ({ from: c.from_phone, to: c.to_phone, body: c.body, reference: String(c.id) })));
    const worker = makeWorker(t.db, clock);
    await worker.drain();
    // Leases still valid: nothing touched.
    expect((await rows(t.db, m.messageId)).every((x) => x.status === "SENDING")).toBe(true);
    clock.advance(31_000);
    await worker.drain();
    const r = await rows(t.db, m.messageId);
    expect(r.every((x) => x.status === "DELIVERED")).toBe(true);
    const counts = await simCounts(t.db);
    expect(members.map((x) => counts.get(x.phone))).toEqual([1, 1, 1, 1]);
    expect((await messageProgress(t.db, businessId, m.messageId))!.message.status).toBe("COMPLETE");
  });

  it("holds group texts during quiet hours (UK time) until the morning; DMs go at once and first", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 3);
    // 22:30 UTC in January is 22:30 in London (GMT).
    clock.set(new Date("2027-01-12T22:30:00Z"));
    await t.db.updateTable("businesses").set({ trial_ends_at: "2027-12-31T00:00:00.000Z" }).where("id", "=", businessId).execute();
    const g = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Night offer" });
    const dm = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "DM", recipients: [members[0].id], body: "Your order is ready" });
    const gr = await rows(t.db, g.messageId);
    expect(gr.every((x) => x.next_attempt_at === "2027-01-13T08:00:00.000Z")).toBe(true);
    const worker = makeWorker(t.db, clock);
    await worker.drain();
    expect((await rows(t.db, dm.messageId))[0].status).toBe("DELIVERED");
    expect((await rows(t.db, g.messageId)).every((x) => x.status === "QUEUED")).toBe(true);
    // A group row made due during the night by hand (e.g. a retry) is still held back by the worker.
    await t.db.updateTable("outbound").set({ next_attempt_at: clock.now().toISOString() }).where("message_id", "=", g.messageId).execute();
    await worker.drain();
    const held = await rows(t.db, g.messageId);
    expect(held.every((x) => x.status === "QUEUED" && x.next_attempt_at === "2027-01-13T08:00:00.000Z" && x.attempts === 0)).toBe(true);
    clock.set(new Date("2027-01-13T08:00:01Z"));
    await worker.drain();
    expect((await rows(t.db, g.messageId)).every((x) => x.status === "DELIVERED")).toBe(true);

    // DMs and system texts are claimed before bulk rows queued earlier.
    await t.db.deleteFrom("outbound").execute();
    const bulk = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Bulk" });
    const dm2 = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "DM", recipients: [members[2].id], body: "Urgent" });
    const first = await claimDue(t.db, "w", clock.now(), 30, 1);
    expect(first[0].message_id).toBe(dm2.messageId);
    void bulk;
  });

  it("paces sends per from-number (segments per second) and claims no more than a quarter lease of work", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 30);
    await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Paced" });
    const worker = makeWorker(t.db, clock, { ratePerSecond: 20, leaseSeconds: 1 });
    const started = Date.now();
    const first = await worker.tick();
    // 20/s × 1 s lease / 4 = 5 rows a claim.
    expect(first.sent).toBe(5);
    await worker.drain();
    const elapsed = Date.now() - started;
    // 20 segments go at once, the other 10 need half a second more.
    expect(elapsed).toBeGreaterThanOrEqual(400);
    const counts = await simCounts(t.db);
    expect(members.every((x) => counts.get(x.phone) === 1)).toBe(true);
  });

  it("applies delivery receipts once and in any order", async () => {
    const businessId = await createBusiness(t.db, { messageAllowance: 100 });
    const members = await seedMembers(t.db, businessId, 2);
    const m = await createMessage(pipelineDeps(t.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Receipts" });
    const r = await rows(t.db, m.messageId);
    await t.db.updateTable("outbound").set({ status: "SENT", provider_id: "SMaaa" }).where("id", "=", r[0].id).execute();
    await t.db.updateTable("outbound").set({ status: "SENT", provider_id: "SMbbb" }).where("id", "=", r[1].id).execute();
    expect(await applyDeliveryReceipt(t.db, { providerId: "SMaaa", status: "delivered" }, clock.now())).toBe(true);
    expect(await applyDeliveryReceipt(t.db, { providerId: "SMaaa", status: "delivered" }, clock.now())).toBe(false);
    expect(await applyDeliveryReceipt(t.db, { providerId: "SMaaa", status: "undelivered", errorCode: "30003" }, clock.now())).toBe(false);
    expect(await applyDeliveryReceipt(t.db, { providerId: "SMbbb", status: "undelivered", errorCode: "30005" }, clock.now())).toBe(true);
    expect(await applyDeliveryReceipt(t.db, { providerId: "SMbbb", status: "sent" }, clock.now())).toBe(false);
    const after = await rows(t.db, m.messageId);
    expect(after[0]).toMatchObject({ status: "DELIVERED" });
    expect(after[1]).toMatchObject({ status: "FAILED", error_code: "30005", error: "undelivered" });
    void members;
  });
});
