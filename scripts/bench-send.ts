// `npm run bench:send -- --members 100000`: one group message to N subscribed members through the
// whole outbound pipeline — recipients resolved, merge tags rendered per member, segments counted,
// credits charged, rows inserted, claimed in batches, sent to the simulator provider (no rate limit),
// states updated, message completed — on a fresh SQLite file (or PostgreSQL when DATABASE_URL says
// postgres://, in a throwaway schema). Also measures better-sqlite3 inserting the same number of rows
// of the same width in one transaction (the raw ceiling), in the same run. Prints JSON.
// Run with tsx (imports the app's TypeScript directly).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import pg from "pg";
import type { Insertable } from "kysely";
import { dialectOf, type Database } from "../db/index";
import type { MembersTable } from "../db/types";
import { createMessage, messageProgress } from "../app/domain/messaging/outbound.server";
import { createScratchDb } from "../db/scratch";
import { OutboundWorker } from "../app/domain/messaging/worker.server";
import { SimulatorSmsProvider } from "../app/providers/sms/simulator.server";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const MEMBERS = arg("members", 100_000);
const BATCH = arg("batch", 1000);
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;

let peakRss = process.memoryUsage().rss;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

function setUp() {
  return createScratchDb({ pgUrl: url, prefix: "tc-bench-send-" });
}

async function seed(db: Database, members: number) {
  const at = new Date().toISOString();
  const b = await db
    .insertInto("businesses")
    .values({
      name: "Bench Bakery",
      name_key: `bench-${crypto.randomBytes(4).toString("hex")}`,
      phone_number: "+447700900999",
      onboarding: "COMPLETE",
      status: "SUBSCRIBED",
      message_allowance: members * 10,
      referral_code: `B${crypto.randomBytes(5).toString("hex")}`,
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
        phone: `+447${String(100_000_000 + k).slice(-9)}`,
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

/** Raw ceiling: the same number of outbound-width rows inserted with one prepared statement, one transaction. */
async function rawInsertRate(n: number, pgUrl: string | null): Promise<number> {
  const row = (k: number) => [1, 1, k, `+447${String(100_000_000 + k).slice(-9)}`, "+447700900999", `Hi Ann, fresh bread at Bench Bakery from 8am today! Reply STOP to opt out.`, 1, 1, "QUEUED", 0, "2026-11-22T12:00:00.000Z", 1, 1, "2026-11-22T12:00:00.000Z"];
  const columns = "message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, status, attempts, next_attempt_at, quiet_hours, charged, created_at";
  if (!pgUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-bench-raw-"));
    const raw = new SQLite(path.join(dir, "raw.db"));
    raw.pragma("journal_mode = WAL");
    raw.pragma("synchronous = NORMAL");
    raw.exec(`CREATE TABLE raw_outbound (id INTEGER PRIMARY KEY AUTOINCREMENT, message_id INTEGER, business_id INTEGER, member_id INTEGER, to_phone TEXT, from_phone TEXT, body TEXT, segments INTEGER, priority INTEGER, status TEXT, attempts INTEGER, next_attempt_at TEXT, quiet_hours INTEGER, charged INTEGER, created_at TEXT)`);
    const stmt = raw.prepare(`INSERT INTO raw_outbound (${columns}) VALUES (${Array(14).fill("?").join(", ")})`);
    const t0 = performance.now();
    raw.transaction(() => {
      for (let k = 0; k < n; k++) stmt.run(row(k));
    })();
    const seconds = (performance.now() - t0) / 1000;
    raw.close();
    fs.rmSync(dir, { recursive: true, force: true });
    return n / seconds;
  }
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query("CREATE TEMP TABLE raw_outbound (id bigserial primary key, message_id bigint, business_id bigint, member_id bigint, to_phone text, from_phone text, body text, segments int, priority int, status text, attempts int, next_attempt_at text, quiet_hours int, charged int, created_at text)");
  const t0 = performance.now();
  await client.query("BEGIN");
  for (let i = 0; i < n; i += 1000) {
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (let k = i; k < Math.min(n, i + 1000); k++) {
      const r = row(k);
      tuples.push(`(${r.map((_, c) => `$${values.length + c + 1}`).join(", ")})`);
      values.push(...r);
    }
    await client.query(`INSERT INTO raw_outbound (${columns}) VALUES ${tuples.join(", ")}`, values);
  }
  await client.query("COMMIT");
  const seconds = (performance.now() - t0) / 1000;
  await client.end();
  return n / seconds;
}

const env = await setUp();
try {
  const businessId = await seed(env.db, MEMBERS);
  const now = () => new Date();
  const sms = new SimulatorSmsProvider(env.db, now);
  const worker = new OutboundWorker({
    db: env.db,
    sms,
    now,
    config: { messaging: { ratePerSecond: 0, batchSize: BATCH, pollMs: 10, leaseSeconds: 120, maxAttempts: 8, backoffMs: 1000 } },
  });
  const rssBefore = process.memoryUsage().rss;
  const t0 = performance.now();
  const created = await createMessage(
    { db: env.db, now, config: { messaging: { sendDelaySeconds: 0 } } },
    { businessId, kind: "GROUP", groupId: -1, body: "Hi {{firstName|there}}, fresh bread at {{businessName}} from 8am today! Reply STOP to opt out." },
  );
  const tCreated = performance.now();
  await worker.drain();
  const t1 = performance.now();
  const progress = await messageProgress(env.db, businessId, created.messageId);
  const seconds = (t1 - t0) / 1000;
  const delivered = progress?.counts.DELIVERED ?? 0;
  if (delivered !== MEMBERS || progress?.message.status !== "COMPLETE") throw new Error(`pipeline incomplete: ${JSON.stringify(progress?.counts)} ${progress?.message.status}`);
  const simCount = await env.db.selectFrom("sim_messages").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  if (Number(simCount.n) !== MEMBERS) throw new Error(`the simulator holds ${simCount.n} texts, expected ${MEMBERS}`);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const raw = await rawInsertRate(MEMBERS, url);
  const msgsPerS = MEMBERS / seconds;
  console.log(
    JSON.stringify(
      {
        benchmark: "bench:send",
        dialect: env.dialect,
        members: MEMBERS,
        seconds: Math.round(seconds * 1000) / 1000,
        create_seconds: Math.round(((tCreated - t0) / 1000) * 1000) / 1000,
        send_seconds: Math.round(((t1 - tCreated) / 1000) * 1000) / 1000,
        msgs_per_s: Math.round(msgsPerS),
        peak_rss_mb: Math.round(peakRss / 1024 / 1024),
        rss_before_send_mb: Math.round(rssBefore / 1024 / 1024),
        raw_insert_rows_per_s: Math.round(raw),
        ratio_to_raw_insert: Math.round((msgsPerS / raw) * 1000) / 1000,
        credits_charged: created.credits,
        claim_batch: BATCH,
        node: process.version,
        cpus: os.cpus().length,
      },
      null,
      2,
    ),
  );
} finally {
  clearInterval(sampler);
  await env.dispose();
}
