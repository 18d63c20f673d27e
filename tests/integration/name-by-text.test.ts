// A member who joins by text is asked for their first name; the first reply that reads as a name fills it in, on
// both databases. The reply rules themselves are a table.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness, ukMobile } from "../support/factories";
import { Clock, makeWorker, middayToday } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { processInbound } from "~/domain/messaging/inbound-processing.server";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";
import { nameFromReply } from "~/domain/inbound/handlers.server";
import type { Database } from "#db/index";

describe("a reply read as a first name", () => {
  it.each([
    ["Sam", "Sam"],
    ["sam", "Sam"],
    ["JO ANNE", "Jo Anne"],
    ["Mary-Jane", "Mary-Jane"],
    ["It's Priya", "Priya"],
    ["je suis Aurélie.", "Aurélie"],
    ["O'Neill", "O'Neill"],
    ["Sam!", "Sam"],
  ])("%s → %s", (reply, name) => expect(nameFromReply(reply)).toBe(name));

  it.each(["Yes", "ok thanks", "Can I book for Friday at 3pm?", "1234", "Sam 👍 see you", "", "a".repeat(41), "hello"])("not a name: %j", (reply) => {
    expect(nameFromReply(reply)).toBeNull();
  });
});

describe.each(DIALECTS)("first name by text (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let n = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });
  async function text(db: Database, from: string, to: string, body: string) {
    clock.advance(1000);
    await receiveInbound({ db }, { providerId: `SMn${dialect}${++n}${Date.now()}`, from, to, body, receivedAt: clock.now() });
    await processInbound({ db, now: clock.now });
  }
  async function join(db: Database) {
    const businessId = await createBusiness(db, { name: `Corner Café ${++n}` });
    const biz = (await db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    const phone = ukMobile();
    await text(db, phone, biz, "JOIN");
    await text(db, phone, biz, "YES");
    return { businessId, biz, phone };
  }
  const member = (db: Database, businessId: number, phone: string) => db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "=", phone).executeTakeFirstOrThrow();

  it("asks in the welcome text, takes the first reply as the name, thanks them, and keeps it out of the inbox", async () => {
    const { businessId, biz, phone } = await join(t.db);
    await makeWorker(t.db, clock).drain();
    expect((await textsReceivedBy(t.db, phone)).at(-1)!.body).toMatch(/What is your first name\?/);
    await text(t.db, phone, biz, "priya");
    const m = await member(t.db, businessId, phone);
    expect(m.first_name).toBe("Priya");
    expect(m.name_asked_at).toBeNull();
    await makeWorker(t.db, clock).drain();
    expect((await textsReceivedBy(t.db, phone)).at(-1)!.body).toBe("Thanks, Priya! Nice to meet you.");
    expect(await t.db.selectFrom("conversations").select("id").where("member_id", "=", m.id).execute()).toHaveLength(0);
    // A later one-word text is an ordinary message.
    await text(t.db, phone, biz, "Friday");
    expect((await member(t.db, businessId, phone)).first_name).toBe("Priya");
    expect(await t.db.selectFrom("conversations").select("state").where("member_id", "=", m.id).execute()).toEqual([{ state: "UNREAD" }]);
  });

  it("lets a first reply that is not a name through to the inbox and stops asking", async () => {
    const { businessId, biz, phone } = await join(t.db);
    await text(t.db, phone, biz, "Do you open on Sundays?");
    const m = await member(t.db, businessId, phone);
    expect(m.first_name).toBeNull();
    expect(m.name_asked_at).toBeNull();
    expect(await t.db.selectFrom("conversations").select("state").where("member_id", "=", m.id).execute()).toEqual([{ state: "UNREAD" }]);
  });
});
