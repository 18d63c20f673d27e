// Conversations on both databases: DM states (unread, read, snoozed with wake-up, cleared, a new text
// re-activates), unread counts, thread ordering both ways with states and paging, the inbox tabs and
// keyset paging, DM sending rules (pending, opted out, another business, idempotency), member search.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, pipelineDeps, seedMembers } from "../support/pipeline";
import type { Database } from "#db/index";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import {
  changeConversation,
  getThread,
  listInbox,
  openThread,
  parseInboxCursor,
  parseThreadCursor,
  phonePrefix,
  searchSubscribedMembers,
  sendDirectMessage,
  unreadForMember,
  unreadTotal,
  wakeDueSnoozed,
} from "~/domain/conversations/conversations.server";
import { getUnreadMessages } from "~/domain/messaging/unread.server";
import { getStat } from "~/domain/stats/stats.server";
import { getFeed } from "~/domain/feed/feed.server";
import { AppError } from "~/lib/errors";
import { seedDemo } from "#db/seed";
import { SEED_APP } from "../support/seed";

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e.code;
    throw e;
  }
  return "none";
}

describe("pure helpers", () => {
  it("parses cursors strictly", () => {
    expect(parseInboxCursor("2026-11-22T10:00:00.000Z~12")).toEqual({ at: "2026-11-22T10:00:00.000Z", id: 12 });
    expect(parseInboxCursor("x~1")).toBeNull();
    expect(parseInboxCursor("2026-11-22T10:00:00.000Z~-1")).toBeNull();
    expect(parseInboxCursor("2026-11-22T10:00:00.000Z~1~2")).toBeNull();
    expect(parseThreadCursor("12~5")).toEqual({ inBefore: 12, outBefore: 5 });
    expect(parseThreadCursor("-~5")).toEqual({ inBefore: null, outBefore: 5 });
    expect(parseThreadCursor("12~x")).toBeNull();
    expect(parseThreadCursor("1~2~3")).toBeNull();
    expect(parseThreadCursor("'; drop table members; --")).toBeNull();
  });
  it("turns typed numbers into E.164 prefixes", () => {
    expect(phonePrefix("07700 900")).toBe("+447700900");
    expect(phonePrefix("+44 7700")).toBe("+447700");
    expect(phonePrefix("Alice")).toBeNull();
  });
});

