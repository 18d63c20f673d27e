// Owner analytics: what a business's texting did over the last 7, 30 or 90 days (UK days, today included).
// Every figure is read for one business only, from the rows that record what happened: texts sent (outbound rows
// by the time they went), texts received (inbound), credits used (the credit ledger: charges less refunds), members
// joined and left (the consent log), and, for each group message and campaign of the period, how many members it
// reached, how many of them replied and how many opted out.
//
// Attribution: an opt-out counts against the last group or campaign text the member was sent before it, when that
// text went in the ATTRIBUTION_HOURS before; a reply to a group message likewise (a member's ordinary text, not a
// keyword); a campaign's replies are the texts the campaign itself handled. So one opt-out or reply is never
// counted twice.
//
// Time buckets: rows are grouped by their UTC hour in SQL (a prefix of the ISO-8601 text, the same on SQLite
// and PostgreSQL) and folded into UK days and UK hours of the day here; UK offsets are whole hours, so no
// bucket straddles two UK hours. The queries ride on indexes led by business_id and the time column.
import { sql } from "kysely";
import type { Database } from "#db/index";
import { wallClock, wallClockToUtc } from "~/lib/uk-time";
import { csvLine } from "~/domain/import/csv";

import { ATTRIBUTION_HOURS, type AnalyticsRange } from "./ranges";

export { ANALYTICS_RANGES, ATTRIBUTION_HOURS, isAnalyticsRange, type AnalyticsRange } from "./ranges";

export interface DayFigures {
  /** The UK date, YYYY-MM-DD. */
  date: string;
  sent: number;
  received: number;
  credits: number;
  joined: number;
  left: number;
}

export interface HourFigures {
  /** UK hour of the day, 0 to 23. */
  hour: number;
  sent: number;
  received: number;
}

export interface SendFigures {
  kind: "GROUP" | "CAMPAIGN";
  id: number;
  /** The campaign's name, or the group message's group name (null: all subscribers). */
  name: string | null;
  /** The campaign's type (CAMPAIGN only). */
  type: string | null;
  /** The group message's text (GROUP only). */
  body: string | null;
  /** When it was sent (a campaign: its first text of the period). */
  sentAt: string;
  /** Members it texted in the period. */
  recipients: number;
  /** Members who replied. */
  repliers: number;
  optOuts: number;
  /** Shares of recipients, 0 to 1 (0 when nobody was texted). */
  replyRate: number;
  optOutRate: number;
}

export interface Analytics {
  days: AnalyticsRange;
  /** The period: from the start of the first UK day to now. */
  from: string;
  to: string;
  daily: DayFigures[];
  hours: HourFigures[];
  totals: Omit<DayFigures, "date"> & { recipients: number; repliers: number; optOuts: number };
  sends: SendFigures[];
}

function ukDate(at: Date): string {
  const w = wallClock(at);
  return `${String(w.year).padStart(4, "0")}-${String(w.month).padStart(2, "0")}-${String(w.day).padStart(2, "0")}`;
}

/** The first instant of the UK day `daysBack` days before the one `now` is in. */
function startOfUkDay(now: Date, daysBack: number): Date {
  const w = wallClock(now);
  return wallClockToUtc(w.year, w.month, w.day - daysBack, 0);
}

/** "2026-11-24T09" (a UTC hour bucket) → that hour's first instant. */
function hourInstant(bucket: string): Date {
  return new Date(`${bucket}:00:00.000Z`);
}

const hourOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 13)`;

function rate(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

export async function getAnalytics(db: Database, businessId: number, days: AnalyticsRange, now: Date): Promise<Analytics> {
  const from = startOfUkDay(now, days - 1);
  const fromIso = from.toISOString();
  const toIso = now.toISOString();
  const lookbackIso = new Date(from.getTime() - ATTRIBUTION_HOURS * 3600_000).toISOString();

  // The UK days of the period, each with zeroes to start with.
  const daily: DayFigures[] = [];
  const byDate = new Map<string, DayFigures>();
  for (let i = days - 1; i >= 0; i--) {
    const date = ukDate(startOfUkDay(now, i));
    const row = { date, sent: 0, received: 0, credits: 0, joined: 0, left: 0 };
    daily.push(row);
    byDate.set(date, row);
  }
  const hours: HourFigures[] = Array.from({ length: 24 }, (_, hour) => ({ hour, sent: 0, received: 0 }));
  const add = (bucket: string, field: keyof Omit<DayFigures, "date">, n: number) => {
    const at = hourInstant(bucket);
    const day = byDate.get(ukDate(at));
    if (day) day[field] += n;
    if (field === "sent" || field === "received") hours[wallClock(at).hour][field] += n;
  };

  const [sent, received, credits, consent] = await Promise.all([
    db
      .selectFrom("outbound")
      .select([hourOf("sent_at").as("h"), (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("business_id", "=", businessId)
      .where("sent_at", ">=", fromIso)
      .where("sent_at", "<=", toIso)
      .groupBy(hourOf("sent_at"))
      .execute(),
    db
      .selectFrom("inbound_messages")
      .select([hourOf("received_at").as("h"), (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("business_id", "=", businessId)
      .where("received_at", ">=", fromIso)
      .where("received_at", "<=", toIso)
      .groupBy(hourOf("received_at"))
      .execute(),
    db
      .selectFrom("credit_ledger")
      .select([hourOf("created_at").as("h"), "kind", (eb) => eb.fn.sum<number | string>("credits").as("n")])
      .where("business_id", "=", businessId)
      .where("created_at", ">=", fromIso)
      .where("created_at", "<=", toIso)
      .where("kind", "in", ["CHARGE", "REFUND"])
      .groupBy([hourOf("created_at"), "kind"])
      .execute(),
    db
      .selectFrom("consent_log")
      .select([hourOf("created_at").as("h"), "action", (eb) => eb.fn.countAll<number | string>().as("n")])
      .where("business_id", "=", businessId)
      .where("created_at", ">=", fromIso)
      .where("created_at", "<=", toIso)
      .where("action", "in", ["OPTED_IN", "REJOINED", "OPTED_OUT"])
      .groupBy([hourOf("created_at"), "action"])
      .execute(),
  ]);
  for (const r of sent) add(r.h, "sent", Number(r.n));
  for (const r of received) add(r.h, "received", Number(r.n));
  for (const r of credits) add(r.h, "credits", r.kind === "REFUND" ? -Number(r.n) : Number(r.n));
  for (const r of consent) add(r.h, r.action === "OPTED_OUT" ? "left" : "joined", Number(r.n));

  const sends = await sendFigures(db, businessId, fromIso, toIso, lookbackIso);
  const sum = (f: keyof Omit<DayFigures, "date">) => daily.reduce((s, d) => s + d[f], 0);
  return {
    days,
    from: fromIso,
    to: toIso,
    daily,
    hours,
    totals: {
      sent: sum("sent"),
      received: sum("received"),
      credits: sum("credits"),
      joined: sum("joined"),
      left: sum("left"),
      recipients: sends.reduce((s, r) => s + r.recipients, 0),
      repliers: sends.reduce((s, r) => s + r.repliers, 0),
      optOuts: sends.reduce((s, r) => s + r.optOuts, 0),
    },
    sends,
  };
}

/**
 * The latest group (or campaign) text a member was sent at or before an event, as a correlated subquery giving
 * "<sent_at>|<message_id>" (one probe of the outbound (member_id, id) index per event, both values at once).
 */
function lastTextBefore(db: Database, kinds: ("GROUP" | "CAMPAIGN")[], member: string, at: string, lookbackIso: string) {
  return db
    .selectFrom("outbound as o")
    .innerJoin("messages as m", "m.id", "o.message_id")
    .select(sql<string>`o.sent_at || '|' || cast(o.message_id as text)`.as("last"))
    .whereRef("o.member_id", "=", sql.ref(member))
    .where("m.kind", "in", kinds)
    .where("o.sent_at", ">=", lookbackIso)
    .whereRef("o.sent_at", "<=", sql.ref(at))
    .orderBy("o.sent_at", "desc")
    .orderBy("o.id", "desc")
    .limit(1);
}

/** "<sent_at>|<message_id>" → its parts (null when there was no such text). */
function lastText(value: string | null): { sentAt: string; messageId: number } | null {
  if (!value) return null;
  const bar = value.lastIndexOf("|");
  return { sentAt: value.slice(0, bar), messageId: Number(value.slice(bar + 1)) };
}

async function sendFigures(db: Database, businessId: number, fromIso: string, toIso: string, lookbackIso: string): Promise<SendFigures[]> {
  const windowMs = ATTRIBUTION_HOURS * 3600_000;
  const [groupMessages, campaignReach, optOuts, groupReplies, campaignReplies] = await Promise.all([
    db
      .selectFrom("messages as m")
      .leftJoin("groups as g", (j) => j.onRef("g.id", "=", "m.group_id").on("g.business_id", "=", businessId))
      .select(["m.id", "m.body", "m.send_at", "m.recipients", "g.name"])
      .where("m.business_id", "=", businessId)
      .where("m.kind", "=", "GROUP")
      .where("m.send_at", ">=", fromIso)
      .where("m.send_at", "<=", toIso)
      .where("m.status", "in", ["SENDING", "COMPLETE"])
      .execute(),
    db
      .selectFrom("messages as m")
      .innerJoin("outbound as o", "o.message_id", "m.id")
      .innerJoin("campaigns as c", "c.id", "m.campaign_id")
      .select(["c.id", "c.name", "c.type", (eb) => eb.fn.min("m.send_at").as("first"), (eb) => eb.fn.count<number | string>("o.member_id").distinct().as("n")])
      .where("m.business_id", "=", businessId)
      .where("c.business_id", "=", businessId)
      .where("m.kind", "=", "CAMPAIGN")
      .where("m.send_at", ">=", fromIso)
      .where("m.send_at", "<=", toIso)
      .groupBy(["c.id", "c.name", "c.type"])
      .execute(),
    // Opt-outs of the period, each with the last group or campaign text its member was sent before it.
    db
      .selectFrom("consent_log as e")
      .select([
        "e.member_id",
        "e.created_at as at",
        lastTextBefore(db, ["GROUP", "CAMPAIGN"], "e.member_id", "e.created_at", lookbackIso).as("last"),
      ])
      .where("e.business_id", "=", businessId)
      .where("e.action", "=", "OPTED_OUT")
      .where("e.member_id", "is not", null)
      .where("e.created_at", ">=", fromIso)
      .where("e.created_at", "<=", toIso)
      .execute(),
    // Members' ordinary texts of the period, each with the last group text they were sent before it.
    db
      .selectFrom("inbound_messages as i")
      .select([
        "i.member_id",
        "i.received_at as at",
        lastTextBefore(db, ["GROUP"], "i.member_id", "i.received_at", lookbackIso).as("last"),
      ])
      .where("i.business_id", "=", businessId)
      .where("i.received_at", ">=", fromIso)
      .where("i.received_at", "<=", toIso)
      .where("i.member_id", "is not", null)
      .where("i.campaign_id", "is", null)
      .where("i.kind", "=", "MESSAGE")
      .execute(),
    db
      .selectFrom("inbound_messages")
      .select(["campaign_id", (eb) => eb.fn.count<number | string>("member_id").distinct().as("n")])
      .where("business_id", "=", businessId)
      .where("received_at", ">=", fromIso)
      .where("received_at", "<=", toIso)
      .where("campaign_id", "is not", null)
      .groupBy("campaign_id")
      .execute(),
  ]);

  // Which message each attributed event belongs to, and the campaign of each campaign message.
  const attributed = (rows: { member_id: number | null; at: string; last: string | null }[]) =>
    rows.flatMap((r) => {
      const last = lastText(r.last);
      return last && new Date(r.at).getTime() - new Date(last.sentAt).getTime() <= windowMs ? [{ memberId: Number(r.member_id), messageId: last.messageId }] : [];
    });
  const optOutMessages = attributed(optOuts);
  const messageIds = [...new Set(optOutMessages.map((e) => e.messageId))];
  const campaignOf = new Map<number, number>();
  for (let i = 0; i < messageIds.length; i += 500) {
    const rows = await db
      .selectFrom("messages")
      .select(["id", "campaign_id"])
      .where("business_id", "=", businessId)
      .where("id", "in", messageIds.slice(i, i + 500))
      .execute();
    for (const r of rows) if (r.campaign_id !== null) campaignOf.set(r.id, r.campaign_id);
  }
  const optOutsBy = new Map<string, Set<number>>();
  for (const e of optOutMessages) {
    const campaignId = campaignOf.get(e.messageId);
    const key = campaignId !== undefined ? `CAMPAIGN:${campaignId}` : `GROUP:${e.messageId}`;
    const set = optOutsBy.get(key) ?? new Set<number>();
    set.add(e.memberId);
    optOutsBy.set(key, set);
  }
  const repliersBy = new Map<number, Set<number>>();
  for (const r of attributed(groupReplies)) {
    const set = repliersBy.get(r.messageId) ?? new Set<number>();
    set.add(r.memberId);
    repliersBy.set(r.messageId, set);
  }
  const campaignRepliers = new Map(campaignReplies.map((r) => [Number(r.campaign_id), Number(r.n)]));

  const rows: SendFigures[] = [
    ...groupMessages.map((m) => {
      const recipients = Number(m.recipients);
      const repliers = repliersBy.get(m.id)?.size ?? 0;
      const out = optOutsBy.get(`GROUP:${m.id}`)?.size ?? 0;
      return { kind: "GROUP" as const, id: m.id, name: m.name, type: null, body: m.body, sentAt: m.send_at, recipients, repliers, optOuts: out, replyRate: rate(repliers, recipients), optOutRate: rate(out, recipients) };
    }),
    ...campaignReach.map((c) => {
      const recipients = Number(c.n);
      const repliers = Math.min(recipients, campaignRepliers.get(c.id) ?? 0);
      const out = optOutsBy.get(`CAMPAIGN:${c.id}`)?.size ?? 0;
      return { kind: "CAMPAIGN" as const, id: c.id, name: c.name, type: c.type, body: null, sentAt: String(c.first), recipients, repliers, optOuts: out, replyRate: rate(repliers, recipients), optOutRate: rate(out, recipients) };
    }),
  ];
  return rows.sort((a, b) => b.sentAt.localeCompare(a.sentAt) || b.id - a.id);
}

/** The busiest UK hours of the day by texts received (then sent), most first; hours with nothing are left out. */
export function busiestHours(hours: HourFigures[], count = 3): HourFigures[] {
  return [...hours]
    .filter((h) => h.received + h.sent > 0)
    .sort((a, b) => b.received - a.received || b.sent - a.sent || a.hour - b.hour)
    .slice(0, count);
}

const pct = (x: number) => (Math.round(x * 1000) / 10).toFixed(1);

/** The period as CSV: one line a day, then one line for each group message and campaign. */
export function analyticsCsv(a: Analytics): { filename: string; csv: string } {
  let csv = csvLine(["date", "texts_sent", "texts_received", "credits_used", "members_joined", "members_left"]);
  for (const d of a.daily) csv += csvLine([d.date, d.sent, d.received, d.credits, d.joined, d.left]);
  csv += "\r\n";
  csv += csvLine(["sent_at", "kind", "name", "recipients", "repliers", "reply_rate_percent", "opt_outs", "opt_out_rate_percent"]);
  for (const s of a.sends) {
    csv += csvLine([s.sentAt, s.kind === "GROUP" ? "group message" : `campaign ${s.type ?? ""}`.trim(), s.kind === "GROUP" ? (s.name ?? "All subscribers") : s.name, s.recipients, s.repliers, pct(s.replyRate), s.optOuts, pct(s.optOutRate)]);
  }
  return { filename: `analytics-${a.daily[0]?.date ?? "period"}-to-${a.daily[a.daily.length - 1]?.date ?? ""}.csv`, csv };
}
