// `npm run bench:inbound`: signed Twilio-format inbound webhooks (POST /webhooks/twilio/sms) against
// the built production server over loopback, from a load tool (keep-alive, CONCURRENCY connections)
// for SECONDS seconds. The load tool is wrk (Debian package `wrk`) replaying requests signed here
// beforehand, each with its own MessageSid; without wrk (or with --client node) a Node.js loop in this
// process does the same, which costs the shared 2 CPUs more and so measures lower. The server runs with
// SMS_PROVIDER=twilio (signatures checked over PUBLIC_URL) and its worker on (the inbound pipeline
// processes the texts while they arrive). Fresh SQLite file, or PostgreSQL in a throwaway schema when
// DATABASE_URL says postgres://. Prints JSON: rps, p50_ms, p99_ms, and how many texts the pipeline
// had processed by the end.
//   npm run bench:inbound -- --seconds 10 --concurrency 16 [--requests N]
import { spawn, spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import SQLite from "better-sqlite3";
import pg from "pg";
import twilio from "twilio";
import { freePort, machine, request } from "./bench-lib.mjs";
import { ensureBuild } from "./ensure-build.mjs";

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const SECONDS = arg("seconds", 10);
const REQUESTS = arg("requests", Infinity);
const CONCURRENCY = arg("concurrency", 16);
const clientArg = process.argv.indexOf("--client");
const WRK = "/usr/bin/wrk";
const CLIENT = clientArg >= 0 ? process.argv[clientArg + 1] : fs.existsSync(WRK) ? "wrk" : "node";
if (CLIENT !== "wrk" && CLIENT !== "node") throw new Error("--client is wrk or node");
if (CLIENT === "wrk" && !fs.existsSync(WRK)) throw new Error("wrk is not installed: apt-get install wrk, or pass --client node");
const PUBLIC_URL = "https://bench.textcircle.test";
const ACCOUNT_SID = `AC${crypto.randomBytes(16).toString("hex")}`;
const AUTH_TOKEN = crypto.randomBytes(16).toString("hex");
const BUSINESS_NUMBER = "+447700900777";
const PATH = "/webhooks/twilio/sms";
const pgUrl = /^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "") ? process.env.DATABASE_URL : null;

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

ensureBuild({ quiet: true });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-bench-inbound-"));
let dbUrl = path.join(dir, "app.db");
let schema = null;
if (pgUrl) {
  schema = `bench_${crypto.randomBytes(4).toString("hex")}`;
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  await c.query(`CREATE SCHEMA ${schema}`);
  await c.end();
  dbUrl = `${pgUrl}${pgUrl.includes("?") ? "&" : "?"}options=-c%20search_path%3D${schema}`;
}

const port = await freePort();
// --separate-worker: the web process does not work the queue; a `npm run worker` process beside it
// does (the at-scale layout: web processes and worker processes sharing one database).
const SEPARATE_WORKER = process.argv.includes("--separate-worker");
const serverEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATABASE_URL: dbUrl,
    SEED_DEMO: "false",
    SMS_PROVIDER: "twilio",
    TWILIO_ACCOUNT_SID: ACCOUNT_SID,
    TWILIO_AUTH_TOKEN: AUTH_TOKEN,
    // Nothing is sent in this benchmark (texts from unknown numbers get no reply); never reach Twilio.
    TWILIO_API_BASE: "http://127.0.0.1:9",
    SMS_SYSTEM_SENDER: "+447700900000",
    PUBLIC_URL,
    SESSION_SECRET: crypto.randomBytes(24).toString("hex"),
    RUN_WORKER: SEPARATE_WORKER ? "false" : process.env.BENCH_RUN_WORKER ?? "true",
};
const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(" ") : []), "server.js"], {
  env: serverEnv,
  stdio: ["ignore", "ignore", "pipe"],
});
let worker = null;
let stderr = "";
child.stderr.on("data", (d) => (stderr += d));
const base = `http://127.0.0.1:${port}`;

async function sqlQuery(text, params = []) {
  if (pgUrl) {
    const c = new pg.Client({ connectionString: dbUrl.replace(/[?&]options=.*$/, ""), options: `-c search_path=${schema}` });
    await c.connect();
    try {
      return (await c.query(text, params)).rows;
    } finally {
      await c.end();
    }
  }
  const db = new SQLite(dbUrl);
  try {
    const stmt = db.prepare(text.replace(/\$\d+/g, "?"));
    return stmt.reader ? stmt.all(...params) : (stmt.run(...params), []);
  } finally {
    db.close();
  }
}

