// Customer experience surveys and venue check-in on both databases: scores read as people write them, the two
// question variants, the monthly score and its trend, a detractor's alert and unread conversation, a promoter's
// review link; check-in by keyword for a member and for a stranger (invited to join), the personal check-out link
// (once only, unknown links refused), automatic check-out, and who is here now.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { Clock, makeFullWorker, seedMembers } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";
import { AppError } from "~/lib/errors";
import { campaignInput, type CampaignInput } from "~/domain/campaigns/model";
import { campaignResults, checkOut, checkoutInfo, createCampaign } from "~/domain/campaigns/campaigns.server";
import { npsScore, parseScore } from "~/domain/campaigns/types/customer-experience";
import { askForFeedback } from "~/domain/campaigns/survey.server";

describe("reading a score", () => {
  it("takes what a person means and refuses the rest", () => {
    for (const [text, score] of [["9", 9], ["9/10", 9], [" 10! ", 10], ["ten", 10], ["Nine out of 10", 9], ["0", 0], ["7 out of 10", 7], ["huit", 8], ["8 sur 10", 8]] as const) {
      expect(parseScore(text), text).toBe(score);
    }
    for (const text of ["11", "eleven", "great", "", "-1", "100"]) expect(parseScore(text), text).toBeNull();
    expect(npsScore(2, 1, 1)).toBe(25);
    expect(npsScore(0, 0, 0)).toBeNull();
  });
});

