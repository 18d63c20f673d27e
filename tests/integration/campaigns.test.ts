// The campaign engine on both databases: creating each type (and every refusal, with nothing saved), issuing
// now or at a time (durable fires, claimed once by two workers, stale after an edit), the reply router (compliance
// first, a live keyword before an open question, the most recent open question, one help text, replays counted
// once), results counted +1/-1, invitations with a waitlist, verifiable draws, ending and deleting.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount } from "../support/factories";
import { Clock, makeFullWorker, middayToday, seedMembers } from "../support/pipeline";
import type { Database } from "#db/index";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { textsReceivedBy } from "~/domain/simulator/simulator.server";
import { AppError } from "~/lib/errors";
import { getUnreadMessages } from "~/domain/messaging/unread.server";
import { campaignInput, type CampaignInput } from "~/domain/campaigns/model";
import { campaignResults, createCampaign, deleteCampaign, endCampaign, exportCampaignCsv, getCampaign, listCampaigns, updateCampaign } from "~/domain/campaigns/campaigns.server";
import { runDueFires, runFire } from "~/domain/campaigns/engine.server";
import { getFeed } from "~/domain/feed/feed.server";
import { getStat } from "~/domain/stats/stats.server";
import { draw, seedHash, ticket } from "~/domain/campaigns/types/pick-winners";
import { createGroup } from "~/domain/groups/groups.server";

const HOUR = 3_600_000;