describe.each(DIALECTS)("conversations (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let n = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  async function setup(db: Database, members = 3) {
    const businessId = await createBusiness(db, { trialCredits: 1000 });
    const biz = (await db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const ms = await seedMembers(db, businessId, members, { now: clock.now() });
    return { businessId, biz, ms };
  }
  async function text(db: Database, from: string, to: string, body: string) {
    clock.advance(1000);
    await receiveInbound({ db }, { providerId: `SMconv${dialect}${++n}${Date.now()}`, from, to, body, receivedAt: clock.now() });
    await makeWorker(db, clock).drain();
  }
  async function state(db: Database, businessId: number, memberId: number) {
    return (await db.selectFrom("conversations").select(["state", "unread_count"]).where("business_id", "=", businessId).where("member_id", "=", memberId).executeTakeFirst()) ?? null;
  }

  it("a text makes the conversation unread; opening reads it; mark unread, clear and a new text re-activate", async () => {
    const { businessId, biz, ms } = await setup(t.db);
    const [a] = ms;
    await text(t.db, a.phone, biz, "Are you open on Sunday?");
    await text(t.db, a.phone, biz, "And Monday?");
    expect(await state(t.db, businessId, a.id)).toMatchObject({ state: "UNREAD", unread_count: 2 });
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(2);
    expect(await unreadForMember(t.db, businessId, a.id, clock.now())).toBe(2);
    expect(await getStat(t.db, businessId, "UNREADMESSAGESTOTAL", {}, clock.now())).toBe(2);
    expect(await getStat(t.db, businessId, "UNREADMESSAGESSUBSCRIBERTOTAL", { contactId: a.id }, clock.now())).toBe(2);
    const summaries = await getUnreadMessages(t.db, businessId, clock.now());
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ phoneNumber: a.phone, messageText: "And Monday?", fullName: "Member0" });
    const feed = await getFeed(t.db, { userId: 0, businessId }, clock.now());
    expect(feed.find((i) => i.type === "UNREADMESSAGES")).toMatchObject({ totalReceived: 2, messageText: "And Monday?" });

    await openThread(t.db, businessId, a.id, clock.now());
    expect(await state(t.db, businessId, a.id)).toMatchObject({ state: "READ", unread_count: 0 });
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(0);
    expect(await getUnreadMessages(t.db, businessId, clock.now())).toEqual([]);
    expect((await getFeed(t.db, { userId: 0, businessId }, clock.now())).some((i) => i.type === "UNREADMESSAGES")).toBe(false);

    expect(await changeConversation(t.db, businessId, a.id, { action: "unread" }, clock.now())).toBe("UNREAD");
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(1);
    expect(await changeConversation(t.db, businessId, a.id, { action: "read" }, clock.now())).toBe("READ");
    expect(await changeConversation(t.db, businessId, a.id, { action: "clear" }, clock.now())).toBe("INACTIVE");
    let inbox = await listInbox(t.db, businessId, { tab: "active" }, clock.now());
    expect(inbox.rows).toHaveLength(0);
    await text(t.db, a.phone, biz, "Hello again");
    expect(await state(t.db, businessId, a.id)).toMatchObject({ state: "UNREAD", unread_count: 1 });
    inbox = await listInbox(t.db, businessId, { tab: "unread" }, clock.now());
    expect(inbox.rows.map((r) => [r.memberId, r.lastText, r.lastDirection])).toEqual([[a.id, "Hello again", "in"]]);
  });

  it("snooze hides the conversation until its time, then it wakes unread; a text wakes it sooner", async () => {
    const { businessId, biz, ms } = await setup(t.db);
    const [a, b] = ms;
    await text(t.db, a.phone, biz, "Question one");
    await text(t.db, b.phone, biz, "Question two");
    const until = new Date(clock.now().getTime() + 3600_000);
    expect(await codeOf(changeConversation(t.db, businessId, a.id, { action: "snooze", until: new Date(clock.now().getTime() - 1000) }, clock.now()))).toBe("BR013");
    expect(await changeConversation(t.db, businessId, a.id, { action: "snooze", until }, clock.now())).toBe("SNOOZED");
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(1);
    expect((await listInbox(t.db, businessId, { tab: "snoozed" }, clock.now())).rows.map((r) => r.memberId)).toEqual([a.id]);
    expect((await listInbox(t.db, businessId, { tab: "active" }, clock.now())).rows.map((r) => r.memberId)).toEqual([b.id]);

    clock.advance(3600_000 - 5000);
    expect((await state(t.db, businessId, a.id))!.state).toBe("SNOOZED");
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(1);
    clock.advance(5000);
    // The time has passed, so it reads as unread again (counted, and in the unread tab), though reading
    // wrote nothing; the worker's step wakes it for real.
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(2);
    const unreadTab = await listInbox(t.db, businessId, { tab: "unread" }, clock.now());
    expect(unreadTab.rows.map((r) => r.memberId).sort()).toEqual([a.id, b.id].sort());
    expect(unreadTab.counts).toMatchObject({ unread: 2, snoozed: 0, active: 2 });
    expect((await state(t.db, businessId, a.id))!.state).toBe("SNOOZED");
    expect(await wakeDueSnoozed(t.db, clock.now(), { businessId })).toBe(1);
    expect(await state(t.db, businessId, a.id)).toMatchObject({ state: "UNREAD", unread_count: 1 });

    // Snoozed again, the member texts: active and unread at once.
    await changeConversation(t.db, businessId, b.id, { action: "snooze", until: new Date(clock.now().getTime() + 86400_000) }, clock.now());
    await text(t.db, b.phone, biz, "Still there?");
    expect(await state(t.db, businessId, b.id)).toMatchObject({ state: "UNREAD" });
  });

  it("a thread lists every text both ways in order with its state, and pages back through 120 texts", async () => {
    const { businessId, biz, ms } = await setup(t.db);
    const [a] = ms;
    const deps = pipelineDeps(t.db, clock, 60);
    await text(t.db, a.phone, biz, "Hi there");
    clock.advance(1000);
    const dm = await sendDirectMessage(deps, { businessId, memberId: a.id, body: "Hello {{firstName}}!", idempotencyKey: "k1" });
    let thread = await getThread(t.db, businessId, a.id, {}, clock.now());
    expect(thread.items.map((i) => [i.direction, i.body, i.state])).toEqual([
      ["in", "Hi there", "RECEIVED"],
      ["out", "Hello Member0!", "SENDING_SOON"],
    ]);
    // After the pause the worker sends it: sent or delivered.
    clock.advance(61_000);
    await makeWorker(t.db, clock).drain();
    thread = await getThread(t.db, businessId, a.id, {}, clock.now());
    expect(["SENT", "DELIVERED"]).toContain(thread.items[1].state);
    expect(thread.items[1].kind).toBe("DM");
    // The same key again is the same message, not a second one.
    const again = await sendDirectMessage(deps, { businessId, memberId: a.id, body: "Hello {{firstName}}!", idempotencyKey: "k1" });
    expect(again).toEqual({ messageId: dm.messageId, duplicate: true });
    expect(Number((await t.db.selectFrom("messages").select((eb) => eb.fn.countAll().as("n")).where("business_id", "=", businessId).where("kind", "=", "DM").executeTakeFirstOrThrow()).n)).toBe(1);

    // A failed text shows its reason.
    await t.db.updateTable("outbound").set({ status: "FAILED", error_code: "invalid-number", error: "bad" }).where("business_id", "=", businessId).where("member_id", "=", a.id).execute();
    thread = await getThread(t.db, businessId, a.id, {}, clock.now());
    expect(thread.items[1]).toMatchObject({ state: "FAILED", failureKey: "messaging.providerFailure.invalidNumber" });

    // 120 more texts alternating both ways: pages of 50, newest last within a page, no gaps or repeats.
    for (let i = 0; i < 60; i++) {
      await receiveInbound({ db: t.db }, { providerId: `SMbulk${dialect}${Date.now()}${i}`, from: a.phone, to: biz, body: `in ${i}`, receivedAt: new Date(clock.now().getTime() + i * 2000) });
    }
    await makeWorker(t.db, clock).drain();
    for (let i = 0; i < 60; i++) {
      clock.advance(2000);
      await sendDirectMessage(deps, { businessId, memberId: a.id, body: `out ${i}` });
    }
    const seen: string[] = [];
    let before = null;
    let pages = 0;
    for (;;) {
      const page = await getThread(t.db, businessId, a.id, { before: parseThreadCursor(before) }, clock.now());
      pages++;
      const times = page.items.map((i) => i.at);
      expect([...times].sort()).toEqual(times);
      seen.unshift(...page.items.map((i) => i.key));
      if (!page.earlier) break;
      before = page.earlier;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(122);
    expect(new Set(seen).size).toBe(122);
  });

  it("refuses DMs to pending and opted-out members, and another business's member is not found", async () => {
    const { businessId, ms } = await setup(t.db, 1);
    const other = await setup(t.db, 1);
    const deps = pipelineDeps(t.db, clock, 60);
    const [pending] = await seedMembers(t.db, businessId, 1, { status: "PENDING" });
    const [out] = await seedMembers(t.db, businessId, 1, { status: "OPTED_OUT" });
    expect(await codeOf(sendDirectMessage(deps, { businessId, memberId: pending.id, body: "Hi" }))).toBe("BR027");
    expect(await codeOf(sendDirectMessage(deps, { businessId, memberId: out.id, body: "Hi" }))).toBe("BR039");
    expect(await codeOf(sendDirectMessage(deps, { businessId, memberId: other.ms[0].id, body: "Hi" }))).toBe("NF001");
    expect(await codeOf(sendDirectMessage(deps, { businessId, memberId: ms[0].id, body: "   " }))).toBe("BR025");
    expect(await codeOf(getThread(t.db, businessId, other.ms[0].id, {}, clock.now()))).toBe("NF001");
    expect(await codeOf(changeConversation(t.db, businessId, other.ms[0].id, { action: "clear" }, clock.now()))).toBe("NF001");
    expect(await unreadForMember(t.db, businessId, other.ms[0].id, clock.now())).toBe(0);
    expect(await t.db.selectFrom("outbound").select("id").where("business_id", "=", businessId).execute()).toEqual([]);
    // Out of credit: BR012 and nothing sent.
    await t.db.updateTable("businesses").set({ trial_credits: 0 }).where("id", "=", businessId).execute();
    expect(await codeOf(sendDirectMessage(deps, { businessId, memberId: ms[0].id, body: "Hi" }))).toBe("BR012");
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "=", businessId).where("kind", "=", "DM").execute()).toEqual([]);
  });

  it("the inbox pages newest first without gaps, and a reply moves a conversation to the top", async () => {
    const { businessId, biz, ms } = await setup(t.db, 60);
    for (const m of ms) await receiveInbound({ db: t.db }, { providerId: `SMinbox${dialect}${Date.now()}${m.id}`, from: m.phone, to: biz, body: `from ${m.id}`, receivedAt: new Date(clock.now().getTime() + m.id * 1000) });
    await makeWorker(t.db, clock).drain();
    const ids: number[] = [];
    let before = null;
    for (;;) {
      const page = await listInbox(t.db, businessId, { tab: "active", before: parseInboxCursor(before), limit: 25 }, clock.now());
      ids.push(...page.rows.map((r) => r.memberId));
      if (!page.next) break;
      before = page.next;
    }
    expect(ids).toEqual([...ms.map((m) => m.id)].sort((x, y) => y - x));
    clock.set(new Date(clock.now().getTime() + 10 * 86400_000));
    await sendDirectMessage(pipelineDeps(t.db, clock, 60), { businessId, memberId: ms[0].id, body: "Thanks!" });
    const top = await listInbox(t.db, businessId, { tab: "unread", limit: 1 }, clock.now());
    expect(top.rows[0]).toMatchObject({ memberId: ms[0].id, lastText: "Thanks!", lastDirection: "out" });
  });

  it("the demo seed has an unread question from Amelia and a read, answered thread with Oliver", async () => {
    // A fresh database only: seedDemo does nothing once a business exists, so use an empty one.
    const fresh = await (await import("../support/db")).createTestDb(dialect);
    try {
      await seedDemo(fresh.db, clock.now(), SEED_APP);
      const biz = await fresh.db.selectFrom("businesses").select("id").executeTakeFirstOrThrow();
      const unread = await getUnreadMessages(fresh.db, Number(biz.id), clock.now());
      expect(unread.map((u) => u.fullName)).toEqual(["Amelia Hart"]);
      expect(await unreadTotal(fresh.db, Number(biz.id), clock.now())).toBe(1);
      const inbox = await listInbox(fresh.db, Number(biz.id), { tab: "active" }, clock.now());
      expect(inbox.rows.map((r) => [r.name, r.state, r.lastDirection])).toEqual([
        ["Amelia Hart", "UNREAD", "in"],
        ["Oliver Grant", "READ", "out"],
      ]);
      const oliver = inbox.rows[1].memberId;
      const thread = await getThread(fresh.db, Number(biz.id), oliver, {}, clock.now());
      expect(thread.items.map((i) => [i.direction, i.state])).toEqual([
        ["in", "RECEIVED"],
        ["out", "DELIVERED"],
      ]);
    } finally {
      await fresh.dispose();
    }
  });

  it("caps the tab counts at 999+ so the labels stay cheap however many conversations there are", async () => {
    const { businessId, ms } = await setup(t.db, 1003);
    const at = clock.now().toISOString();
    const rows = ms.map((m, i) => ({ business_id: businessId, member_id: m.id, state: (i < 1001 ? "UNREAD" : "SNOOZED") as "UNREAD" | "SNOOZED", last_message_at: at, unread_count: 1, snoozed_until: i < 1001 ? null : "2999-01-01T00:00:00.000Z" }));
    for (let i = 0; i < rows.length; i += 200) await t.db.insertInto("conversations").values(rows.slice(i, i + 200)).execute();
    const page = await listInbox(t.db, businessId, { tab: "unread" }, clock.now());
    expect(page.counts).toEqual({ unread: 1000, read: 0, active: 1000, snoozed: 2 });
    expect(page.rows).toHaveLength(25);
    expect(page.next).not.toBeNull();
    expect(await unreadTotal(t.db, businessId, clock.now())).toBe(1001);
  });

  it("searches subscribed members by name and number only", async () => {
    const { businessId, ms } = await setup(t.db, 3);
    await t.db.updateTable("members").set({ full_name: "Alice 100% O'Neil" }).where("id", "=", ms[1].id).execute();
    const [pending] = await seedMembers(t.db, businessId, 1, { status: "PENDING", firstName: () => "Alice" });
    expect((await searchSubscribedMembers(t.db, businessId, "alice")).map((m) => m.id)).toEqual([ms[1].id]);
    expect((await searchSubscribedMembers(t.db, businessId, "100%")).map((m) => m.id)).toEqual([ms[1].id]);
    expect((await searchSubscribedMembers(t.db, businessId, "_")).map((m) => m.id)).toEqual([]);
    const national = `0${ms[2].phone.slice(3)}`;
    expect((await searchSubscribedMembers(t.db, businessId, national)).map((m) => m.id)).toEqual([ms[2].id]);
    expect((await searchSubscribedMembers(t.db, businessId, "")).map((m) => m.id)).not.toContain(pending.id);
  });
});
