// The operator console's and the support chat's rules on SQLite and PostgreSQL: a suspended or disabled
// business's scheduled campaign fails with the matching reason and lifting the stop lets the next one run;
// billing never lifts a stop; the opening hours and the automatic reply; the inbox's unread marks; the
// pipeline health counts and the product analytics.
import { beforeEach, describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness } from "../support/factories";
import { Clock, middayToday, seedMembers } from "../support/pipeline";
import type { Database } from "#db/index";
import { campaignInput } from "~/domain/campaigns/model";
import { createCampaign, getCampaign } from "~/domain/campaigns/campaigns.server";
import { runDueFires } from "~/domain/campaigns/engine.server";
import { liftBusiness, listBusinesses, stopBusiness } from "~/domain/ops/businesses.server";
import { pipelineHealth } from "~/domain/ops/health.server";
import { productAnalytics, weekStartOf } from "~/domain/ops/analytics.server";
import { ChatRateLimited, sendChatMessage, withinOpeningHours } from "~/domain/support/chat.server";
import { listInbox, replyToChat, unreadChats } from "~/domain/support/inbox.server";
import { createOperator, verifyOperatorLogin } from "~/domain/ops/operators.server";
import { setBillingStatus } from "~/domain/billing/subscription.server";

const HOUR = 3_600_000;
const WEEKDAYS = { days: [1, 2, 3, 4, 5], openMinute: 9 * 60, closeMinute: 17 * 60 + 30 };

describe("opening hours (UK time)", () => {
  it("is open on weekdays from 09:00 to 17:30 London time, across the clock change", () => {
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-11-23T09:00:00Z"))).toBe(true); // Monday, GMT
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-11-23T08:59:00Z"))).toBe(false);
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-11-23T17:29:00Z"))).toBe(true);
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-11-23T17:30:00Z"))).toBe(false);
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-11-28T12:00:00Z"))).toBe(false); // Saturday
    // Summer time: 09:00 in London is 08:00 UTC.
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-06-01T08:00:00Z"))).toBe(true);
    expect(withinOpeningHours(WEEKDAYS, new Date("2026-06-01T07:59:00Z"))).toBe(false);
    expect(weekStartOf("2026-11-25")).toBe("2026-11-23");
  });
});

