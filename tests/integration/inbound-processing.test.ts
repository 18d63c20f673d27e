// Inbound processing on both databases: the double opt-in by text (JOIN, YES), compliance keywords
// (STOP, START, HELP), conversations, replays, the consent log, and the simulator feeding the pipeline.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, seedMembers } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { keywordOf, processInbound } from "~/domain/messaging/inbound-processing.server";
import { receiveInbound as simulatorInbound, textsReceivedBy } from "~/domain/simulator/simulator.server";
import { reserveSimNumber } from "~/providers/sms/simulator.server";
import type { Database } from "#db/index";

let seq = 0;
const phone = () => `+4479111${String(process.pid % 100).padStart(2, "0")}${String(++seq).padStart(3, "0")}`;

describe("keywordOf", () => {
  it("accepts one word in any case with surrounding spaces and punctuation, and nothing else", () => {
    expect(keywordOf("stop")).toBe("STOP");
    expect(keywordOf("  Stop!! ")).toBe("STOP");
    expect(keywordOf("\"STOP.\"")).toBe("STOP");
    expect(keywordOf("Arrêt")).toBe("ARRET");
    expect(keywordOf("yes 👍")).toBe("YES");
    expect(keywordOf("please stop")).toBeNull();
    expect(keywordOf("stop-it")).toBeNull();
    expect(keywordOf("")).toBeNull();
  });
});

