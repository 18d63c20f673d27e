// Owner analytics on both databases: exact figures for a seeded week (texts sent and received per UK day, credits
// used from the ledger, members joined and left, busiest hours, each group message's and campaign's reach, reply
// and opt-out rate), nothing of another business, UK days across the clocks changing, the CSV; and over HTTP the
// page for the owner and a team member, the range links, the CSV download, and another business's figures kept out.
import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Database } from "#db/index";
import { analyticsCsv, busiestHours, getAnalytics } from "~/domain/analytics/analytics.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness, createTeamUser, ukMobile } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

const ref = () => crypto.randomBytes(6).toString("hex");

async function member(db: Database, businessId: number, status: "SUBSCRIBED" | "OPTED_OUT" = "SUBSCRIBED") {
  const at = "2026-11-01T00:00:00.000Z";
  const row = await db
    .insertInto("members")
    .values({ business_id: businessId, phone: ukMobile(), status, unique_ref: ref(), created_at: at, updated_at: at, joined_at: at, invited_at: null, opted_out_at: null, first_name: null, full_name: null, birthday: null, appointment_at: null, note: null })
    .returning(["id", "phone"])
    .executeTakeFirstOrThrow();
  return row;
}

async function message(db: Database, businessId: number, kind: "GROUP" | "DM" | "CAMPAIGN", sendAt: string, recipients: number, extra: { campaignId?: number; groupId?: number | null; body?: string } = {}) {
  const row = await db
    .insertInto("messages")
    .values({
      business_id: businessId,
      kind,
      body: extra.body ?? `${kind} text`,
      group_id: extra.groupId ?? null,
      member_id: null,
      status: "COMPLETE",
      send_at: sendAt,
      editable_until: sendAt,
      recipients,
      created_at: sendAt,
      updated_at: sendAt,
      campaign_id: extra.campaignId ?? null,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

async function sent(db: Database, businessId: number, messageId: number, m: { id: number; phone: string }, sentAt: string) {
  await db
    .insertInto("outbound")
    .values({ message_id: messageId, business_id: businessId, member_id: m.id, to_phone: m.phone, from_phone: "+447700900001", body: "x", segments: 1, priority: 1, status: "DELIVERED", next_attempt_at: sentAt, created_at: sentAt, sent_at: sentAt })
    .execute();
}

async function received(db: Database, businessId: number, m: { id: number; phone: string }, at: string, kind: string, campaignId: number | null = null) {
  await db
    .insertInto("inbound_messages")
    .values({ business_id: businessId, provider_id: ref(), from_number: m.phone, to_number: "+447700900001", body: "hi", received_at: at, processed_at: at, member_id: m.id, kind, campaign_id: campaignId })
    .execute();
}

async function consent(db: Database, businessId: number, m: { id: number; phone: string }, action: "OPTED_IN" | "OPTED_OUT" | "REJOINED", at: string) {
  await db.insertInto("consent_log").values({ business_id: businessId, member_id: m.id, phone: m.phone, action, channel: "SMS", evidence: "test", created_at: at }).execute();
}

async function ledger(db: Database, businessId: number, kind: "GRANT" | "CHARGE" | "REFUND", credits: number, at: string) {
  await db.insertInto("credit_ledger").values({ business_id: businessId, kind, pool: "TRIAL", credits, reason: "test", reference: null, created_at: at }).execute();
}

async function campaign(db: Database, businessId: number, name: string, at: string) {
  const row = await db
    .insertInto("campaigns")
    .values({ business_id: businessId, type: "POLL", kind: "ONETIME", name, keyword: null, message_text: "Q?", thank_you_text: null, group_id: null, issue_at: at, close_at: null, status: "LIVE", error_code: null, settings: "{}", public_ref: ref(), result_group_id: null, seed_hash: null, seed: null, issued_at: at, ended_at: null, idempotency_key: null, created_by: null, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A week of one business (now = Tuesday 24 November 2026, 12:00 UTC = UK time): a group message to four members,
 * a DM, a poll texted to two, replies, a vote, two opt-outs, a join, charges and a refund; plus rows before the
 * period and another business's rows, which must not count.
 */
async function seedWeek(db: Database) {
  const biz = await createBusiness(db);
  const [m1, m2, m3, m4, m5] = [await member(db, biz), await member(db, biz), await member(db, biz), await member(db, biz), await member(db, biz)];
  const g1 = await message(db, biz, "GROUP", "2026-11-20T10:00:00.000Z", 4, { body: "Half price cake today" });
  for (const m of [m1, m2, m3, m4]) await sent(db, biz, g1, m, "2026-11-20T10:00:05.000Z");
  const dm = await message(db, biz, "DM", "2026-11-22T09:30:00.000Z", 1);
  await sent(db, biz, dm, m5, "2026-11-22T09:30:02.000Z");
  const poll = await campaign(db, biz, "Sunday opening", "2026-11-23T18:00:00.000Z");
  const pm = await message(db, biz, "CAMPAIGN", "2026-11-23T18:00:00.000Z", 2, { campaignId: poll });
  for (const m of [m1, m2]) await sent(db, biz, pm, m, "2026-11-23T18:00:10.000Z");

  await received(db, biz, m1, "2026-11-20T10:30:00.000Z", "MESSAGE"); // a reply to the group message
  await received(db, biz, m2, "2026-11-23T08:00:00.000Z", "MESSAGE"); // 70 hours after it: not a reply to it
  await received(db, biz, m1, "2026-11-23T18:05:00.000Z", "POLL", poll); // a vote
  await received(db, biz, m2, "2026-11-23T19:00:00.000Z", "STOP");
  await consent(db, biz, m3, "OPTED_OUT", "2026-11-20T11:00:00.000Z"); // after the group message
  await consent(db, biz, m2, "OPTED_OUT", "2026-11-23T19:00:00.000Z"); // after the poll
  await consent(db, biz, m5, "OPTED_IN", "2026-11-19T09:00:00.000Z");
  await consent(db, biz, m4, "OPTED_IN", "2026-11-10T09:00:00.000Z"); // before the period
  await ledger(db, biz, "CHARGE", 4, "2026-11-20T10:00:00.000Z");
  await ledger(db, biz, "CHARGE", 1, "2026-11-22T09:30:00.000Z");
  await ledger(db, biz, "CHARGE", 2, "2026-11-23T18:00:00.000Z");
  await ledger(db, biz, "REFUND", 1, "2026-11-23T18:30:00.000Z");
  await ledger(db, biz, "GRANT", 50, "2026-11-20T00:00:00.000Z");
  await ledger(db, biz, "CHARGE", 9, "2026-11-17T23:59:00.000Z"); // the day before the period

  // Another business, the same days.
  const other = await createBusiness(db);
  const o1 = await member(db, other);
  const og = await message(db, other, "GROUP", "2026-11-20T10:00:00.000Z", 1);
  await sent(db, other, og, o1, "2026-11-20T10:00:05.000Z");
  await received(db, other, o1, "2026-11-20T10:10:00.000Z", "MESSAGE");
  await consent(db, other, o1, "OPTED_OUT", "2026-11-20T10:20:00.000Z");
  await ledger(db, other, "CHARGE", 7, "2026-11-20T10:00:00.000Z");
  return { biz, other, g1, poll };
}

const NOW = new Date("2026-11-24T12:00:00.000Z");

describe.each(DIALECTS)("owner analytics (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("counts a seeded week exactly, per UK day, for this business only", async () => {
    const { biz, g1, poll } = await seedWeek(t.db);
    const a = await getAnalytics(t.db, biz, 7, NOW);
    expect(a.from).toBe("2026-11-18T00:00:00.000Z");
    expect(a.daily.map((d) => d.date)).toEqual(["2026-11-18", "2026-11-19", "2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24"]);
    const day = (date: string) => a.daily.find((d) => d.date === date);
    expect(day("2026-11-19")).toEqual({ date: "2026-11-19", sent: 0, received: 0, credits: 0, joined: 1, left: 0 });
    expect(day("2026-11-20")).toEqual({ date: "2026-11-20", sent: 4, received: 1, credits: 4, joined: 0, left: 1 });
    expect(day("2026-11-22")).toEqual({ date: "2026-11-22", sent: 1, received: 0, credits: 1, joined: 0, left: 0 });
    expect(day("2026-11-23")).toEqual({ date: "2026-11-23", sent: 2, received: 3, credits: 1, joined: 0, left: 1 });
    expect(a.totals).toEqual({ sent: 7, received: 4, credits: 6, joined: 1, left: 2, recipients: 6, repliers: 2, optOuts: 2 });

    expect(a.sends).toEqual([
      { kind: "CAMPAIGN", id: poll, name: "Sunday opening", type: "POLL", body: null, sentAt: "2026-11-23T18:00:00.000Z", recipients: 2, repliers: 1, optOuts: 1, replyRate: 0.5, optOutRate: 0.5 },
      { kind: "GROUP", id: g1, name: null, type: null, body: "Half price cake today", sentAt: "2026-11-20T10:00:00.000Z", recipients: 4, repliers: 1, optOuts: 1, replyRate: 0.25, optOutRate: 0.25 },
    ]);

    const hour = (h: number) => a.hours[h];
    expect(hour(10)).toEqual({ hour: 10, sent: 4, received: 1 });
    expect(hour(18)).toEqual({ hour: 18, sent: 2, received: 1 });
    expect(hour(9)).toEqual({ hour: 9, sent: 1, received: 0 });
    expect(a.hours.reduce((s, h) => s + h.received, 0)).toBe(4);
    expect(busiestHours(a.hours).map((h) => h.hour)).toEqual([10, 18, 8]);
  });

  it("keeps each business to its own rows", async () => {
    const { other } = await seedWeek(t.db);
    const a = await getAnalytics(t.db, other, 7, NOW);
    expect(a.totals).toEqual({ sent: 1, received: 1, credits: 7, joined: 0, left: 1, recipients: 1, repliers: 1, optOuts: 1 });
    expect(a.sends).toHaveLength(1);
    expect(a.sends[0]).toMatchObject({ kind: "GROUP", recipients: 1, repliers: 1, optOuts: 1, optOutRate: 1 });
  });

  it("widens to 30 days and puts a late-evening text on its UK day in summer time", async () => {
    const biz = await createBusiness(t.db);
    const m = await member(t.db, biz);
    // 23:30 UTC on 14 July is 00:30 on 15 July in the UK (BST).
    await received(t.db, biz, m, "2026-07-14T23:30:00.000Z", "MESSAGE");
    await ledger(t.db, biz, "CHARGE", 3, "2026-06-20T12:00:00.000Z");
    const week = await getAnalytics(t.db, biz, 7, new Date("2026-07-15T12:00:00.000Z"));
    expect(week.from).toBe("2026-07-08T23:00:00.000Z");
    expect(week.daily.at(-1)).toMatchObject({ date: "2026-07-15", received: 1 });
    expect(week.hours[0].received).toBe(1);
    expect(week.totals.credits).toBe(0);
    const month = await getAnalytics(t.db, biz, 30, new Date("2026-07-15T12:00:00.000Z"));
    expect(month.daily).toHaveLength(30);
    expect(month.totals.credits).toBe(3);
  });

  it("writes the period as CSV: a line a day, then a line per group message and campaign", async () => {
    const { biz } = await seedWeek(t.db);
    const { filename, csv } = analyticsCsv(await getAnalytics(t.db, biz, 7, NOW));
    expect(filename).toBe("analytics-2026-11-18-to-2026-11-24.csv");
    const lines = csv.split("\r\n");
    expect(lines[0]).toBe("date,texts_sent,texts_received,credits_used,members_joined,members_left");
    expect(lines).toContain("2026-11-20,4,1,4,0,1");
    expect(lines).toContain("2026-11-23,2,3,1,0,1");
    expect(lines).toContain("sent_at,kind,name,recipients,repliers,reply_rate_percent,opt_outs,opt_out_rate_percent");
    expect(lines).toContain("2026-11-23T18:00:00.000Z,campaign POLL,Sunday opening,2,1,50.0,1,50.0");
    expect(lines).toContain("2026-11-20T10:00:00.000Z,group message,All subscribers,4,1,25.0,1,25.0");
  });
});

describe("the analytics page", () => {
  const t = useTestApp();

  it("shows the owner and a team member this week's texts and opt-outs, and downloads them as CSV; another business sees none of it", async () => {
    const db = t.app.db;
    const account = await createAccount(db);
    const teamUser = await createTeamUser(db, account.businessId);
    const at = new Date(Date.now() - 3600_000).toISOString();
    const [a, b, c] = [await member(db, account.businessId), await member(db, account.businessId), await member(db, account.businessId)];
    const g = await message(db, account.businessId, "GROUP", at, 3, { body: "Quiz night on Friday" });
    for (const m of [a, b, c]) await sent(db, account.businessId, g, m, at);
    await consent(db, account.businessId, b, "OPTED_OUT", new Date(Date.now() - 1800_000).toISOString());

    const owner = t.app.client();
    await owner.login(account.email, account.password);
    const res = await owner.get("/analytics");
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = pageText(html);
    expect(text).toContain("Texts sent");
    expect(html).toMatch(/<dt>Texts sent<\/dt><dd>3<\/dd>/);
    expect(html).toMatch(/<dt>Opt-outs after your texts<\/dt><dd>1<\/dd>/);
    // Without JavaScript the daily figures are a table; the group message's row carries its rates.
    expect(html).toContain('id="analytics-daily-table"');
    expect(text).toMatch(/All subscribers\s*3\s*0%\s*1\s*33\.3%/);
    expect(html).toContain('href="/analytics/export?days=7"');
    expect(html).toContain('aria-current="page"');

    const fr = await owner.get("/analytics?days=30&lng=fr");
    expect(fr.status).toBe(200);
    expect(pageText(await fr.text())).toContain("SMS envoyés");

    const csv = await owner.get("/analytics/export?days=30");
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="analytics-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv"$/);
    const body = await csv.text();
    expect(body.split("\r\n").filter((l) => /^\d{4}-\d{2}-\d{2},/.test(l))).toHaveLength(30);
    expect(body).toContain(",group message,All subscribers,3,0,0.0,1,33.3");

    // A period not offered is the week; a page past the end is the last page.
    expect((await owner.get("/analytics?days=12345&page=99")).status).toBe(200);

    const team = t.app.client();
    await team.login(teamUser.email, teamUser.password);
    expect(await (await team.get("/analytics")).text()).toMatch(/<dt>Texts sent<\/dt><dd>3<\/dd>/);

    const stranger = await createAccount(db);
    const other = t.app.client();
    await other.login(stranger.email, stranger.password);
    const theirs = await other.get("/analytics");
    expect(await theirs.text()).toMatch(/<dt>Texts sent<\/dt><dd>0<\/dd>/);
    expect(await (await other.get("/analytics/export")).text()).not.toContain("All subscribers,3");

    const anonymous = await t.app.client().get("/analytics");
    expect(anonymous.status).toBe(302);
  });
});
