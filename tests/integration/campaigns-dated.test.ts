// Date-driven campaigns on both databases with a controllable clock: a year of birthday greetings (29 February and
// the clock changes included), reminders that move with the appointment, follow-ups after joining, catching up
// after a worker outage (and skipping what is too late), opt-outs cancelling, and two workers never sending twice.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { Clock, makeFullWorker, seedMembers } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { AppError } from "~/lib/errors";
import { campaignInput, type CampaignInput } from "~/domain/campaigns/model";
import { createCampaign, endCampaign } from "~/domain/campaigns/campaigns.server";
import { runDueFires } from "~/domain/campaigns/engine.server";
import { birthdayIn } from "~/domain/campaigns/types/birthday";
import { updateMember } from "~/domain/members/community.server";
import { addGroupMembers, createGroup, removeGroupMembers } from "~/domain/groups/groups.server";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("birthday dates", () => {
  it("greets a 29 February birthday on 28 February in other years", () => {
    expect(birthdayIn(2027, "02-29")).toEqual({ year: 2027, month: 2, day: 28 });
    expect(birthdayIn(2028, "02-29")).toEqual({ year: 2028, month: 2, day: 29 });
    expect(birthdayIn(2100, "02-29")).toEqual({ year: 2100, month: 2, day: 28 });
    expect(birthdayIn(2027, "07-15")).toEqual({ year: 2027, month: 7, day: 15 });
  });
});