describe.each(DIALECTS)("inbound processing (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let n = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  async function text(db: Database, from: string, to: string, body: string, providerId = `SMin${dialect}${++n}`) {
    clock.advance(1000);
    return receiveInbound({ db }, { providerId, from, to, body, receivedAt: clock.now() });
  }
  async function run(db: Database) {
    await makeWorker(db, clock).drain();
  }
  async function received(db: Database, to: string) {
    return (await textsReceivedBy(db, to)).map((x) => x.body);
  }
  async function member(db: Database, businessId: number, p: string) {
    return db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "=", p).executeTakeFirst();
  }
  async function consent(db: Database, businessId: number, p: string) {
    return (await db.selectFrom("consent_log").select("action").where("business_id", "=", businessId).where("phone", "=", p).orderBy("id").execute()).map((r) => r.action);
  }

  it("runs the double opt-in by text: JOIN -> pending + request, YES -> subscribed + welcome, STOP -> opted out + confirmation once", async () => {
    const businessId = await createBusiness(t.db, { name: "Corner Café" });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const p = phone();
    await text(t.db, p, biz, " join ");
    await run(t.db);
    expect((await member(t.db, businessId, p))!.status).toBe("PENDING");
    expect(await received(t.db, p)).toEqual(["Corner Café: reply YES to join our text messages. Reply STOP at any time to opt out."]);

    await text(t.db, p, biz, "Yes!");
    await run(t.db);
    const m = (await member(t.db, businessId, p))!;
    expect(m.status).toBe("SUBSCRIBED");
    expect(m.joined_at).not.toBeNull();
    expect(m.unique_ref.length).toBeGreaterThanOrEqual(22);
    expect((await received(t.db, p))[1]).toMatch(/^Welcome to Corner Café!/);

    await text(t.db, p, biz, "STOP");
    await text(t.db, p, biz, "stop");
    await run(t.db);
    expect((await member(t.db, businessId, p))!.status).toBe("OPTED_OUT");
    const texts = await received(t.db, p);
    expect(texts).toHaveLength(3);
    expect(texts[2]).toMatch(/unsubscribed/);
    expect(await consent(t.db, businessId, p)).toEqual(["OPT_IN_REQUESTED", "OPTED_IN", "OPTED_OUT"]);
    const log = await t.db.selectFrom("consent_log").selectAll().where("phone", "=", p).orderBy("id").execute();
    expect(log.map((l) => [l.channel, l.evidence])).toEqual([["SMS", " join "], ["SMS", "Yes!"], ["SMS", "STOP"]]);
    // System texts are free.
    expect((await t.db.selectFrom("credit_ledger").select("id").where("business_id", "=", businessId).execute()).length).toBe(0);
  });

  it("processes the same inbound webhook delivered three times once", async () => {
    const businessId = await createBusiness(t.db);
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const p = phone();
    const outcomes = [];
    for (let i = 0; i < 3; i++) outcomes.push((await text(t.db, p, biz, "JOIN", `SMdup${dialect}`)).outcome);
    expect(outcomes).toEqual(["stored", "duplicate", "duplicate"]);
    await run(t.db);
    await run(t.db);
    expect(await received(t.db, p)).toHaveLength(1);
    expect(await consent(t.db, businessId, p)).toEqual(["OPT_IN_REQUESTED"]);
    const count = await t.db.selectFrom("members").select("id").where("phone", "=", p).execute();
    expect(count).toHaveLength(1);
    // Processing again finds nothing to do.
    expect(await processInbound({ db: t.db, now: clock.now })).toBe(0);
  });

  it("STOP, START, STOP leaves the member opted out with three consent-log entries, kept after deletion", async () => {
    const businessId = await createBusiness(t.db, { name: "Gym" });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const [m] = await seedMembers(t.db, businessId, 1);
    // All three arrive before the worker runs: they are processed in order.
    await text(t.db, m.phone, biz, "STOP");
    await text(t.db, m.phone, biz, "start");
    await text(t.db, m.phone, biz, "Stop.");
    await run(t.db);
    expect((await member(t.db, businessId, m.phone))!.status).toBe("OPTED_OUT");
    expect(await consent(t.db, businessId, m.phone)).toEqual(["OPTED_OUT", "REJOINED", "OPTED_OUT"]);
    const bodies = await received(t.db, m.phone);
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toMatch(/^Welcome/);
    await t.db.deleteFrom("members").where("id", "=", m.id).execute();
    const kept = await t.db.selectFrom("consent_log").select(["member_id", "phone"]).where("phone", "=", m.phone).execute();
    expect(kept).toHaveLength(3);
    expect(kept.every((k) => k.member_id === null && k.phone === m.phone)).toBe(true);
  });

  it("uses the business's own opt-out and help texts, answers HELP to anyone, and opens conversations as unread", async () => {
    const businessId = await createBusiness(t.db);
    await t.db.updateTable("businesses").set({ opt_out_message: "Bye from us.", help_message: "Call 0113 496 0000." }).where("id", "=", businessId).execute();
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const [m] = await seedMembers(t.db, businessId, 1);
    const stranger = phone();
    await text(t.db, stranger, biz, "help");
    await text(t.db, stranger, biz, "hello there");
    await text(t.db, m.phone, biz, "Is the shop open Sunday?");
    await text(t.db, m.phone, biz, "Thanks");
    await run(t.db);
    expect(await received(t.db, stranger)).toEqual(["Call 0113 496 0000."]);
    expect(await member(t.db, businessId, stranger)).toBeUndefined();
    const conv = await t.db.selectFrom("conversations").selectAll().where("member_id", "=", m.id).executeTakeFirstOrThrow();
    expect(conv).toMatchObject({ state: "UNREAD", unread_count: 2 });
    const kinds = await t.db.selectFrom("inbound_messages").select(["kind", "member_id"]).where("from_number", "=", m.phone).orderBy("id").execute();
    expect(kinds).toEqual([{ kind: "MESSAGE", member_id: m.id }, { kind: "MESSAGE", member_id: m.id }]);
    await text(t.db, m.phone, biz, "QUIT");
    await run(t.db);
    expect(await received(t.db, m.phone)).toEqual(["Bye from us."]);
  });

  it("answers a French business in French", async () => {
    const businessId = await createBusiness(t.db, { name: "Boulangerie" });
    await t.db.updateTable("businesses").set({ locale: "fr" }).where("id", "=", businessId).execute();
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const p = phone();
    await text(t.db, p, biz, "JOIN");
    await text(t.db, p, biz, "oui");
    await text(t.db, p, biz, "ARRÊT");
    await run(t.db);
    const bodies = await received(t.db, p);
    expect(bodies[0]).toMatch(/répondez OUI/);
    expect(bodies[1]).toMatch(/^Bienvenue/);
    expect(bodies[2]).toMatch(/désabonné/);
    expect((await member(t.db, businessId, p))!.status).toBe("OPTED_OUT");
  });

  it("feeds texts from /simulator's virtual phones into the pipeline", async () => {
    const number = `+447700900${String(100 + (process.pid % 90)).padStart(3, "0")}`;
    await t.db.deleteFrom("businesses").where("phone_number", "=", number).execute();
    const businessId = await createBusiness(t.db, { name: "Sim Shop", phoneNumber: number });
    await reserveSimNumber(t.db, number, clock.now());
    const p = phone();
    await simulatorInbound(t.db, { from: p, to: number, body: "JOIN" }, clock.now());
    await run(t.db);
    await simulatorInbound(t.db, { from: p, to: number, body: "YES" }, clock.now());
    await run(t.db);
    expect((await member(t.db, businessId, p))!.status).toBe("SUBSCRIBED");
    const bodies = await received(t.db, p);
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatch(/^Welcome to Sim Shop/);
  });

  it("works through a backlog from many phones in batches, each phone's texts in the order they came", async () => {
    const businessId = await createBusiness(t.db, { name: "Busy Bakery" });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const joiners = [phone(), phone(), phone()];
    const strangers = Array.from({ length: 40 }, () => phone());
    // Interleaved: each joiner's JOIN, YES, STOP, START arrive between strangers' texts, all before the worker runs.
    const script = ["JOIN", "YES", "STOP", "START"];
    let s = 0;
    for (const word of script) {
      for (const j of joiners) {
        await text(t.db, j, biz, word);
        for (let k = 0; k < 3; k++) await text(t.db, strangers[s++ % strangers.length], biz, "Are you open on Sunday?");
      }
    }
    for (const st of strangers.slice(0, 5)) await text(t.db, st, biz, "help");
    expect(await processInbound({ db: t.db, now: clock.now }, 1000)).toBe(12 + 36 + 5);
    for (const j of joiners) {
      expect((await member(t.db, businessId, j))!.status).toBe("SUBSCRIBED");
      expect(await consent(t.db, businessId, j)).toEqual(["OPT_IN_REQUESTED", "OPTED_IN", "OPTED_OUT", "REJOINED"]);
    }
    const kinds = await t.db.selectFrom("inbound_messages").select(["kind", "processed_at"]).where("business_id", "=", businessId).execute();
    expect(kinds.every((k) => k.processed_at !== null)).toBe(true);
    expect(kinds.filter((k) => k.kind === "UNKNOWN_SENDER")).toHaveLength(36);
    expect(kinds.filter((k) => k.kind === "HELP")).toHaveLength(5);
    // Strangers get nothing but the help text; nobody became a member by chatting.
    expect(await t.db.selectFrom("members").select("id").where("business_id", "=", businessId).execute()).toHaveLength(3);
  });

  it("two workers sharing the backlog handle every text once, each phone in order", async () => {
    const businessId = await createBusiness(t.db, { name: "Shared Queue" });
    const biz = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const phones = Array.from({ length: 30 }, () => phone());
    // Each phone: HELP, JOIN, YES, STOP — 120 texts, interleaved across phones.
    for (const word of ["HELP", "JOIN", "YES", "STOP"]) for (const p of phones) await text(t.db, p, biz, word);
    const deps = { db: t.db, now: clock.now };
    const worker = async () => {
      let handled = 0;
      for (let n = -1; n !== 0; handled += n) n = await processInbound(deps, 7);
      return handled;
    };
    // On PostgreSQL the two run on separate connections at once (SKIP LOCKED); on SQLite they take turns.
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a + b).toBe(120);
    for (const p of phones) {
      expect(await consent(t.db, businessId, p)).toEqual(["OPT_IN_REQUESTED", "OPTED_IN", "OPTED_OUT"]);
      // One reply per text: help, opt-in request, welcome, opt-out confirmation.
      const replies = await t.db.selectFrom("outbound").select("body").where("business_id", "=", businessId).where("to_phone", "=", p).orderBy("id").execute();
      expect(replies).toHaveLength(4);
      expect(replies[2].body).toMatch(/^Welcome to Shared Queue/);
    }
  });
});
