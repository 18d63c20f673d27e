// Fault tests with real worker processes (`node scripts/worker.mjs` on the built bundle):
//   - a worker killed with SIGKILL at random points during a 5,000-member send, several times, then
//     restarted: every member ends with exactly one text at the provider (with transient provider
//     failures and time-outs-after-acceptance injected on top);
//   - two worker processes on PostgreSQL share one send: nobody gets a text twice.
// The in-process fault cases (retry then recovery, permanent errors with refunds, a dead worker's
// rows reconciled) are in pipeline.test.ts; replayed inbound texts and STOP/START/STOP in
// inbound-processing.test.ts.
import { spawn, type ChildProcess } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, pipelineDeps, seedMembers, setSimSetting, simCounts } from "../support/pipeline";
import { createMessage, messageProgress } from "~/domain/messaging/outbound.server";
import { SIM_FAULT_TIMEOUT_NEXT, SIM_FAULT_TRANSIENT_RATE } from "~/providers/sms/simulator.server";
import type { Database } from "#db/index";

function dbUrl(testDb: TestDb): string {
  return testDb.schema ? `${testDb.url}${testDb.url.includes("?") ? "&" : "?"}options=-c%20search_path%3D${testDb.schema}` : testDb.url;
}

interface Child {
  proc: ChildProcess;
  started: Promise<void>;
  exited: Promise<number | null>;
  output(): string;
}

function startWorker(testDb: TestDb, env: Record<string, string> = {}): Child {
  const proc = spawn(process.execPath, ["scripts/worker.mjs"], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      DATABASE_URL: dbUrl(testDb),
      SESSION_SECRET: "test-secret-test-secret-test-secret-123",
      WORKER_SKIP_BUILD: "1",
      SEED_DEMO: "false",
      SMS_RATE_PER_SECOND: "0",
      WORKER_BATCH_SIZE: "100",
      WORKER_POLL_MS: "20",
      WORKER_LEASE_SECONDS: "1",
      WORKER_BACKOFF_MS: "20",
      WORKER_MAX_ATTEMPTS: "50",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  proc.stdout.on("data", (d) => (out += d));
  proc.stderr.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.once("exit", (code, signal) => { if (signal) out += `\n[killed by ${signal}]`; resolve(code ?? (signal ? -1 : null)); }));
  const started = new Promise<void>((resolve, reject) => {
    const check = () => {
      if (/Worker \S+ started/.test(out)) resolve();
    };
    proc.stdout.on("data", check);
    void exited.then(() => reject(new Error(`worker exited before starting: ${out}`)));
  });
  return { proc, started, exited, output: () => out };
}

async function outstanding(db: Database, messageId: number): Promise<number> {
  const r = await db
    .selectFrom("outbound")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("message_id", "=", messageId)
    .where("status", "in", ["QUEUED", "SENDING"])
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitUntilDone(db: Database, messageId: number, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if ((await outstanding(db, messageId)) === 0) return;
    await sleep(100);
  }
  throw new Error(`send not finished in ${timeoutMs} ms (${await outstanding(db, messageId)} rows left)`);
}

async function prepareSend(db: Database, members: number) {
  const businessId = await createBusiness(db, { messageAllowance: members * 2 });
  const seeded = await seedMembers(db, businessId, members);
  const clock = new Clock(new Date());
  // Quiet hours off: the test must not depend on the time of day it runs.
  await db.updateTable("businesses").set({ quiet_start: "00:00", quiet_end: "00:00" }).where("id", "=", businessId).execute();
  return { businessId, seeded, clock };
}

describe("a worker process killed with SIGKILL during a 5,000-member send (sqlite)", () => {
  let testDb: TestDb;
  const children: Child[] = [];
  afterAll(async () => {
    for (const c of children) c.proc.kill("SIGKILL");
    await testDb?.dispose();
  });

  it("ends with exactly one text per member at the provider", async () => {
    testDb = await createTestDb("sqlite");
    const db = testDb.db;
    const { businessId, seeded, clock } = await prepareSend(db, 5000);
    await setSimSetting(db, SIM_FAULT_TRANSIENT_RATE, "0.02");
    await setSimSetting(db, SIM_FAULT_TIMEOUT_NEXT, "25");
    const m = await createMessage(pipelineDeps(db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Hi {{firstName}}, sale starts now" });
    expect(m.recipients).toBe(5000);

    const progress: number[] = [];
    let kills = 0;
    for (let round = 0; round < 6; round++) {
      // Small batches: many claim/send/commit cycles to land a kill in.
      const child = startWorker(testDb, { WORKER_BATCH_SIZE: "25" });
      children.push(child);
      await child.started;
      await sleep(40 + Math.floor(Math.random() * 260));
      child.proc.kill("SIGKILL");
      await child.exited;
      kills++;
      progress.push(5000 - (await outstanding(db, m.messageId)));
    }
    // The kills landed while work remained (the send is not finished by the first few workers).
    expect(kills).toBe(6);
    expect(progress[0]).toBeLessThan(5000);

    const last = startWorker(testDb);
    children.push(last);
    await last.started;
    await waitUntilDone(db, m.messageId, 45_000);
    last.proc.kill("SIGTERM");
    const code = await last.exited;
    expect(code, last.output().replace(/\n/g, " | ")).toBe(0);

    const counts = await simCounts(db);
    const wrong = seeded.filter((s) => counts.get(s.phone) !== 1);
    expect(wrong).toEqual([]);
    expect(counts.size).toBe(5000);
    const p = await messageProgress(db, businessId, m.messageId);
    expect(p!.counts).toEqual({ DELIVERED: 5000 });
    expect(p!.message.status).toBe("COMPLETE");
    // The provider ids recorded are the ones the provider issued, one per row.
    const sids = new Map((await db.selectFrom("sim_messages").select(["reference", "sid"]).where("direction", "=", "TO_PHONE").execute()).map((r) => [r.reference, r.sid]));
    const recorded = await db.selectFrom("outbound").select(["id", "provider_id"]).where("message_id", "=", m.messageId).execute();
    const mismatched = recorded.filter((r) => sids.get(String(r.id)) !== r.provider_id);
    expect(mismatched).toEqual([]);
  }, 90_000);
});

describe("two worker processes share one send (postgres)", () => {
  let testDb: TestDb;
  const children: Child[] = [];
  afterAll(async () => {
    for (const c of children) c.proc.kill("SIGKILL");
    await testDb?.dispose();
  });

  it("sends every text once, with both workers taking part", async () => {
    testDb = await createTestDb("postgres");
    const db = testDb.db;
    const { businessId, seeded, clock } = await prepareSend(db, 4000);
    const a = startWorker(testDb, { WORKER_BATCH_SIZE: "50", WORKER_LEASE_SECONDS: "30" });
    const b = startWorker(testDb, { WORKER_BATCH_SIZE: "50", WORKER_LEASE_SECONDS: "30" });
    children.push(a, b);
    await Promise.all([a.started, b.started]);
    const m = await createMessage(pipelineDeps(db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Both of us" });
    await waitUntilDone(db, m.messageId, 45_000);
    a.proc.kill("SIGTERM");
    b.proc.kill("SIGTERM");
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);

    const counts = await simCounts(db);
    expect(seeded.filter((s) => counts.get(s.phone) !== 1)).toEqual([]);
    const workers = await db.selectFrom("outbound").select("worker_id").distinct().where("message_id", "=", m.messageId).execute();
    expect(workers.length).toBe(2);
    expect((await messageProgress(db, businessId, m.messageId))!.counts).toEqual({ DELIVERED: 4000 });
  }, 90_000);
});
