// An objection is undone only by the person: once a number has objected to a business, nobody else's act
// subscribes it again, on both databases. Also: objections as people write them, a burst of JOIN texts gets one
// opt-in text, and the member-change hook runs inside the same transaction.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";
import { Clock, makeWorker, middayToday, seedMembers } from "../support/pipeline";
import { appError } from "../support/errors";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { processInbound } from "~/domain/messaging/inbound-processing.server";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";
import { confirmJoinByRefWithCode, deleteMember, inviteMember, joinByRef } from "~/domain/members/community.server";
import { webJoin } from "~/domain/groups/join.server";
import { createImportJob, runImport } from "~/domain/import/import.server";
import { loadConsentBusiness, onMemberChange, subscribe, type MemberChange } from "~/domain/consent/consent.server";
import { getThread, listInbox } from "~/domain/conversations/conversations.server";
import type { Database } from "#db/index";

describe.each(DIALECTS)("consent: an objection is undone only by the person (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let n = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  async function business(db: Database, name = `Salon ${++n}`) {
    const id = await createBusiness(db, { name, referralCode: `J${dialect.slice(0, 2)}${Date.now().toString(36)}${n}` });
    const row = await db.selectFrom("businesses").select(["phone_number", "referral_code"]).where("id", "=", id).executeTakeFirstOrThrow();
    return { id, number: row.phone_number!, slug: row.referral_code };
  }
  async function text(db: Database, from: string, to: string, body: string) {
    clock.advance(1000);
    await receiveInbound({ db }, { providerId: `SMc${dialect}${++n}${Date.now()}`, from, to, body, receivedAt: clock.now() });
    await processInbound({ db, now: clock.now });
  }
  async function send(db: Database) {
    await makeWorker(db, clock).drain();
  }
  async function received(db: Database, phone: string) {
    await send(db);
    return (await textsReceivedBy(db, phone)).map((x) => x.body);
  }
  async function member(db: Database, businessId: number, phone: string) {
    return db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "=", phone).executeTakeFirst();
  }
  async function log(db: Database, businessId: number, phone: string) {
    return (await db.selectFrom("consent_log").select(["action", "channel"]).where("business_id", "=", businessId).where("phone", "=", phone).orderBy("id").execute()).map((r) => `${r.action}/${r.channel}`);
  }
  async function stopped(db: Database) {
    const b = await business(db);
    const [m] = await seedMembers(db, b.id, 1);
    await text(db, m.phone, b.number, "STOP");
    expect((await member(db, b.id, m.phone))!.status).toBe("OPTED_OUT");
    return { b, m };
  }

  it("refuses to re-invite a deleted member who had texted STOP (BR039) and sends nothing", async () => {
    const { b, m } = await stopped(t.db);
    const before = (await received(t.db, m.phone)).length;
    await deleteMember(t.db, b.id, m.id, clock.now());
    const error = await appError(inviteMember(t.db, b.id, { phone: m.phone, values: {} }, clock.now()));
    expect(error.code).toBe("BR039");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("DELETED");
    expect(await received(t.db, m.phone)).toHaveLength(before);
    expect(await log(t.db, b.id, m.phone)).toEqual(["OPTED_OUT/SMS"]);
  });

  it("refuses to invite a number that texted STOP before it ever joined", async () => {
    const b = await business(t.db);
    const phone = ukMobile();
    await text(t.db, phone, b.number, "stop texting me please");
    expect(await member(t.db, b.id, phone)).toBeUndefined();
    expect(await log(t.db, b.id, phone)).toEqual(["OPTED_OUT/SMS"]);
    const error = await appError(inviteMember(t.db, b.id, { phone, values: {} }, clock.now()));
    expect(error.code).toBe("BR039");
    expect(await member(t.db, b.id, phone)).toBeUndefined();
    expect(await received(t.db, phone)).toHaveLength(1); // only the opt-out confirmation
  });

  it("lets the public join page send a number that objected one opt-in request a day; only its YES subscribes it", async () => {
    const { b, m } = await stopped(t.db);
    const base = (await received(t.db, m.phone)).length;
    expect(await webJoin(t.db, { slug: b.slug, phone: m.phone, ip: "203.0.113.9", now: clock.now() })).toBe("SENT");
    clock.advance(60_000);
    expect(await webJoin(t.db, { slug: b.slug, phone: m.phone, ip: "203.0.113.9", now: clock.now() })).toBe("LIMITED");
    const texts = await received(t.db, m.phone);
    expect(texts).toHaveLength(base + 1);
    expect(texts.at(-1)).toMatch(/reply YES/);
    expect((await member(t.db, b.id, m.phone))!.status).toBe("PENDING");
    // The owner holding the member's form link cannot confirm it: a code goes to the phone instead.
    const ref = (await member(t.db, b.id, m.phone))!.unique_ref;
    expect(await joinByRef(t.db, ref, clock.now())).toBe("CODE_SENT");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("PENDING");
    expect(await log(t.db, b.id, m.phone)).toEqual(["OPTED_OUT/SMS", "OPT_IN_REQUESTED/WEB"]);
    expect(await confirmJoinByRefWithCode(t.db, ref, "000000", clock.now())).toBe("WRONG");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("PENDING");
    // The person's own YES subscribes it.
    await text(t.db, m.phone, b.number, "Yes please");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("SUBSCRIBED");
    expect(await log(t.db, b.id, m.phone)).toEqual(["OPTED_OUT/SMS", "OPT_IN_REQUESTED/WEB", "OPTED_IN/SMS"]);
  });

  it("subscribes a number that objected from its member form only with the code texted to that phone", async () => {
    const { b, m } = await stopped(t.db);
    await webJoin(t.db, { slug: b.slug, phone: m.phone, ip: "203.0.113.10", now: clock.now() });
    const ref = (await member(t.db, b.id, m.phone))!.unique_ref;
    expect(await joinByRef(t.db, ref, clock.now())).toBe("CODE_SENT");
    const code = /(\d{6})/.exec((await received(t.db, m.phone)).at(-1)!)![1];
    expect(await confirmJoinByRefWithCode(t.db, ref, code, clock.now())).toBe("JOINED");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("SUBSCRIBED");
    const entries = await t.db.selectFrom("consent_log").select(["action", "evidence"]).where("business_id", "=", b.id).where("phone", "=", m.phone).orderBy("id").execute();
    expect(entries.at(-1)).toEqual({ action: "OPTED_IN", evidence: "Confirmed on the member form with a code texted to the phone" });
  });

  it("lets a pending member who never objected join from the form without a code", async () => {
    const b = await business(t.db);
    const phone = ukMobile();
    const invited = await inviteMember(t.db, b.id, { phone, values: {} }, clock.now());
    expect(await joinByRef(t.db, invited.unique_ref, clock.now())).toBe("JOINED");
    expect(await log(t.db, b.id, phone)).toEqual(["OPT_IN_REQUESTED/INVITE", "OPTED_IN/WEB"]);
  });

  it("never subscribes a number that objected by CSV import, whether it is a member, deleted, pending again or never joined", async () => {
    const b = await business(t.db);
    const [opted, deleted, pendingAgain] = await seedMembers(t.db, b.id, 3);
    const stranger = ukMobile();
    const fresh = ukMobile();
    for (const p of [opted.phone, deleted.phone, pendingAgain.phone, stranger]) await text(t.db, p, b.number, "STOP");
    await deleteMember(t.db, b.id, deleted.id, clock.now());
    await webJoin(t.db, { slug: b.slug, phone: pendingAgain.phone, ip: "203.0.113.11", now: clock.now() });
    const national = (p: string) => `0${p.slice(3)}`;
    const csv = ["mobile,first name", ...[opted.phone, deleted.phone, pendingAgain.phone, stranger, fresh].map((p, i) => `${national(p)},Name${i}`)].join("\n");
    const jobId = await createImportJob(t.db, { businessId: b.id, userId: null, filename: "list.csv", bytes: Buffer.from(csv), now: clock.now() });
    const done = await runImport(t.db, { businessId: b.id, jobId, mapping: ["phone", "firstName"], consent: true, now: clock.now() });
    expect(done.added).toBe(1);
    expect((await member(t.db, b.id, fresh))!.status).toBe("SUBSCRIBED");
    expect((await member(t.db, b.id, opted.phone))!.status).toBe("OPTED_OUT");
    expect((await member(t.db, b.id, deleted.phone))!.status).toBe("DELETED");
    expect((await member(t.db, b.id, pendingAgain.phone))!.status).toBe("PENDING");
    expect(await member(t.db, b.id, stranger)).toBeUndefined();
    for (const p of [opted.phone, deleted.phone, pendingAgain.phone, stranger]) expect((await log(t.db, b.id, p)).some((e) => e.endsWith("/IMPORT"))).toBe(false);
  });

  it("refuses any subscribe of a number that objected unless the act came from its own phone", async () => {
    const { b, m } = await stopped(t.db);
    await webJoin(t.db, { slug: b.slug, phone: m.phone, ip: "203.0.113.12", now: clock.now() });
    const pending = (await member(t.db, b.id, m.phone))!;
    const biz = await loadConsentBusiness(t.db, b.id);
    const error = await appError(t.db.transaction().execute((trx) => subscribe(trx, { business: biz, member: pending, channel: "WEB", evidence: "someone else", fromTheirPhone: false }, clock.now())));
    expect(error.code).toBe("BR039");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("PENDING");
  });

  it("lets the person undo their own objection by texting START", async () => {
    const { b, m } = await stopped(t.db);
    await text(t.db, m.phone, b.number, "START");
    expect((await member(t.db, b.id, m.phone))!.status).toBe("SUBSCRIBED");
    expect(await log(t.db, b.id, m.phone)).toEqual(["OPTED_OUT/SMS", "REJOINED/SMS"]);
  });

  it("answers ten JOIN texts arriving at once from one number with one opt-in text", async () => {
    const b = await business(t.db);
    const phone = ukMobile();
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      await receiveInbound({ db: t.db }, { providerId: `SMburst${dialect}${i}${Date.now()}`, from: phone, to: b.number, body: "JOIN", receivedAt: clock.now() });
    }
    await processInbound({ db: t.db, now: clock.now }, 100);
    expect(await received(t.db, phone)).toHaveLength(1);
    expect(await log(t.db, b.id, phone)).toEqual(["OPT_IN_REQUESTED/SMS"]);
    // After the window, asking again gets the text again.
    clock.advance(11 * 60_000);
    await text(t.db, phone, b.number, "join");
    expect(await received(t.db, phone)).toHaveLength(2);
  });

  it("honours objections as people write them and keeps ordinary texts as messages, flagging the unclear ones", async () => {
    const b = await business(t.db);
    const members = await seedMembers(t.db, b.id, 6);
    const bodies = ["Please stop", "STOP\u200B", "ＳＴＯＰ", "désabonner", "Can I stop by tomorrow?", "I want you to stop"];
    for (const [i, body] of bodies.entries()) await text(t.db, members[i].phone, b.number, body);
    const statuses = await Promise.all(members.map(async (m) => (await member(t.db, b.id, m.phone))!.status));
    expect(statuses).toEqual(["OPTED_OUT", "OPTED_OUT", "OPTED_OUT", "OPTED_OUT", "SUBSCRIBED", "SUBSCRIBED"]);
    const rows = await t.db.selectFrom("inbound_messages").select(["body", "kind", "flag"]).where("business_id", "=", b.id).orderBy("id").execute();
    expect(rows.map((r) => [r.kind, r.flag ?? null])).toEqual([
      ["STOP", null],
      ["STOP", null],
      ["STOP", null],
      ["STOP", null],
      ["MESSAGE", null],
      ["MESSAGE", "MAYBE_STOP"],
    ]);
    // The owner sees it: the inbox row and the text in the thread are marked.
    const inbox = await listInbox(t.db, b.id, { tab: "unread" }, clock.now());
    expect(inbox.rows.filter((r) => r.mayWantToStop).map((r) => r.memberId)).toEqual([members[5].id]);
    const thread = await getThread(t.db, b.id, members[5].id, {}, clock.now());
    expect(thread.items.map((i) => Boolean(i.mayWantToStop))).toEqual([true]);
  });

  it("calls the member-change hook in the same transaction as the change, and a failing hook undoes it", async () => {
    const b = await business(t.db);
    const [m] = await seedMembers(t.db, b.id, 1);
    const seen: MemberChange[] = [];
    const off = onMemberChange(async (_trx, change) => {
      seen.push(change);
    });
    try {
      await text(t.db, m.phone, b.number, "STOP");
      expect(seen).toEqual([{ businessId: b.id, memberId: m.id, phone: m.phone, from: "SUBSCRIBED", to: "OPTED_OUT" }]);
    } finally {
      off();
    }
    const failing = onMemberChange(async () => {
      throw new Error("planning failed");
    });
    try {
      const phone = ukMobile();
      await expect(inviteMember(t.db, b.id, { phone, values: {} }, clock.now())).rejects.toThrow("planning failed");
      expect(await member(t.db, b.id, phone)).toBeUndefined();
      expect(await log(t.db, b.id, phone)).toEqual([]);
    } finally {
      failing();
    }
  });
});