describe.each(DIALECTS)("date-driven campaigns (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let seq = 0;
  beforeEach(() => {
    clock = new Clock(new Date("2027-01-01T12:00:00Z"));
  });
  const deps = () => ({ db: t.db, now: clock.now, config: { messaging: { sendDelaySeconds: 0, dmSendDelaySeconds: 5 } } });
  const parse = (input: unknown): CampaignInput => campaignInput.parse(input);

  async function setup(birthdays: Array<string | null>) {
    const account = await createAccount(t.db, { messageAllowance: 100_000 });
    await t.db.updateTable("businesses").set({ trial_ends_at: "2100-01-01T00:00:00Z" }).where("id", "=", account.businessId).execute();
    const members = await seedMembers(t.db, account.businessId, birthdays.length, { now: new Date("2026-06-01T12:00:00Z") });
    for (const [i, b] of birthdays.entries()) await t.db.updateTable("members").set({ birthday: b }).where("id", "=", members[i].id).execute();
    const number = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow()).phone_number!;
    return { ...account, members, number };
  }

  async function sends(campaignId: number) {
    return t.db
      .selectFrom("campaign_fires as f")
      .innerJoin("messages as m", "m.id", "f.message_id")
      .select(["f.member_id", "f.occurrence", "f.fire_at", "m.body"])
      .where("f.campaign_id", "=", campaignId)
      .where("f.status", "=", "DONE")
      .orderBy("f.fire_at")
      .execute();
  }

  it("greets every member on their birthday for a year, at 10:00 UK time in winter and summer, 29 February on the 28th, once each", async () => {
    const a = await setup(["02-29", "03-28", "07-15", "10-31", "01-01", null]);
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "BIRTHDAYGREETING", name: "Birthdays", messageText: "Happy birthday {{firstName}}!", sendTime: "10:00" }) });
    expect(c.status).toBe("ONGOING");
    // A second one is refused.
    const second = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "BIRTHDAYGREETING", name: "Again", messageText: "Hi" }) }).catch((e: unknown) => e);
    expect((second as AppError).code).toBe("BR010");
    // The worker looks every hour for a year.
    for (let h = 0; h < 366 * 24; h += 1) {
      clock.advance(HOUR);
      await runDueFires(deps());
    }
    const done = await sends(c.id);
    expect(done.map((d) => [d.member_id, d.fire_at])).toEqual([
      // 1 January 2027 at 10:00 had passed when it started: next year's.
      [a.members[0].id, "2027-02-28T10:00:00.000Z"],
      [a.members[1].id, "2027-03-28T09:00:00.000Z"], // the clocks went forward that morning: 10:00 BST
      [a.members[2].id, "2027-07-15T09:00:00.000Z"],
      [a.members[3].id, "2027-10-31T10:00:00.000Z"], // back to GMT that morning
      [a.members[4].id, "2028-01-01T10:00:00.000Z"],
    ]);
    expect(done[0].body).toMatch(/^Happy birthday \{\{firstName\}\}!/);
    const next = await t.db.selectFrom("campaign_fires").select(["member_id", "occurrence", "fire_at"]).where("campaign_id", "=", c.id).where("status", "=", "DUE").orderBy("fire_at").execute();
    expect(next.map((n) => [n.member_id, n.occurrence, n.fire_at])).toContainEqual([a.members[0].id, "2028", "2028-02-29T10:00:00.000Z"]);
    const texts = await t.db.selectFrom("outbound").select(["to_phone", "body"]).where("message_id", "in", done.map((d) => d.member_id).length ? (await t.db.selectFrom("messages").select("id").where("campaign_id", "=", c.id).execute()).map((m) => m.id) : [0]).execute();
    expect(texts).toHaveLength(5);
    expect(texts.find((x) => x.to_phone === a.members[2].phone)?.body).toMatch(/^Happy birthday Member2!/);
  });

  it("catches up after a worker outage within the window, skips what is too late, and plans next year either way", async () => {
    clock.set(new Date("2027-03-01T12:00:00Z"));
    const a = await setup(["03-02", "03-05"]);
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "BIRTHDAYGREETING", name: "B", messageText: "Happy birthday!", sendTime: "09:30" }) });
    // Down from before the first birthday until 3 hours after it: caught up.
    clock.set(new Date("2027-03-02T12:30:00Z"));
    await runDueFires(deps());
    // Down for two days over the second: too late to be welcome.
    clock.set(new Date("2027-03-07T10:00:00Z"));
    await runDueFires(deps());
    const fires = await t.db.selectFrom("campaign_fires").select(["member_id", "occurrence", "status", "reason"]).where("campaign_id", "=", c.id).where("member_id", "!=", 0).orderBy("member_id").orderBy("occurrence").execute();
    expect(fires.map((f) => [f.member_id, f.occurrence, f.status, f.reason])).toEqual([
      [a.members[0].id, "2027", "DONE", null],
      [a.members[0].id, "2028", "DUE", null],
      [a.members[1].id, "2027", "SKIPPED", "too-late"],
      [a.members[1].id, "2028", "DUE", null],
    ]);
  });

  it("moves a reminder when the appointment moves, cancels it when cleared or when the member opts out, and says the date", async () => {
    clock.set(new Date("2027-05-01T08:00:00Z"));
    const a = await setup([null, null]);
    const [m1, m2] = a.members;
    await updateMember(t.db, a.businessId, m1.id, { appointmentDate: "2027-05-10", appointmentTime: "14:30", values: {} }, clock.now());
    await updateMember(t.db, a.businessId, m2.id, { appointmentDate: "2027-05-04", appointmentTime: "09:00", values: {} }, clock.now());
    const c = await createCampaign(deps(), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "REMINDER", name: "Appointments", messageText: "See you on {{appointmentDate}} at {{appointmentTime}}", dateAttribute: "appointment", daysBefore: 2, sendTime: "18:00" }),
    });
    const due = async () =>
      (await t.db.selectFrom("campaign_fires").select(["member_id", "fire_at"]).where("campaign_id", "=", c.id).where("status", "=", "DUE").orderBy("member_id").execute()).map((f) => [f.member_id, f.fire_at]);
    expect(await due()).toEqual([
      [m1.id, "2027-05-08T17:00:00.000Z"],
      [m2.id, "2027-05-02T17:00:00.000Z"],
    ]);
    await updateMember(t.db, a.businessId, m1.id, { appointmentDate: "2027-05-20", appointmentTime: "11:00", values: {} }, clock.now());
    await updateMember(t.db, a.businessId, m2.id, { appointmentDate: "", appointmentTime: "", values: {} }, clock.now());
    expect(await due()).toEqual([[m1.id, "2027-05-18T17:00:00.000Z"]]);
    clock.set(new Date("2027-05-18T17:05:00Z"));
    await runDueFires(deps());
    await makeFullWorker(t.db, clock).drain();
    const sent = await t.db.selectFrom("sim_messages").select("body").where("phone", "=", m1.phone).execute();
    expect(sent.map((s) => s.body)[0]).toMatch(/^See you on 20 May at 11:00/);
    // A member who opts out gets nothing more.
    await updateMember(t.db, a.businessId, m1.id, { appointmentDate: "2027-06-20", appointmentTime: "11:00", values: {} }, clock.now());
    expect(await due()).toHaveLength(1);
    await receiveInbound({ db: t.db }, { providerId: `SMd${dialect}${++seq}${Date.now()}`, from: m1.phone, to: a.number, body: "STOP", receivedAt: clock.now() });
    await makeFullWorker(t.db, clock).drain();
    expect(await due()).toHaveLength(0);
  });

  it("follows up members a chosen time after they join, includes recent joiners when asked, and never sends twice with two workers", async () => {
    clock.set(new Date("2027-04-10T12:00:00Z"));
    const a = await setup([]);
    const recent = await seedMembers(t.db, a.businessId, 1, { now: new Date("2027-04-07T12:00:00Z") });
    const old = await seedMembers(t.db, a.businessId, 1, { now: new Date("2027-03-01T12:00:00Z") });
    const c = await createCampaign(deps(), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POSTREGISTRATION", name: "Welcome", messageText: "How are you finding us?", duration: 2, durationUnit: "HOURS", includeJoinedWithinDays: 7 }),
    });
    const planned = await t.db.selectFrom("campaign_fires").select(["member_id"]).where("campaign_id", "=", c.id).where("member_id", "!=", 0).execute();
    expect(planned.map((p) => p.member_id)).toEqual([recent[0].id]);
    expect(old).toHaveLength(1);
    // A new member joins by text: JOIN, then YES.
    const phone = `+4479112${String(process.pid % 100).padStart(2, "0")}${String(++seq).padStart(3, "0")}`;
    for (const body of ["JOIN", "YES"]) {
      clock.advance(60_000);
      await receiveInbound({ db: t.db }, { providerId: `SMp${dialect}${++seq}${Date.now()}`, from: phone, to: a.number, body, receivedAt: clock.now() });
      await makeFullWorker(t.db, clock).drain();
    }
    const joiner = await t.db.selectFrom("members").select(["id", "joined_at"]).where("business_id", "=", a.businessId).where("phone", "=", phone).executeTakeFirstOrThrow();
    const fire = await t.db.selectFrom("campaign_fires").select(["fire_at", "status"]).where("campaign_id", "=", c.id).where("member_id", "=", joiner.id).executeTakeFirstOrThrow();
    expect(fire).toEqual({ fire_at: new Date(Date.parse(joiner.joined_at!) + 2 * HOUR).toISOString(), status: "DUE" });
    clock.advance(3 * HOUR);
    await Promise.all([runDueFires(deps()), runDueFires(deps())]);
    const msgs = await t.db.selectFrom("messages").select(["id"]).where("campaign_id", "=", c.id).execute();
    expect(msgs).toHaveLength(2);
    // Ending the campaign cancels what is still planned.
    await endCampaign(deps(), { businessId: a.businessId, campaignId: c.id });
    expect(await t.db.selectFrom("campaign_fires").select("id").where("campaign_id", "=", c.id).where("status", "=", "DUE").execute()).toHaveLength(0);
    clock.advance(DAY);
  });

  it("refuses a reminder without a date attribute, with an unknown one, or with days before other than 1 or 2", async () => {
    const a = await setup([null]);
    expect(campaignInput.safeParse({ type: "REMINDER", name: "R", messageText: "x", daysBefore: 1 }).success).toBe(false);
    expect(campaignInput.safeParse({ type: "REMINDER", name: "R", messageText: "x", dateAttribute: "appointment", daysBefore: 3 }).success).toBe(false);
    expect(campaignInput.safeParse({ type: "POSTREGISTRATION", name: "P", messageText: "x", duration: 101 }).success).toBe(false);
    const unknown = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "REMINDER", name: "R", messageText: "x", dateAttribute: "nosuch", daysBefore: 1 }) }).catch((e: unknown) => e);
    expect([(unknown as AppError).code, (unknown as AppError).field]).toEqual(["BR025", "dateAttribute"]);
  });

  it("plans a member's greeting when they join the campaign's group and cancels it when they leave", async () => {
    const a = await setup(["06-01", "06-02"]);
    const g = await createGroup(t.db, a.businessId, { name: "VIPs", type: "LIST" }, clock.now());
    await addGroupMembers(t.db, a.businessId, g, [a.members[0].id], clock.now());
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "BIRTHDAYGREETING", name: "VIP birthdays", messageText: "Happy birthday!", contactGroupId: g }) });
    const due = async () => (await t.db.selectFrom("campaign_fires").select("member_id").where("campaign_id", "=", c.id).where("member_id", "!=", 0).where("status", "=", "DUE").orderBy("member_id").execute()).map((f) => f.member_id);
    expect(await due()).toEqual([a.members[0].id]);
    await addGroupMembers(t.db, a.businessId, g, [a.members[1].id], clock.now());
    expect(await due()).toEqual([a.members[0].id, a.members[1].id]);
    await removeGroupMembers(t.db, a.businessId, g, [a.members[0].id], clock.now());
    expect(await due()).toEqual([a.members[1].id]);
  });
});
