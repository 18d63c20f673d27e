// `npm run bench:analytics -- --members 100000 --sends 6`: the owner analytics page's queries at scale. Seeds one
// business with N members who joined over the last 90 days, S group messages to all of them spread over the
// period (one outbound row per member each), a poll texted to everyone with a vote from one in ten, replies from
// one in twenty to each group message, opt-outs from one in fifty, and a charge per message in the credit
// ledger; then times getAnalytics for 7, 30 and 90 days (median of the runs). SQLite file by default;
// PostgreSQL (throwaway schema) when DATABASE_URL is postgres://. Prints JSON.
import os from "node:os";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { dialectOf, type Database } from "../db/index";
import { getAnalytics } from "../app/domain/analytics/analytics.server";
import { createScratchDb } from "../db/scratch";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const MEMBERS = arg("members", 100_000);
const SENDS = arg("sends", 6);
const RUNS = arg("runs", 5);
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;
const NOW = new Date("2026-11-24T12:00:00.000Z");
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const phoneOf = (k: number) => `+447${String(100_000_000 + k).slice(-9)}`;

type Table = "members" | "inbound_messages" | "outbound" | "messages" | "consent_log" | "credit_ledger" | "campaigns";
async function insertChunks(db: Database, table: Table, rows: object[], size = 500) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += size) await trx.insertInto(table).values(rows.slice(i, i + size) as never).execute();
  });
}

async function seed(db: Database) {
  const start = NOW.getTime() - 89 * DAY;
  const b = await db
    .insertInto("businesses")
    .values({ name: "Bench Bakery", name_key: `bench-${crypto.randomBytes(4).toString("hex")}`, phone_number: "+447700900999", onboarding: "COMPLETE", status: "SUBSCRIBED", message_allowance: 10_000_000, referral_code: `B${crypto.randomBytes(5).toString("hex")}`, created_at: iso(start) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = Number(b.id);
  for (let i = 0; i < MEMBERS; i += 10_000) {
    const rows = [];
    for (let k = i; k < Math.min(MEMBERS, i + 10_000); k++) {
      const at = iso(start + Math.floor((k / MEMBERS) * 89 * DAY));
      rows.push({ business_id: businessId, phone: phoneOf(k), status: k % 50 === 0 ? "OPTED_OUT" : "SUBSCRIBED", unique_ref: crypto.randomBytes(12).toString("base64url"), joined_at: at, invited_at: null, opted_out_at: null, created_at: at, updated_at: at });
    }
    await insertChunks(db, "members", rows);
  }
  const members = await db.selectFrom("members").select(["id", "phone", "created_at"]).where("business_id", "=", businessId).orderBy("id").execute();
  await insertChunks(
    db,
    "consent_log",
    members.map((m) => ({ business_id: businessId, member_id: m.id, phone: m.phone, action: "OPTED_IN", channel: "SMS", evidence: "bench", created_at: m.created_at })),
  );
  const poll = await db
    .insertInto("campaigns")
    .values({ business_id: businessId, type: "POLL", kind: "ONETIME", name: "Bench poll", message_text: "Q?", issue_at: iso(NOW.getTime() - 3 * DAY), status: "LIVE", settings: "{}", public_ref: crypto.randomBytes(8).toString("hex"), created_at: iso(start), updated_at: iso(start) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const sends = Array.from({ length: SENDS + 1 }, (_, s) => ({ at: start + Math.floor(((s + 0.5) / (SENDS + 1)) * 89 * DAY), campaign: s === SENDS ? Number(poll.id) : null }));
  let inboundRef = 0;
  for (const send of sends) {
    const at = iso(send.at);
    const msg = await db
      .insertInto("messages")
      .values({ business_id: businessId, kind: send.campaign ? "CAMPAIGN" : "GROUP", body: "Bench text", status: "COMPLETE", send_at: at, editable_until: at, recipients: members.length, created_at: at, updated_at: at, campaign_id: send.campaign, group_id: null, member_id: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    await insertChunks(
      db,
      "outbound",
      members.map((m) => ({ message_id: msg.id, business_id: businessId, member_id: m.id, to_phone: m.phone, from_phone: "+447700900999", body: "Bench text", segments: 1, priority: 1, status: "DELIVERED", next_attempt_at: at, created_at: at, sent_at: iso(send.at + 60_000) })),
    );
    await db.insertInto("credit_ledger").values({ business_id: businessId, kind: "CHARGE", pool: "ALLOWANCE", credits: members.length, reason: "send", created_at: at }).execute();
    const replies = members.filter((_, k) => k % (send.campaign ? 10 : 20) === 0);
    await insertChunks(
      db,
      "inbound_messages",
      replies.map((m, k) => ({ business_id: businessId, provider_id: `bench-${inboundRef++}`, from_number: m.phone, to_number: "+447700900999", body: "1", received_at: iso(send.at + 3600_000 + k * 1000), processed_at: iso(send.at + 3600_000), member_id: m.id, kind: send.campaign ? "POLL" : "MESSAGE", campaign_id: send.campaign })),
    );
  }
  // One in fifty opts out, a few hours after the group message before their joining date's send.
  const outs = members.filter((_, k) => k % 50 === 0);
  await insertChunks(
    db,
    "consent_log",
    outs.map((m, k) => ({ business_id: businessId, member_id: m.id, phone: m.phone, action: "OPTED_OUT", channel: "SMS", evidence: "STOP", created_at: iso(sends[k % sends.length].at + 2 * 3600_000) })),
  );
  return businessId;
}

async function time(runs: number, fn: () => Promise<unknown>): Promise<{ medianMs: number; maxMs: number }> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { medianMs: Number(samples[Math.floor(samples.length / 2)].toFixed(1)), maxMs: Number(samples[samples.length - 1].toFixed(1)) };
}

async function main() {
  const env = await createScratchDb({ pgUrl: url, prefix: "tc-bench-analytics-" });
  try {
    const t0 = performance.now();
    const businessId = await seed(env.db);
    const seedSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
    const ninety = await getAnalytics(env.db, businessId, 90, NOW);
    const results = {
      days7: await time(RUNS, () => getAnalytics(env.db, businessId, 7, NOW)),
      days30: await time(RUNS, () => getAnalytics(env.db, businessId, 30, NOW)),
      days90: await time(RUNS, () => getAnalytics(env.db, businessId, 90, NOW)),
    };
    const count = async (table: "inbound_messages" | "outbound" | "consent_log") => Number((await env.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    console.log(
      JSON.stringify(
        {
          dialect: env.dialect,
          members: MEMBERS,
          rows: { outbound: await count("outbound"), inbound: await count("inbound_messages"), consentLog: await count("consent_log") },
          ninetyDays: { ...ninety.totals, sends: ninety.sends.length },
          seedSeconds,
          results,
          node: process.version,
          cpus: os.cpus().length,
          load1: Number(os.loadavg()[0].toFixed(2)),
        },
        null,
        2,
      ),
    );
  } finally {
    await env.dispose();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