describe.each(DIALECTS)("operator console rules (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
  });
  const deps = (db: Database) => ({ db, now: clock.now, config: { messaging: { sendDelaySeconds: 0, dmSendDelaySeconds: 5 } } });
  const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  async function scheduled(businessId: number, userId: number, name: string) {
    return createCampaign(deps(t.db), {
      businessId,
      userId,
      input: campaignInput.parse({ type: "ONEQUESTION", name, messageText: "Coming on Friday?", contactGroupId: -1, issueDate: later(HOUR), closeDate: later(5 * HOUR) }),
    });
  }

  it("fails a suspended or disabled business's campaign with the reason, and runs again once lifted", async () => {
    const a = await createAccount(t.db, { messageAllowance: 100 });
    await seedMembers(t.db, a.businessId, 2);
    const first = await scheduled(a.businessId, a.id, "While suspended");
    await t.db.transaction().execute((trx) => stopBusiness(trx, a.businessId, "SUSPENDED"));
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const failed = (await getCampaign(t.db, a.businessId, first.id))!;
    expect([failed.status, failed.errorMessage]).toEqual(["FAILED", "SURVEYERROR_COMPANY_SUSPENDED"]);
    expect(await t.db.selectFrom("messages").select("id").where("campaign_id", "=", first.id).execute()).toHaveLength(0);

    // Disabled on top of suspended keeps the status from before the first stop.
    await stopBusiness(t.db, a.businessId, "DISABLED");
    const second = await scheduled(a.businessId, a.id, "While disabled");
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    const disabled = (await getCampaign(t.db, a.businessId, second.id))!;
    expect([disabled.status, disabled.errorMessage]).toEqual(["FAILED", "SURVEYERROR_COMPANY_DISABLED"]);

    expect(await liftBusiness(t.db, a.businessId)).toEqual({ to: "TRIAL" });
    await expect(liftBusiness(t.db, a.businessId)).rejects.toMatchObject({ code: "BR025" });
    const third = await scheduled(a.businessId, a.id, "After the lift");
    clock.advance(2 * HOUR);
    await runDueFires(deps(t.db));
    expect((await getCampaign(t.db, a.businessId, third.id))!.status).toBe("LIVE");
  });

  it("never lets a payment lift a stop: the status it gets back changes instead", async () => {
    const businessId = await createBusiness(t.db, { status: "SUBSCRIBED", messageAllowance: 100 });
    await stopBusiness(t.db, businessId, "SUSPENDED");
    // A declined renewal while the business is suspended.
    await setBillingStatus(t.db, businessId, "PAYMENT_FAILED", later(7 * 24 * HOUR));
    expect(await t.db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", businessId).executeTakeFirstOrThrow()).toEqual({ status: "SUSPENDED", held_status: "PAYMENT_FAILED" });
    expect(await liftBusiness(t.db, businessId)).toEqual({ to: "PAYMENT_FAILED" });
    // A business that is not stopped takes the billing status at once.
    await setBillingStatus(t.db, businessId, "SUBSCRIBED", null);
    expect(await t.db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", businessId).executeTakeFirstOrThrow()).toEqual({ status: "SUBSCRIBED", held_status: null });
    const list = await listBusinesses(t.db, { state: "SUBSCRIBED", page: 1 }, clock.now());
    expect(list.rows.map((r) => r.id)).toContain(businessId);
  });

  it("answers outside opening hours once, limits a burst, and marks chats unread for the operators", async () => {
    const a = await createAccount(t.db);
    const me = { userId: a.id, businessId: a.businessId };
    const saturday = new Date("2026-11-28T12:00:00Z");
    const input = (text: string) => ({ text, hours: WEEKDAYS, automaticReply: "We are away until Monday." });
    expect((await sendChatMessage(t.db, me, input("Anyone there?"), saturday)).automaticReply).toBe(true);
    expect((await sendChatMessage(t.db, me, input("Hello?"), new Date(saturday.getTime() + 60_000))).automaticReply).toBe(false);
    const texts = await t.db.selectFrom("support_messages").select(["sender", "text", "operator_id"]).orderBy("id").execute();
    expect(texts.filter((m) => m.text === "We are away until Monday.")).toEqual([{ sender: "AGENT", text: "We are away until Monday.", operator_id: null }]);
    const monday = new Date("2026-11-30T10:00:00Z");
    expect((await sendChatMessage(t.db, me, input("Back?"), monday)).automaticReply).toBe(false);
    await expect(sendChatMessage(t.db, me, input("   "), monday)).rejects.toMatchObject({ code: "BR025" });
    await expect(sendChatMessage(t.db, me, input("y".repeat(5001)), monday)).rejects.toMatchObject({ code: "BR025" });
    let refused: unknown = null;
    for (let i = 0; i < 12 && !refused; i++) {
      try {
        await sendChatMessage(t.db, me, input(`quick ${i}`), new Date(monday.getTime() + 120_000));
      } catch (e) {
        refused = e;
      }
    }
    expect(refused).toBeInstanceOf(ChatRateLimited);

    const before = await unreadChats(t.db);
    expect(before).toBeGreaterThanOrEqual(1);
    const { id: operatorId } = await createOperator(t.db, { email: `agent-${dialect}@textcircle.test` }, monday);
    const [row] = (await listInbox(t.db, { filter: "unread", operatorId, page: 1 })).rows.filter((r) => r.businessId === a.businessId);
    expect(row.unread).toBe(true);
    await replyToChat(t.db, row.id, operatorId, "Yes, how can we help?", new Date(monday.getTime() + 300_000));
    expect(await unreadChats(t.db)).toBe(before - 1);
    const mine = await listInbox(t.db, { filter: "mine", operatorId, page: 1 });
    expect(mine.rows.map((r) => r.id)).toEqual([row.id]);
    expect(mine.rows[0]).toMatchObject({ lastText: "Yes, how can we help?", unread: false });
  });

  it("locks an operator after five wrong passwords", async () => {
    const email = `lock-${dialect}@textcircle.test`;
    const { password } = await createOperator(t.db, { email }, clock.now());
    for (let i = 1; i < 5; i++) await expect(verifyOperatorLogin(t.db, email, "wrong", clock.now())).rejects.toMatchObject({ code: "UA003", data: { attemptsLeft: 5 - i } });
    await expect(verifyOperatorLogin(t.db, email, "wrong", clock.now())).rejects.toMatchObject({ code: "UA004" });
    await expect(verifyOperatorLogin(t.db, email, password, clock.now())).rejects.toMatchObject({ code: "UA004" });
    clock.advance(16 * 60_000);
    expect(await verifyOperatorLogin(t.db, email, password, clock.now())).toBeGreaterThan(0);
  });

  it("counts the pipeline's waiting and failing work and the product analytics", async () => {
    const a = await createAccount(t.db);
    const now = clock.now();
    const at = now.toISOString();
    await t.db
      .insertInto("emails")
      .values([
        { business_id: a.businessId, kind: "x", to_address: "a@b.test", subject: "s", text_body: "t", status: "QUEUED", next_attempt_at: at, created_at: at },
        { business_id: a.businessId, kind: "x", to_address: "a@b.test", subject: "s", text_body: "t", status: "FAILED", next_attempt_at: at, created_at: at },
      ])
      .execute();
    const health = await pipelineHealth(t.db, { sms: "simulator", email: "outbox" }, new Date(now.getTime() + 1000));
    const email = health.find((h) => h.channel === "email")!;
    expect(email.provider).toBe("outbox");
    expect(email.waiting).toBeGreaterThanOrEqual(1);
    expect(email.failed24h).toBeGreaterThanOrEqual(1);
    expect(health.map((h) => h.channel)).toEqual(["sms-out", "sms-in", "email", "campaign-fires"]);

    const b = await createAccount(t.db);
    const events = [
      [a.businessId, "view:Home"],
      [a.businessId, "view:Home"],
      [b.businessId, "view:Home"],
      [a.businessId, "start_trial"],
      [b.businessId, "purchase_subscription"],
      [b.businessId, "clicked_help"],
    ] as const;
    for (const [businessId, action] of events) await t.db.insertInto("track_events").values({ business_id: businessId, user_id: null, action, created_at: at }).execute();
    const stats = await productAnalytics(t.db, 7, new Date(now.getTime() + 1000));
    const home = stats.pageViews.find((v) => v.title === "Home")!;
    expect(home.views).toBeGreaterThanOrEqual(3);
    expect(home.businesses).toBeGreaterThanOrEqual(2);
    expect(stats.events.startTrial).toBeGreaterThanOrEqual(1);
    expect(stats.events.purchaseSubscription).toBeGreaterThanOrEqual(1);
    expect(stats.events.custom.find((c) => c.name === "clicked_help")?.total).toBeGreaterThanOrEqual(1);
    expect(stats.activeWeeks).toHaveLength(8);
    expect(stats.activeWeeks.at(-1)!.businesses).toBeGreaterThanOrEqual(2);
    expect(stats.conversion.newBusinesses).toBeGreaterThanOrEqual(2);
  });
});