describe.each(DIALECTS)("campaign engine (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  let seq = 0;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });

  const deps = (db: Database, sendDelaySeconds = 0) => ({ db, now: clock.now, config: { messaging: { sendDelaySeconds, dmSendDelaySeconds: 5 } } });
  const parse = (input: unknown): CampaignInput => campaignInput.parse(input);
  const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  async function setup(members = 3, credits = 1000) {
    const account = await createAccount(t.db, { messageAllowance: credits });
    const seeded = await seedMembers(t.db, account.businessId, members, { firstName: (i) => ["Ana", "Ben", "Cat", "Dev", "Eve"][i % 5] });
    const business = await t.db.selectFrom("businesses").select(["phone_number", "join_keyword"]).where("id", "=", account.businessId).executeTakeFirstOrThrow();
    return { ...account, members: seeded, number: business.phone_number! };
  }

  async function text(from: string, to: string, body: string) {
    clock.advance(1000);
    await receiveInbound({ db: t.db }, { providerId: `SMc${dialect}${++seq}${Date.now()}`, from, to, body, receivedAt: clock.now() });
  }

  /** Processes texts and sends what is due (replies wait out their 5 s pause). */
  async function work() {
    const worker = makeFullWorker(t.db, clock);
    clock.advance(10_000);
    await worker.drain();
    clock.advance(10_000);
    await worker.drain();
  }

  async function received(phone: string) {
    return (await textsReceivedBy(t.db, phone)).map((m) => m.body);
  }

  async function refusal(p: Promise<unknown>): Promise<AppError> {
    const error = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }

  async function inboxKinds(businessId: number) {
    return (await t.db.selectFrom("inbound_messages").select(["body", "kind", "campaign_id"]).where("business_id", "=", businessId).orderBy("id").execute()).map((r) => `${r.body}:${r.kind}`);
  }

  it("runs a quick poll: issued now with its options, votes by number or words, a changed vote counted once, one help text, thank-yous", async () => {
    const a = await setup(3);
    const poll = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Lunch", messageText: "What shall we cook on Friday?", thankYouText: "Thanks for voting!", contactGroupId: -1, closeDate: later(48 * HOUR), responseOptions: ["Pizza", "Pasta", "Salad"] }),
    });
    expect(poll.status).toBe("LIVE");
    expect(poll.totalSent).toBe(3);
    await work();
    const [m1, m2, m3] = a.members;
    expect((await received(m1.phone))[0]).toMatch(/What shall we cook on Friday\?\nReply 1 for Pizza, 2 for Pasta, 3 for Salad/);

    await text(m1.phone, a.number, "2");
    await text(m2.phone, a.number, "pizza!");
    await text(m3.phone, a.number, "maybe later");
    await work();
    await text(m3.phone, a.number, "no idea, sorry");
    await text(m1.phone, a.number, "Salad");
    await work();

    const results = (await campaignResults(t.db, a.businessId, poll.id, clock.now()))!;
    expect(results.campaign.responses).toEqual([
      { response: "Pizza", total: 1 },
      { response: "Pasta", total: 0 },
      { response: "Salad", total: 1 },
    ]);
    expect(results.campaign.totalReceived).toBe(2);
    expect(results.topResponse?.percent).toBe(50);
    expect((await received(m1.phone)).filter((b) => b.startsWith("Thanks for voting!"))).toHaveLength(2);
    // One help text for the answer that fits nothing; both unclear texts went on to the inbox.
    expect((await received(m3.phone)).filter((b) => b.startsWith("Sorry, we did not catch that. Please reply with 1, 2 or 3."))).toHaveLength(1);
    expect(await inboxKinds(a.businessId)).toEqual(["2:CAMPAIGN", "pizza!:CAMPAIGN", "maybe later:MESSAGE", "no idea, sorry:MESSAGE", "Salad:CAMPAIGN"]);
    const csv = (await exportCampaignCsv(t.db, a.businessId, poll.id))!;
    expect(csv.csv).toContain("Salad,Salad");
    expect(csv.csv.split("\r\n")[0]).toBe("Name,Mobile,Reply,Counted as,Received at");
    // m3's conversation is unread for what they wrote; their vote after it is not what the unread list previews.
    await text(m3.phone, a.number, "1");
    await work();
    const unread = await getUnreadMessages(t.db, a.businessId, clock.now());
    expect(unread.find((u) => u.phoneNumber === m3.phone)?.messageText).toBe("no idea, sorry");
  });

  it("keeps compliance first, a live keyword before an open question, and answers the most recently sent open question", async () => {
    const a = await setup(2);
    const [m1, m2] = a.members;
    const q = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "ONEQUESTION", name: "Feedback", messageText: "How was your visit?", thankYouText: "Thank you!", contactGroupId: -1, closeDate: later(24 * HOUR) }),
    });
    clock.advance(60_000);
    const poll = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Colour", messageText: "Pick a colour", contactGroupId: -1, closeDate: later(24 * HOUR), responseOptions: ["Red", "Blue"] }),
    });
    const bb = await createCampaign(deps(t.db), { businessId: a.businessId, userId: a.id, input: parse({ type: "BOUNCEBACK", name: "Menu", keyword: "menu", messageText: "Today's menu: soup." }) });
    expect(bb.status).toBe("ONGOING");
    await work();
    // The poll was sent last: "2" answers it, not the question.
    await text(m1.phone, a.number, "2");
    // A keyword beats the open questions.
    await text(m2.phone, a.number, "Menu please");
    await work();
    expect((await campaignResults(t.db, a.businessId, poll.id, clock.now()))!.campaign.responses[1].total).toBe(1);
    expect((await campaignResults(t.db, a.businessId, q.id, clock.now()))!.repliesTotal).toBe(0);
    expect((await received(m2.phone)).some((b) => b.startsWith("Today's menu: soup."))).toBe(true);
    // STOP is never an answer.
    await text(m2.phone, a.number, "STOP");
    await work();
    const member2 = await t.db.selectFrom("members").select("status").where("id", "=", m2.id).executeTakeFirstOrThrow();
    expect(member2.status).toBe("OPTED_OUT");
    expect((await campaignResults(t.db, a.businessId, poll.id, clock.now()))!.campaign.totalReceived).toBe(1);
    // An opted-out number gets no auto reply.
    const before = (await received(m2.phone)).length;
    await text(m2.phone, a.number, "MENU");
    await work();
    expect((await received(m2.phone)).length).toBe(before);
  });

  it("counts a replayed text once and takes no answer after the close date", async () => {
    const a = await setup(1);
    const [m1] = a.members;
    const poll = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Quick", messageText: "Tea or coffee?", contactGroupId: -1, closeDate: later(2 * HOUR), responseOptions: ["Tea", "Coffee"] }),
    });
    await work();
    const providerId = `SMreplay${dialect}${Date.now()}`;
    await receiveInbound({ db: t.db }, { providerId, from: m1.phone, to: a.number, body: "1", receivedAt: clock.now() });
    await receiveInbound({ db: t.db }, { providerId, from: m1.phone, to: a.number, body: "1", receivedAt: clock.now() });
    await work();
    expect((await campaignResults(t.db, a.businessId, poll.id, clock.now()))!.campaign.responses[0].total).toBe(1);
    clock.advance(3 * HOUR);
    await runDueFires(deps(t.db));
    expect((await getCampaign(t.db, a.businessId, poll.id))!.status).toBe("ENDED");
    await text(m1.phone, a.number, "2");
    await work();
    const r = (await campaignResults(t.db, a.businessId, poll.id, clock.now()))!;
    expect(r.campaign.responses.map((x) => x.total)).toEqual([1, 0]);
    expect((await inboxKinds(a.businessId)).at(-1)).toBe("2:MESSAGE");
  });

  it("refuses bad campaigns with their codes and saves nothing", async () => {
    const a = await setup(2, 1);
    const other = await setup(1);
    const base = { type: "POLL", name: "P", messageText: "Q?", contactGroupId: -1, closeDate: later(HOUR), responseOptions: ["A", "B"] };
    expect(campaignInput.safeParse({ ...base, responseOptions: ["A", "a"] }).success).toBe(false);
    expect(campaignInput.safeParse({ ...base, keyword: "STOP" }).error?.issues[0].message).toBe("errors.BR017");
    expect(campaignInput.safeParse({ ...base, responseOptions: ["A"] }).success).toBe(false);
    expect(campaignInput.safeParse({ ...base, name: "x".repeat(41) }).success).toBe(false);
    // Two members, one credit: BR012 with the figures.
    const credit = await refusal(createCampaign(deps(t.db), { businessId: a.businessId, userId: a.id, input: parse(base) }));
    expect(credit.code).toBe("BR012");
    expect(credit.data).toMatchObject({ needed: 2, remaining: 1 });
    const rich = await setup(2);
    expect((await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, issueDate: later(-2 * HOUR) }) }))).code).toBe("BR013");
    expect((await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, closeDate: later(-HOUR) }) }))).code).toBe("BR013");
    const empty = await createGroup(t.db, rich.businessId, { name: "Nobody", type: "LIST" }, clock.now());
    expect((await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, contactGroupId: empty }) }))).code).toBe("BR026");
    const foreign = await createGroup(t.db, other.businessId, { name: "Theirs", type: "LIST" }, clock.now());
    const notFound = await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, contactGroupId: foreign }) }));
    expect(notFound.code).toBe("NF001");
    expect(notFound.status).toBe(404);
    expect((await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, keyword: "join" }) }))).code).toBe("BR017");
    await createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ type: "BOUNCEBACK", name: "Hours", keyword: "hours", messageText: "9 to 5" }) });
    const inUse = await refusal(createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse({ ...base, keyword: "HOURS" }) }));
    expect([inUse.code, inUse.field]).toEqual(["BR017", "keyword"]);
    const saved = await t.db.selectFrom("campaigns").select("id").where("business_id", "in", [a.businessId, rich.businessId]).execute();
    expect(saved).toHaveLength(1);
    expect(await t.db.selectFrom("messages").select("id").where("business_id", "in", [a.businessId, rich.businessId]).execute()).toHaveLength(0);
    // Another business's campaign is not found.
    expect(await getCampaign(t.db, other.businessId, saved[0].id)).toBeNull();
    // A double submission with one idempotency key makes one campaign.
    const key = `k${Date.now()}`;
    const one = await createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse(base), idempotencyKey: key });
    const two = await createCampaign(deps(t.db), { businessId: rich.businessId, userId: rich.id, input: parse(base), idempotencyKey: key });
    expect(two.id).toBe(one.id);
    expect((await listCampaigns(t.db, rich.businessId)).total).toBe(2);
  });

  it("issues a scheduled campaign once with two workers, and an edit makes the old plan harmless", async () => {
    const a = await setup(2);
    const q = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "ONEQUESTION", name: "Later", messageText: "First wording", contactGroupId: -1, issueDate: later(HOUR), closeDate: later(5 * HOUR) }),
    });
    expect(q.status).toBe("SCHEDULED");
    expect(await runDueFires(deps(t.db))).toBe(0);
    await updateCampaign(deps(t.db), {
      businessId: a.businessId,
      campaignId: q.id,
      input: parse({ type: "ONEQUESTION", name: "Later", messageText: "Second wording", contactGroupId: -1, issueDate: later(2 * HOUR), closeDate: later(5 * HOUR) }),
    });
    clock.advance(90 * 60_000);
    await runDueFires(deps(t.db));
    const fires = async () => (await t.db.selectFrom("campaign_fires").select(["step", "status", "version"]).where("campaign_id", "=", q.id).orderBy("step").execute()).map((f) => `${f.step}:${f.status}:${f.version}`);
    expect(await fires()).toEqual(["close:DUE:2", "issue:DUE:2"]);
    expect(await t.db.selectFrom("messages").select("id").where("campaign_id", "=", q.id).execute()).toHaveLength(0);
    clock.advance(60 * 60_000);
    await Promise.all([runDueFires(deps(t.db)), runDueFires(deps(t.db))]);
    expect(await fires()).toEqual(["close:DUE:2", "issue:DONE:2"]);
    const issued = await t.db.selectFrom("messages").select(["body", "recipients"]).where("campaign_id", "=", q.id).execute();
    expect(issued).toHaveLength(1);
    expect(issued[0].body).toMatch(/^Second wording/);
    expect((await getCampaign(t.db, a.businessId, q.id))!.status).toBe("LIVE");
    // Issued: no more edits.
    const locked = await refusal(updateCampaign(deps(t.db), { businessId: a.businessId, campaignId: q.id, input: parse({ type: "ONEQUESTION", name: "Later", messageText: "Third", contactGroupId: -1, closeDate: later(5 * HOUR) }) }));
    expect(locked.code).toBe("BR028");
  });

  it("fails a scheduled campaign whose group emptied or whose credit ran out, with the reason", async () => {
    const a = await setup(2, 2);
    const g = await createGroup(t.db, a.businessId, { name: "Few", type: "LIST" }, clock.now());
    await t.db.insertInto("group_members").values({ group_id: g, member_id: a.members[0].id, added_at: clock.now().toISOString() }).execute();
    const q = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "ONEQUESTION", name: "Soon", messageText: "Hello?", contactGroupId: g, issueDate: later(HOUR), closeDate: later(3 * HOUR) }),
    });
    await t.db.deleteFrom("group_members").where("group_id", "=", g).execute();
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const failed = (await getCampaign(t.db, a.businessId, q.id))!;
    expect([failed.status, failed.errorMessage]).toEqual(["FAILED", "SURVEYERROR_SG_SHORT"]);
    const poll = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Pricey", messageText: "A or B?", contactGroupId: -1, issueDate: later(HOUR), closeDate: later(3 * HOUR), responseOptions: ["A", "B"] }),
    });
    await t.db.updateTable("businesses").set({ allowance_used: 2 }).where("id", "=", a.businessId).execute();
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const broke = (await getCampaign(t.db, a.businessId, poll.id))!;
    expect([broke.status, broke.errorMessage]).toEqual(["FAILED", "SURVEYERROR_OUTOFCREDIT_FAILURE"]);
    expect(await t.db.selectFrom("messages").select("id").where("campaign_id", "in", [q.id, poll.id]).execute()).toHaveLength(0);
  });

  it("runs an invitation with a capacity, party sizes, a waitlist promoted by a decline, and the door list", async () => {
    const a = await setup(3);
    const [m1, m2, m3] = a.members;
    const inv = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "INVITATION", name: "Wine night", messageText: "Join us for wine on Friday!", acceptText: "See you there!", declineText: "Maybe next time.", contactGroupId: -1, closeDate: later(72 * HOUR), capacity: 3, allowPartySize: true }),
    });
    await work();
    expect((await received(m1.phone))[0]).toContain("Reply YES to accept or NO to decline (YES 3 for three of you)");
    await text(m1.phone, a.number, "yes 2");
    await work();
    await text(m2.phone, a.number, "YES 2");
    await work();
    await text(m3.phone, a.number, "y");
    await work();
    let r = (await campaignResults(t.db, a.businessId, inv.id, clock.now()))!;
    expect(r.invitation).toMatchObject({ acceptedReplies: 2, acceptedPlaces: 3, waitlist: 1, declined: 0, noReply: 0 });
    expect((await received(m2.phone)).at(-1)).toMatch(/waiting list/);
    // m1 declines: two places free, m2's party of two moves up and is told.
    await text(m1.phone, a.number, "no");
    await work();
    r = (await campaignResults(t.db, a.businessId, inv.id, clock.now()))!;
    expect(r.invitation).toMatchObject({ acceptedPlaces: 3, waitlist: 0, declined: 1 });
    expect((await received(m2.phone)).at(-1)).toMatch(/a place has opened for Wine night/);
    expect(r.invitation!.doorList.map((d) => [d.memberId, d.status, d.partySize]), JSON.stringify(r.invitation!.doorList)).toEqual([
      [m2.id, "ACCEPTED", 2],
      [m3.id, "ACCEPTED", 1],
      [m1.id, "DECLINED", 1],
    ]);
    // The accepted are in the campaign's own group; its deletion is refused while a group message to it waits.
    const c = await t.db.selectFrom("campaigns").select("result_group_id").where("id", "=", inv.id).executeTakeFirstOrThrow();
    const inGroup = await t.db.selectFrom("group_members").select("member_id").where("group_id", "=", c.result_group_id!).execute();
    expect(inGroup.map((g) => g.member_id).sort()).toEqual([m2.id, m3.id].sort());
    await t.db
      .insertInto("messages")
      .values({ business_id: a.businessId, kind: "GROUP", body: "x", group_id: c.result_group_id, member_id: null, status: "SCHEDULED", send_at: later(HOUR), editable_until: later(HOUR), created_by: null, created_at: clock.now().toISOString(), updated_at: clock.now().toISOString() })
      .execute();
    expect((await refusal(deleteCampaign(deps(t.db), { businessId: a.businessId, campaignId: inv.id }))).code).toBe("BR042");
  });

  it("draws winners verifiably at the draw date, leaving out recent winners, and fails a draw with nobody to draw", async () => {
    const a = await setup(5);
    const first = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "PICKWINNERS", name: "Draw one", contactGroupId: -1, numberWinnersToPick: 2, closeDate: later(HOUR), messageText: "You won!" }),
    });
    const hidden = (await campaignResults(t.db, a.businessId, first.id, clock.now()))!;
    expect(hidden.draw?.seed).toBeNull();
    expect(hidden.draw?.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(hidden.draw?.entries).toBe(5);
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const drawn = (await campaignResults(t.db, a.businessId, first.id, clock.now()))!;
    expect(drawn.campaign.status).toBe("ENDED");
    const seed = drawn.draw!.seed!;
    expect(seedHash(seed)).toBe(drawn.draw!.seedHash);
    const ids = a.members.map((m) => m.id);
    // Anyone can check: the two lowest tickets win.
    expect(drawn.draw!.winners.map((w) => w.memberId)).toEqual(draw(seed, ids, 2));
    expect(ticket(seed, drawn.draw!.winners[0].memberId) < ticket(seed, drawn.draw!.winners[1].memberId)).toBe(true);
    await work();
    for (const w of drawn.draw!.winners) expect((await received(w.phone)).some((b) => b.startsWith("You won!"))).toBe(true);

    const second = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "PICKWINNERS", name: "Draw two", contactGroupId: -1, numberWinnersToPick: 5, closeDate: later(HOUR), excludeWinnersDays: 30 }),
    });
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const again = (await campaignResults(t.db, a.businessId, second.id, clock.now()))!;
    expect(again.draw!.winners).toHaveLength(3);
    expect(again.draw!.winners.some((w) => drawn.draw!.winners.some((d) => d.memberId === w.memberId))).toBe(false);

    const keyword = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "PICKWINNERS", name: "Entry", entrySource: "KEYWORD", keyword: "WIN", thankYouText: "You're in!", numberWinnersToPick: 1, closeDate: later(HOUR) }),
    });
    await text(a.members[0].phone, a.number, "win");
    await text(a.members[0].phone, a.number, "WIN again");
    await work();
    expect((await received(a.members[0].phone)).filter((b) => b.startsWith("You're in!"))).toHaveLength(1);
    const empty = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "PICKWINNERS", name: "Nobody", entrySource: "KEYWORD", keyword: "LUCKY", numberWinnersToPick: 1, closeDate: later(HOUR) }),
    });
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    expect((await campaignResults(t.db, a.businessId, keyword.id, clock.now()))!.draw!.winners.map((w) => w.memberId)).toEqual([a.members[0].id]);
    const failed = (await getCampaign(t.db, a.businessId, empty.id))!;
    expect([failed.status, failed.errorMessage]).toEqual(["FAILED", "SURVEYERROR_SG_SHORT"]);
  });

  it("ends and deletes campaigns; an ended auto responder no longer answers", async () => {
    const a = await setup(1);
    const bb = await createCampaign(deps(t.db), { businessId: a.businessId, userId: a.id, input: parse({ type: "BOUNCEBACK", name: "Hours", keyword: "HOURS", messageText: "Open 9 to 5." }) });
    await text(a.members[0].phone, a.number, "hours?");
    await work();
    const r = (await campaignResults(t.db, a.businessId, bb.id, clock.now()))!;
    expect(r.totals).toEqual({ today: 1, yesterday: 0, month: 1 });
    expect((await endCampaign(deps(t.db), { businessId: a.businessId, campaignId: bb.id })).status).toBe("ENDED");
    await text(a.members[0].phone, a.number, "hours");
    await work();
    expect((await received(a.members[0].phone)).filter((b) => b.startsWith("Open 9 to 5."))).toHaveLength(1);
    await deleteCampaign(deps(t.db), { businessId: a.businessId, campaignId: bb.id });
    expect(await getCampaign(t.db, a.businessId, bb.id)).toBeNull();
  });

  it("sends nothing twice when a worker dies in the middle of an issue: the claim and the texts roll back together", async () => {
    const a = await setup(3);
    const q = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "ONEQUESTION", name: "Crash", messageText: "Still there?", contactGroupId: -1, issueDate: later(HOUR), closeDate: later(3 * HOUR) }),
    });
    clock.advance(2 * HOUR);
    const fire = await t.db.selectFrom("campaign_fires").select("id").where("campaign_id", "=", q.id).where("step", "=", "issue").executeTakeFirstOrThrow();
    // A worker that does all the work and dies before its commit.
    const dying = {
      ...deps(t.db),
      db: new Proxy(t.db, {
        get(target, prop, receiver) {
          if (prop !== "transaction") return Reflect.get(target, prop, receiver) as unknown;
          return () => ({
            execute: (fn: (trx: Database) => Promise<unknown>) =>
              target.transaction().execute(async (trx) => {
                await fn(trx);
                throw new Error("worker killed");
              }),
          });
        },
      }),
    };
    await expect(runFire(dying, Number(fire.id))).rejects.toThrow("worker killed");
    expect(await t.db.selectFrom("messages").select("id").where("campaign_id", "=", q.id).execute()).toHaveLength(0);
    expect((await t.db.selectFrom("campaign_fires").select("status").where("id", "=", fire.id).executeTakeFirstOrThrow()).status).toBe("DUE");
    expect(await runFire(deps(t.db), Number(fire.id))).toBe(true);
    expect(await runFire(deps(t.db), Number(fire.id))).toBe(false);
    await work();
    for (const m of a.members) expect((await received(m.phone)).filter((b) => b.startsWith("Still there?"))).toHaveLength(1);
  });

  it("shows campaigns on the home feed and in the stats, scoped to the business", async () => {
    const a = await setup(2);
    const other = await setup(1);
    const poll = await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "POLL", name: "Feed poll", messageText: "Cats or dogs?", contactGroupId: -1, closeDate: later(24 * HOUR), responseOptions: ["Cats", "Dogs"] }),
    });
    const when = later(HOUR);
    await createCampaign(deps(t.db), {
      businessId: a.businessId,
      userId: a.id,
      input: parse({ type: "ONEQUESTION", name: "Later question", messageText: "Later?", contactGroupId: -1, issueDate: when, closeDate: later(24 * HOUR) }),
    });
    await work();
    await text(a.members[0].phone, a.number, "dogs");
    await work();
    const feed = await getFeed(t.db, { userId: a.id, businessId: a.businessId }, clock.now());
    const item = feed.find((i) => i.id === `campaign-${poll.id}`)!;
    expect(item).toMatchObject({ type: "POLL", status: "LIVE", totalSent: 2, totalReceived: 1, responses: [{ response: "Cats", total: 0 }, { response: "Dogs", total: 1 }] });
    expect(feed.find((i) => i.name === "Later question")).toMatchObject({ type: "ONEQUESTION", status: "SCHEDULED", nextSending: when });
    expect(await getStat(t.db, a.businessId, "CAMPAIGNSTOTAL", {}, clock.now())).toBe(1);
    expect(await getStat(t.db, a.businessId, "CONTACTCAMPAIGNINTERACTIONTOTAL", { contactId: a.members[0].id }, clock.now())).toBe(1);
    expect(await getStat(t.db, other.businessId, "CAMPAIGNSTOTAL", {}, clock.now())).toBe(0);
    expect((await getFeed(t.db, { userId: other.id, businessId: other.businessId }, clock.now())).some((i) => i.id.startsWith("campaign-"))).toBe(false);
  });

  it("skips a step an edit removed: the old fire is stale and sends nothing", async () => {
    const a = await setup(1);
    const base = { type: "INVITATION", name: "Party", messageText: "Come!", acceptText: "Great", declineText: "Shame", contactGroupId: -1, issueDate: later(HOUR), closeDate: later(72 * HOUR), eventDate: later(60 * HOUR) };
    const inv = await createCampaign(deps(t.db), { businessId: a.businessId, userId: a.id, input: parse({ ...base, remindDayBefore: true, reminderText: "Tomorrow!" }) });
    await updateCampaign(deps(t.db), { businessId: a.businessId, campaignId: inv.id, input: parse({ ...base, remindDayBefore: false }) });
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    await work();
    await text(a.members[0].phone, a.number, "YES");
    await work();
    clock.advance(40 * HOUR);
    await runDueFires(deps(t.db));
    await work();
    const reminder = await t.db.selectFrom("campaign_fires").select(["status", "reason", "version"]).where("campaign_id", "=", inv.id).where("step", "=", "reminder").executeTakeFirstOrThrow();
    expect(reminder).toEqual({ status: "SKIPPED", reason: "stale-version", version: 1 });
    expect((await received(a.members[0].phone)).some((b) => b.startsWith("Tomorrow!"))).toBe(false);
  });
});
