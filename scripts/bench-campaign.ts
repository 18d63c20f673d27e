// `npm run bench:campaign -- --members 100000`: a quick poll to every subscribed member of a business, through
// the whole campaign engine and outbound pipeline (the campaign created and issued now, its sends fired by the
// worker's rounds, merge tags, credits, the simulator provider with no rate limit), then one reply from every
// member stored as an inbound text and worked through the inbound pipeline (compliance words, the reply router,
// the poll's vote counting), then the results page's query (`campaignResults`) timed over 50 calls. Runs on a
// fresh SQLite file (or PostgreSQL in a throwaway schema when DATABASE_URL says postgres://). Prints JSON.
// The poll has no thank-you text, so the inbound figure is the reply pipeline alone (a thank-you is one more
// outbound text per reply, measured by the outbound figure). Run with tsx (imports the app's TypeScript).
import os from "node:os";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Insertable } from "kysely";
import { dialectOf, type Database } from "../db/index";
import type { MembersTable } from "../db/types";
import { createScratchDb } from "../db/scratch";
import { campaignResults, createCampaign } from "../app/domain/campaigns/campaigns.server";
import { pollInput } from "../app/domain/campaigns/model";
import { workerRounds } from "../app/domain/jobs/index.server";
import { receiveInbound } from "../app/domain/messaging/inbound.server";
import { OutboundWorker } from "../app/domain/messaging/worker.server";
import { SimulatorSmsProvider } from "../app/providers/sms/simulator.server";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? Math.floor(v) : fallback;
}

const MEMBERS = arg("members", 100_000);
const BATCH = arg("batch", 1000);
const RESULT_CALLS = 50;
const BUSINESS_NUMBER = "+447700900888";
const OPTIONS = ["Yes", "No", "Mornings only"];
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const phoneOf = (k: number) => `+447${String(100_000_000 + k).slice(-9)}`;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);