try {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    const res = await request(base, "/login").catch(() => null);
    if (res?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  // The server migrated the database; add the business that owns the number.
  await sqlQuery(
    "INSERT INTO businesses (name, name_key, phone_number, onboarding, referral_code, created_at) VALUES ($1, $2, $3, $4, $5, $6)",
    ["Bench Inbound", `bench-inbound-${crypto.randomBytes(3).toString("hex")}`, BUSINESS_NUMBER, "COMPLETE", `BI${crypto.randomBytes(4).toString("hex")}`, new Date().toISOString()],
  );

  if (SEPARATE_WORKER) {
    worker = spawn(process.execPath, ["scripts/worker.mjs"], { env: { ...serverEnv, WORKER_SKIP_BUILD: "1" }, stdio: ["ignore", "pipe", "pipe"] });
    await new Promise((resolve, reject) => {
      let out = "";
      worker.stdout.on("data", (d) => {
        out += d;
        if (/started/.test(out)) resolve();
      });
      worker.once("exit", (code) => reject(new Error(`worker exited with ${code}`)));
    });
  }

  let n = 0;
  const makeRequest = () => {
    n++;
    const params = {
      AccountSid: ACCOUNT_SID,
      MessageSid: `SM${crypto.randomBytes(16).toString("hex")}`,
      From: `+447${String(700000000 + (n % 200000)).padStart(9, "0")}`,
      To: BUSINESS_NUMBER,
      Body: n % 10 === 0 ? "HELP" : "Hello, are you open on Sunday?",
      NumMedia: "0",
    };
    const body = new URLSearchParams(params).toString();
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_URL}${PATH}`, params);
    return {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(body), "X-Twilio-Signature": signature },
      body,
    };
  };

  // Warm-up.
  for (let i = 0; i < 100; i++) await request(base, PATH, makeRequest());

  // Like a load tool replaying recorded requests: every signed request is built before the clock
  // starts, so the load spends its CPU on HTTP only (client and server share this machine).
  const prepared = Array.from({ length: Math.min(REQUESTS, SECONDS * (CLIENT === "wrk" ? 8000 : 4000)) }, makeRequest);
  let latencies = [];
  let statuses = {};
  let seconds;
  let p50;
  let p99;
  let max;
  let requests;
  if (CLIENT === "wrk") {
    const host = new URL(base).host;
    const file = path.join(dir, "requests.bin");
    const out = fs.openSync(file, "w");
    for (const r of prepared) {
      const raw = Buffer.from(
        `POST ${PATH} HTTP/1.1\r\nHost: ${host}\r\nContent-Type: ${r.headers["Content-Type"]}\r\nContent-Length: ${r.headers["Content-Length"]}\r\n` +
          `X-Twilio-Signature: ${r.headers["X-Twilio-Signature"]}\r\n\r\n${r.body}`,
      );
      fs.writeSync(out, `${raw.length}\n`);
      fs.writeSync(out, raw);
    }
    fs.closeSync(out);
    const run = spawnSync(WRK, ["-t1", `-c${CONCURRENCY}`, `-d${SECONDS}s`, "--timeout", "10s", "-s", path.resolve("scripts/wrk-replay.lua"), base], {
      env: { ...process.env, REPLAY_FILE: file },
      encoding: "utf8",
    });
    const line = run.stdout.split("\n").find((l) => l.startsWith("{"));
    if (run.status !== 0 || !line) throw new Error(`wrk failed: ${run.stderr || run.stdout}`);
    const w = JSON.parse(line);
    if (w.requests > w.prepared) throw new Error(`wrk sent ${w.requests} requests but only ${w.prepared} were prepared (MessageSids repeated): raise the multiplier`);
    requests = w.requests;
    seconds = w.duration_us / 1e6;
    p50 = w.p50_us / 1000;
    p99 = w.p99_us / 1000;
    max = w.max_us / 1000;
    const bad = w.errors_status + w.errors_connect + w.errors_read + w.errors_timeout;
    statuses = bad ? { "200": requests - w.errors_status, other: bad } : { "200": requests };
  } else {
    let sent = 0;
    const started = performance.now();
    const stopAt = started + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < stopAt && sent < prepared.length) {
          const init = prepared[sent++];
          const t0 = performance.now();
          const res = await request(base, PATH, init);
          latencies.push(performance.now() - t0);
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        }
      }),
    );
    seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    requests = latencies.length;
    p50 = quantile(latencies, 0.5);
    p99 = quantile(latencies, 0.99);
    max = latencies[latencies.length - 1];
  }
  const countQuery = "SELECT COUNT(*) AS n, SUM(CASE WHEN processed_at IS NULL THEN 0 ELSE 1 END) AS processed FROM inbound_messages";
  await new Promise((r) => setTimeout(r, 1000));
  const [stored] = await sqlQuery(countQuery);
  // Then how long until the pipeline has handled every text (up to a minute).
  const working = SEPARATE_WORKER || serverEnv.RUN_WORKER === "true";
  let drainedAfter = 1;
  for (let s = Number(stored.processed); working && s < Number(stored.n) && drainedAfter < 60; drainedAfter += 0.25) {
    await new Promise((r) => setTimeout(r, 250));
    s = Number((await sqlQuery(countQuery))[0].processed);
  }
  console.log(
    JSON.stringify(
      {
        benchmark: "bench:inbound",
        dialect: pgUrl ? "postgres" : "sqlite",
        worker: SEPARATE_WORKER ? "separate process" : serverEnv.RUN_WORKER === "true" ? "in the web process" : "none",
        client: CLIENT === "wrk" ? "wrk (1 thread)" : "node http loop",
        requests,
        concurrency: CONCURRENCY,
        seconds: round(seconds),
        rps: Math.round(requests / seconds),
        p50_ms: round(p50),
        p99_ms: round(p99),
        max_ms: round(max),
        statuses,
        stored: Number(stored.n),
        processed_1s_after: Number(stored.processed),
        all_processed_after_s: working && drainedAfter < 60 ? drainedAfter : null,
        // Texts the pipeline handled per second, from the start of the load until the last was handled.
        processed_per_s: working && drainedAfter < 60 ? Math.round(Number(stored.n) / (seconds + drainedAfter)) : null,
        machine: machine(),
      },
      null,
      2,
    ),
  );
  if (Object.keys(statuses).some((s) => s !== "200")) process.exitCode = 1;
} finally {
  if (worker && worker.exitCode === null) {
    const workerExited = new Promise((r) => worker.once("exit", r));
    worker.kill("SIGTERM");
    await workerExited;
  }
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
  fs.rmSync(dir, { recursive: true, force: true });
  if (schema) {
    const c = new pg.Client({ connectionString: pgUrl });
    await c.connect();
    await c.query(`DROP SCHEMA ${schema} CASCADE`);
    await c.end();
  }
}