describe.each(DIALECTS)("surveys and check-in (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let seq = 0;
  beforeEach(() => {
    clock = new Clock(new Date("2027-05-20T11:00:00Z"));
  });
  const deps = () => ({ db: t.db, now: clock.now, config: { messaging: { sendDelaySeconds: 0, dmSendDelaySeconds: 5 } } });
  const parse = (input: unknown): CampaignInput => campaignInput.parse(input);

  async function setup(n: number) {
    const account = await createAccount(t.db, { messageAllowance: 10_000 });
    await t.db.updateTable("businesses").set({ trial_ends_at: "2100-01-01T00:00:00Z" }).where("id", "=", account.businessId).execute();
    const members = await seedMembers(t.db, account.businessId, n, { now: new Date("2027-01-01T12:00:00Z") });
    const number = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow()).phone_number!;
    return { ...account, members, number };
  }
  async function text(from: string, to: string, body: string) {
    clock.advance(1000);
    await receiveInbound({ db: t.db }, { providerId: `SMs${dialect}${++seq}${Date.now()}`, from, to, body, receivedAt: clock.now() });
  }
  async function work() {
    const worker = makeFullWorker(t.db, clock);
    clock.advance(10_000);
    await worker.drain();
    clock.advance(10_000);
    await worker.drain();
  }
  const received = async (phone: string) => (await textsReceivedBy(t.db, phone)).map((m) => m.body);

  const survey = {
    type: "CUSTOMEREXP",
    name: "How did we do",
    keyword: "RATE",
    introText: "Thanks for visiting!",
    scoreQuestionText: "From 0 to 10, how likely are you to recommend us?",
    detractorQuestionText: "Sorry to hear it. What went wrong?",
    promoterQuestionText: "Great! What did you like most?",
    detractorThankYouText: "Thank you, we will put it right.",
    promoterThankYouText: "Thank you!",
    reviewLink: "https://example.test/review",
  };

  it("runs a survey by keyword: scores, the two variants, the monthly score against last month, a detractor's alert, a promoter's review link", async () => {
    const a = await setup(4);
    const [m1, m2, m3, m4] = a.members;
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse(survey) });
    expect(c.status).toBe("ONGOING");
    // Last month, one promoter.
    clock.set(new Date("2027-04-10T11:00:00Z"));
    await text(m4.phone, a.number, "rate");
    await work();
    await text(m4.phone, a.number, "10");
    await work();
    clock.set(new Date("2027-05-20T11:00:00Z"));
    for (const m of [m1, m2, m3]) await text(m.phone, a.number, "RATE");
    await work();
    expect((await received(m1.phone)).at(-1)).toMatch(/^Thanks for visiting!\nFrom 0 to 10/);
    await text(m1.phone, a.number, "9/10");
    await text(m2.phone, a.number, "eleven");
    await text(m3.phone, a.number, "3");
    await work();
    expect((await received(m2.phone)).at(-1)).toMatch(/^Please reply with a score from 0 to 10/);
    await text(m2.phone, a.number, "seven");
    await work();
    expect((await received(m1.phone)).at(-1)).toMatch(/^Great! What did you like most\?/);
    expect((await received(m3.phone)).at(-1)).toMatch(/^Sorry to hear it\. What went wrong\?/);
    await text(m1.phone, a.number, "The coffee");
    await text(m3.phone, a.number, "Cold food");
    await work();
    expect((await received(m1.phone)).at(-1)).toMatch(/^Thank you!\nhttps:\/\/example\.test\/review/);
    expect((await received(m3.phone)).at(-1)).toMatch(/^Thank you, we will put it right\./);
    const r = (await campaignResults(t.db, a.businessId, c.id, clock.now()))!;
    expect(r.nps).toEqual({ promoters: 1, passives: 1, detractors: 1, currentScore: 0, previousScore: 100, trend: "down" });
    // The detractor's conversation is unread and the home feed has an alert.
    const conv = await t.db.selectFrom("conversations").select("state").where("member_id", "=", m3.id).executeTakeFirstOrThrow();
    expect(conv.state).toBe("UNREAD");
    const notice = await t.db.selectFrom("notices").select(["title"]).where("business_id", "=", a.businessId).where("kind", "=", "NPS_DETRACTOR").execute();
    expect(notice.map((n) => n.title)).toEqual([expect.stringMatching(/scored you 3 out of 10/)]);
    expect(r.replies.map((x) => x.response)).toContain("Cold food");
  });

  it("does not start a survey afresh when someone part-way through it texts the keyword again", async () => {
    const a = await setup(1);
    const [m] = a.members;
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse(survey) });
    await text(m.phone, a.number, "RATE");
    await work();
    await text(m.phone, a.number, "4");
    await work();
    await text(m.phone, a.number, "rate");
    await work();
    expect((await received(m.phone)).at(-1)).toMatch(/^You are already taking part in this survey: just reply to our last question\./);
    // Their comment still answers the second question; the score is counted once.
    await text(m.phone, a.number, "Slow service");
    await work();
    expect((await received(m.phone)).at(-1)).toMatch(/^Thank you, we will put it right\./);
    const r = (await campaignResults(t.db, a.businessId, c.id, clock.now()))!;
    expect(r.nps).toMatchObject({ promoters: 0, passives: 0, detractors: 1 });
    expect(r.replies.map((x) => x.response)).toContain("Slow service");
    // Once finished, the keyword starts a new visit's survey.
    await text(m.phone, a.number, "RATE");
    await work();
    expect((await received(m.phone)).at(-1)).toMatch(/^Thanks for visiting!\nFrom 0 to 10/);
  });

  it("asks one member for feedback: BR005 before a survey runs, BR027 before they confirm, BR006 while they are in it, BR031 while another survey waits for them", async () => {
    const a = await setup(3);
    const [m1, m2, m3] = a.members;
    const ask = (memberId: number, businessId = a.businessId) => askForFeedback(deps(), { businessId, memberId, userId: a.id });
    const code = async (p: Promise<unknown>) => {
      try {
        await p;
        return "ok";
      } catch (error) {
        if (error instanceof AppError) return error.code;
        throw error;
      }
    };
    expect(await code(ask(m1.id))).toBe("BR005");
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse(survey) });
    // Another business's member is not found.
    const other = await setup(1);
    expect(await code(ask(other.members[0].id))).toBe("NF001");
    await t.db.updateTable("members").set({ status: "PENDING" }).where("id", "=", m3.id).execute();
    expect(await code(ask(m3.id))).toBe("BR027");
    expect(await code(ask(m1.id))).toBe("ok");
    await work();
    expect((await received(m1.phone)).at(-1)).toMatch(/^Thanks for visiting!\nFrom 0 to 10/);
    expect(await code(ask(m1.id))).toBe("BR006");
    // Their score answers it, as if they had texted the keyword.
    await text(m1.phone, a.number, "10");
    await work();
    expect((await received(m1.phone)).at(-1)).toMatch(/^Great! What did you like most\?/);
    // A poll waiting for m2's answer: asking now would take their vote as a score.
    const group = await t.db.insertInto("groups").values({ business_id: a.businessId, name: "Poll group", type: "LIST", filter: null, created_at: clock.now().toISOString(), updated_at: clock.now().toISOString() }).returning("id").executeTakeFirstOrThrow();
    await t.db.insertInto("group_members").values({ group_id: group.id, member_id: m2.id, added_at: clock.now().toISOString() }).execute();
    await createCampaign(deps(), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Lunch", messageText: "Which lunch?", responseOptions: ["Pizza", "Pasta"], contactGroupId: Number(group.id), closeDate: new Date(clock.now().getTime() + 86_400_000).toISOString() }),
    });
    await work();
    expect(await code(ask(m2.id))).toBe("BR031");
    // Refusals send nothing.
    const toM2 = await t.db
      .selectFrom("outbound as o")
      .innerJoin("messages as g", "g.id", "o.message_id")
      .select("o.id")
      .where("o.member_id", "=", m2.id)
      .where("g.campaign_id", "=", c.id)
      .execute();
    expect(toM2).toHaveLength(0);
  });

  it("checks in by keyword with a personal check-out link, once; invites a stranger; ends visits by themselves after the hours set", async () => {
    const a = await setup(1);
    const [m1] = a.members;
    const c = await createCampaign(deps(), { businessId: a.businessId, userId: a.id, input: parse({ type: "CHECKIN", name: "Front door", keyword: "IN", messageText: "Welcome to the gym!", autoCheckoutHours: 3 }) });
    await text(m1.phone, a.number, "in");
    const stranger = `+4479113${String(process.pid % 100).padStart(2, "0")}${String(++seq).padStart(3, "0")}`;
    await text(stranger, a.number, "IN");
    await work();
    const reply = (await received(m1.phone)).at(-1)!;
    expect(reply).toMatch(/^Welcome to the gym!\n\/checkout\/[A-Za-z0-9_-]+/);
    const ref = /\/checkout\/([A-Za-z0-9_-]+)/.exec(reply)![1];
    const strangerTexts = await received(stranger);
    expect(strangerTexts.some((b) => /^Welcome to the gym!/.test(b))).toBe(true);
    expect(strangerTexts.some((b) => /YES/.test(b))).toBe(true);
    expect((await t.db.selectFrom("members").select("status").where("business_id", "=", a.businessId).where("phone", "=", stranger).executeTakeFirstOrThrow()).status).toBe("PENDING");
    let r = (await campaignResults(t.db, a.businessId, c.id, clock.now()))!;
    expect(r.checkin?.here).toHaveLength(2);
    expect(r.checkin?.today).toBe(2);
    expect((await checkoutInfo(t.db, ref, clock.now())).checkedOutAt).toBeNull();
    await checkOut(t.db, ref, clock.now());
    expect(((await checkOut(t.db, ref, clock.now()).catch((e: unknown) => e)) as AppError).code).toBe("BR040");
    expect(((await checkOut(t.db, "nosuchreference123", clock.now()).catch((e: unknown) => e)) as AppError).code).toBe("NF003");
    r = (await campaignResults(t.db, a.businessId, c.id, clock.now()))!;
    expect(r.checkin?.here).toHaveLength(1);
    clock.advance(4 * 3_600_000);
    r = (await campaignResults(t.db, a.businessId, c.id, clock.now()))!;
    expect(r.checkin?.here).toHaveLength(0);
    expect(r.checkin?.last21Days).toBe(2);
  });
});
