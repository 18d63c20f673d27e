// Snoozed conversations on both databases: once the snooze time has passed, every reader (the inbox
// tabs and their counts, the unread total, one member's unread count, the unread list and the home
// feed, over HTTP too) sees the conversation as unread without the row being changed; the worker's
// periodic step wakeDueSnoozed is what writes it, in batches, leaving snoozes still to come alone.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp } from "../support/server";
import type { Database } from "#db/index";
import { getThread, listInbox, unreadForMember, unreadTotal, wakeDueSnoozed } from "~/domain/conversations/conversations.server";
import { getUnreadMessages } from "~/domain/messaging/unread.server";

async function snoozed(db: Database, businessId: number, memberId: number, until: Date, lastMessageAt: Date) {
  await db
    .insertInto("conversations")
    .values({ business_id: businessId, member_id: memberId, state: "SNOOZED", snoozed_until: until.toISOString(), last_message_at: lastMessageAt.toISOString(), unread_count: 0, read_at: lastMessageAt.toISOString() })
    .execute();
}

async function rowsOf(db: Database, businessId: number) {
  return db.selectFrom("conversations").select(["member_id", "state", "snoozed_until", "unread_count"]).where("business_id", "=", businessId).orderBy("member_id").execute();
}

describe.each(DIALECTS)("snoozed conversations (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("read as unread once due, everywhere, without any write; the worker step wakes them", async () => {
    const businessId = await createBusiness(t.db);
    const [due, later, plain] = await seedMembers(t.db, businessId, 3);
    const now = new Date("2026-11-22T12:00:00.000Z");
    await snoozed(t.db, businessId, due.id, new Date(now.getTime() - 1000), new Date(now.getTime() - 3600_000));
    await snoozed(t.db, businessId, later.id, new Date(now.getTime() + 3600_000), new Date(now.getTime() - 7200_000));
    await t.db.insertInto("conversations").values({ business_id: businessId, member_id: plain.id, state: "UNREAD", last_message_at: now.toISOString(), unread_count: 2 }).execute();
    const before = await rowsOf(t.db, businessId);

    const unread = await listInbox(t.db, businessId, { tab: "unread" }, now);
    expect(unread.rows.map((r) => [r.memberId, r.state, r.unreadCount])).toEqual([
      [plain.id, "UNREAD", 2],
      [due.id, "UNREAD", 1],
    ]);
    expect(unread.counts).toEqual({ unread: 2, read: 0, active: 2, snoozed: 1 });
    expect((await listInbox(t.db, businessId, { tab: "active" }, now)).rows.map((r) => r.memberId)).toEqual([plain.id, due.id]);
    expect((await listInbox(t.db, businessId, { tab: "snoozed" }, now)).rows.map((r) => r.memberId)).toEqual([later.id]);
    // Paging stays right: one row a page still walks both unread conversations.
    const first = await listInbox(t.db, businessId, { tab: "unread", limit: 1 }, now);
    expect(first.next).not.toBeNull();
    expect(await unreadTotal(t.db, businessId, now)).toBe(3);
    expect(await unreadForMember(t.db, businessId, due.id, now)).toBe(1);
    expect(await unreadForMember(t.db, businessId, later.id, now)).toBe(0);
    expect((await getUnreadMessages(t.db, businessId, now)).map((m) => m.memberId)).toEqual([plain.id, due.id]);
    expect((await getThread(t.db, businessId, due.id, {}, now)).conversation).toMatchObject({ state: "UNREAD", unreadCount: 1 });
    expect((await getThread(t.db, businessId, later.id, {}, now)).conversation).toMatchObject({ state: "SNOOZED" });
    // Nothing above wrote anything.
    expect(await rowsOf(t.db, businessId)).toEqual(before);

    // The worker's step: wakes the due one for real, once; the later one waits for its time.
    expect(await wakeDueSnoozed(t.db, now)).toBe(1);
    expect(await wakeDueSnoozed(t.db, now)).toBe(0);
    const after = await rowsOf(t.db, businessId);
    expect(after.find((r) => r.member_id === due.id)).toMatchObject({ state: "UNREAD", snoozed_until: null, unread_count: 1 });
    expect(after.find((r) => r.member_id === later.id)).toMatchObject({ state: "SNOOZED", unread_count: 0 });
    // Readers see the same before and after the write.
    expect(await unreadTotal(t.db, businessId, now)).toBe(3);
    expect((await listInbox(t.db, businessId, { tab: "unread" }, now)).counts).toEqual(unread.counts);
  });

  it("wakes every business's due snoozes in batches", async () => {
    const now = new Date("2026-11-22T12:00:00.000Z");
    const a = await createBusiness(t.db);
    const b = await createBusiness(t.db);
    const ma = await seedMembers(t.db, a, 3);
    const [mb] = await seedMembers(t.db, b, 1);
    for (const [i, m] of ma.entries()) await snoozed(t.db, a, m.id, new Date(now.getTime() - (i + 1) * 1000), now);
    await snoozed(t.db, b, mb.id, new Date(now.getTime() - 500), now);
    let woken = 0;
    for (let n = await wakeDueSnoozed(t.db, now, { limit: 2 }); n > 0; n = await wakeDueSnoozed(t.db, now, { limit: 2 })) {
      expect(n).toBeLessThanOrEqual(2);
      woken += n;
    }
    expect(woken).toBe(4);
    for (const biz of [a, b]) expect((await rowsOf(t.db, biz)).every((r) => r.state === "UNREAD" && r.snoozed_until === null)).toBe(true);
  });
});

describe.each(DIALECTS)("snoozed conversations over HTTP (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("a GET after the snooze time shows it unread and leaves the row alone; the worker step then wakes it", async () => {
    const account = await createAccount(t.app.db, { trialCredits: 50 });
    const client = t.app.client();
    await client.login(account.email, account.password);
    const [alice] = await seedMembers(t.app.db, account.businessId, 1);
    await t.app.db.updateTable("members").set({ full_name: "Alice Archer" }).where("id", "=", alice.id).execute();
    const past = new Date(Date.now() - 60_000);
    await snoozed(t.app.db, account.businessId, alice.id, past, new Date(Date.now() - 3600_000));
    const before = await rowsOf(t.app.db, account.businessId);

    const inbox = await client.get("/directmessages?tab=unread");
    expect(inbox.status).toBe(200);
    const text = pageText(await inbox.text());
    expect(text).toContain("Alice Archer");
    expect(text).toContain("Unread (1)");
    expect(pageText(await (await client.get("/directmessages?tab=snoozed")).text())).not.toContain("Alice Archer");
    const total = await client.get("/api/stats?type=UNREADMESSAGESTOTAL");
    expect(await total.json()).toEqual({ total: 1 });
    const list = (await (await client.get("/api/directmessages?filter=UNREAD")).json()) as Array<{ fullName: string }>;
    expect(list.map((m) => m.fullName)).toEqual(["Alice Archer"]);
    expect((await client.get("/api/feed")).status).toBe(200);
    expect((await client.get("/")).status).toBe(200);
    expect(await rowsOf(t.app.db, account.businessId)).toEqual(before);

    expect(await wakeDueSnoozed(t.app.db, new Date(), { businessId: account.businessId })).toBe(1);
    expect(await rowsOf(t.app.db, account.businessId)).toEqual([{ member_id: alice.id, state: "UNREAD", snoozed_until: null, unread_count: 1 }]);
    expect(await (await client.get("/api/stats?type=UNREADMESSAGESTOTAL")).json()).toEqual({ total: 1 });
  });
});