async function seed(db: Database, members: number): Promise<number> {
  const at = new Date().toISOString();
  const b = await db
    .insertInto("businesses")
    .values({
      name: "Bench Bakery",
      name_key: `bench-${crypto.randomBytes(4).toString("hex")}`,
      phone_number: BUSINESS_NUMBER,
      onboarding: "COMPLETE",
      status: "SUBSCRIBED",
      message_allowance: members * 10,
      referral_code: `B${crypto.randomBytes(5).toString("hex")}`,
      // No quiet hours: the benchmark measures throughput, not the clock.
      quiet_start: "00:00",
      quiet_end: "00:00",
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const names = ["Ann", "Bob", "Chloé", "Dev", "Eve", "Femi", "Gus", "Hana", ""];
  for (let i = 0; i < members; i += 2000) {
    const rows: Insertable<MembersTable>[] = [];
    for (let k = i; k < Math.min(members, i + 2000); k++) {
      rows.push({
        business_id: b.id,
        phone: phoneOf(k),
        first_name: names[k % names.length] || null,
        full_name: null,
        status: "SUBSCRIBED" as const,
        unique_ref: crypto.randomBytes(16).toString("base64url"),
        joined_at: at,
        invited_at: null,
        opted_out_at: null,
        created_at: at,
        updated_at: at,
      });
    }
    await db.transaction().execute(async (trx) => {
      for (let j = 0; j < rows.length; j += 500) await trx.insertInto("members").values(rows.slice(j, j + 500)).execute();
    });
  }
  return Number(b.id);
}

/** Member k's vote: mostly option numbers, some option text in odd case, as people reply. */
function replyOf(k: number): string {
  switch (k % 10) {
    case 0:
      return "yes";
    case 1:
      return " 2 ";
    case 2:
      return "MORNINGS ONLY";
    case 3:
    case 4:
    case 5:
      return "1";
    case 6:
    case 7:
      return "2";
    default:
      return "3";
  }
}

const env = await createScratchDb({ pgUrl: url, prefix: "tc-bench-campaign-" });
try {
  const businessId = await seed(env.db, MEMBERS);
  const now = () => new Date();
  const config = { messaging: { sendDelaySeconds: 0 } };
  const sms = new SimulatorSmsProvider(env.db, now);
  const worker = new OutboundWorker(
    { db: env.db, sms, now, config: { messaging: { ratePerSecond: 0, batchSize: BATCH, pollMs: 10, leaseSeconds: 120, maxAttempts: 8, backoffMs: 1000 } } },
    { rounds: workerRounds({ db: env.db, now, config }) },
  );

  // Out: the poll issued now, fired and sent by the worker.
  const input = pollInput.parse({
    type: "POLL",
    name: "Saturday opening",
    contactGroupId: -1,
    messageText: "Hi {{firstName|there}}, should {{businessName}} open on Saturdays? Reply 1 Yes, 2 No, 3 Mornings only",
    responseOptions: OPTIONS,
    closeDate: new Date(Date.now() + 7 * 86_400_000).toISOString(),
  });
  const t0 = performance.now();
  const campaign = await createCampaign({ db: env.db, now, config }, { businessId, userId: null, input });
  const tCreated = performance.now();
  await worker.drain();
  const tSent = performance.now();
  const sim = await env.db
    .selectFrom("sim_messages")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("direction", "=", "TO_PHONE")
    .executeTakeFirstOrThrow();
  if (Number(sim.n) !== MEMBERS) throw new Error(`the simulator holds ${sim.n} texts, expected ${MEMBERS}`);
  const outSeconds = (tSent - t0) / 1000;

  // In: one reply from every member, stored as the webhook stores it, then worked by the inbound pipeline.
  const tStore = performance.now();
  const receivedAt = new Date();
  for (let i = 0; i < MEMBERS; i += 1000) {
    const chunk: Promise<unknown>[] = [];
    for (let k = i; k < Math.min(MEMBERS, i + 1000); k++) {
      chunk.push(receiveInbound({ db: env.db }, { providerId: `SMbench${k}`, from: phoneOf(k), to: BUSINESS_NUMBER, body: replyOf(k), receivedAt }));
    }
    await Promise.all(chunk);
  }
  const tStored = performance.now();
  await worker.drain();
  const tProcessed = performance.now();
  const results = await campaignResults(env.db, businessId, campaign.id, now());
  const counted = (results?.campaign.responses ?? []).reduce((sum, r) => sum + r.total, 0);
  if (counted !== MEMBERS) throw new Error(`the poll counted ${counted} votes, expected ${MEMBERS}: ${JSON.stringify(results?.campaign.responses)}`);
  const inSeconds = (tProcessed - tStored) / 1000;

  // The results page's query.
  if (env.dialect === "postgres") await (await import("kysely")).sql`ANALYZE`.execute(env.db);
  const timings: number[] = [];
  for (let i = 0; i < RESULT_CALLS; i++) {
    const t = performance.now();
    await campaignResults(env.db, businessId, campaign.id, now());
    timings.push(performance.now() - t);
  }
  timings.sort((a, b) => a - b);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  console.log(
    JSON.stringify(
      {
        benchmark: "bench:campaign",
        dialect: env.dialect,
        members: MEMBERS,
        out: {
          texts: MEMBERS,
          seconds: round(outSeconds),
          create_seconds: round((tCreated - t0) / 1000),
          texts_per_s: Math.round(MEMBERS / outSeconds),
        },
        in: {
          texts: MEMBERS,
          store_seconds: round((tStored - tStore) / 1000),
          process_seconds: round(inSeconds),
          texts_per_s: Math.round(MEMBERS / inSeconds),
        },
        responses: results?.campaign.responses,
        results_ms: { calls: RESULT_CALLS, median: round(quantile(timings, 0.5), 2), p99: round(quantile(timings, 0.99), 2) },
        peak_rss_mb: Math.round(peakRss / 1024 / 1024),
        claim_batch: BATCH,
        node: process.version,
        cpus: os.cpus().length,
        load_average_1m: round(os.loadavg()[0], 2),
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(sampler);
  await env.dispose();
}
