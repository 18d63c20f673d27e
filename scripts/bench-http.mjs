// `npm run bench:http`: latency and throughput of the home page and the polling endpoints, signed in as
// the demo owner, over loopback against the production server (fresh SQLite file, demo seed).
// For each endpoint: 2,000 warm-up requests (BENCH_WARMUP), then the load kept CONCURRENCY deep over keep-alive
// connections. The load comes from wrk (`apt-get install wrk`) for BENCH_SECONDS (10), which takes little of the
// machine's two CPUs from the server; without wrk, or with `-- --client node`, a Node.js loop in this process
// sends REQUESTS requests and takes about half a CPU itself. Prints JSON: median and p99 latency (ms) and requests
// per second. Not a test: nothing is asserted except that every answer was a 200.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { performance } from "node:perf_hooks";
import { agent, machine, request, signIn, startServer } from "./bench-lib.mjs";

const REQUESTS = Number(process.env.BENCH_REQUESTS || 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
// Warm-up requests per endpoint before the measured ones (BENCH_WARMUP; a long one shows the steady state
// once V8 has optimised the hot code, in every web process).
// 2,000 by default: a server runs for days, so its throughput is measured once V8 has optimised the hot code in
// every web process (after 50 requests the figure was a mix of cold and warm code).
const WARMUP = Number(process.env.BENCH_WARMUP || 2000);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const WRK = "/usr/bin/wrk";
const clientArg = process.argv.indexOf("--client");
const CLIENT = clientArg >= 0 ? process.argv[clientArg + 1] : fs.existsSync(WRK) ? "wrk" : "node";
const ENDPOINTS = [
  "/",
  "/api/feed",
  "/api/stats?type=UNREADMESSAGESTOTAL",
  "/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL",
  "/api/stats?type=SUBSCRIBERSTOTAL",
  "/api/account/messageallowance",
  "/api/directmessages?filter=UNREAD",
];

function quantile(sorted, q) {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}
const round = (n, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** A bounded concurrent loop: CONCURRENCY workers take the next request number until `total` are done. */
async function load(base, pathname, headers, total, concurrency) {
  const latencies = [];
  const statuses = {};
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        const t0 = performance.now();
        const res = await request(base, pathname, { headers });
        latencies.push(performance.now() - t0);
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { latencies, statuses, seconds };
}

/** wrk's latency in ms from its text ("1.23ms", "450.00us", "1.02s"). */
function wrkMs(text) {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text ?? "");
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
}

/** One endpoint under wrk: one thread, CONCURRENCY keep-alive connections, SECONDS long. */
function loadWithWrk(base, pathname, headers) {
  const args = ["-t1", `-c${CONCURRENCY}`, `-d${SECONDS}s`, "--latency", ...Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]), base + pathname];
  const r = spawnSync(WRK, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`wrk failed: ${r.stderr}`);
  const out = r.stdout;
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: ([^\n]+)/.exec(out)?.[1] ?? null;
  return {
    requests,
    medianMs: Math.round(wrkMs(/\s50%\s+(\S+)/.exec(out)?.[1]) * 100) / 100,
    p99Ms: Math.round(wrkMs(/\s99%\s+(\S+)/.exec(out)?.[1]) * 100) / 100,
    rps: Math.round(Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0)),
    statuses: non2xx || errors ? { "200": requests - non2xx, other: non2xx, ...(errors ? { socketErrors: errors } : {}) } : { "200": requests },
  };
}

const server = await startServer();
try {
  const cookie = await signIn(server.base);
  const headers = { Cookie: cookie, "Accept-Encoding": "gzip" };
  const results = [];
  for (const endpoint of ENDPOINTS) {
    const first = await request(server.base, endpoint, { headers });
    if (first.status !== 200) throw new Error(`${endpoint} answered ${first.status}: ${first.body.toString().slice(0, 200)}`);
    await load(server.base, endpoint, headers, WARMUP, CONCURRENCY);
    if (CLIENT === "wrk") {
      results.push({ endpoint, client: "wrk (1 thread)", concurrency: CONCURRENCY, seconds: SECONDS, ...loadWithWrk(server.base, endpoint, headers) });
      // The server closed this process's idle keep-alive connections meanwhile: start the next ones afresh.
      agent.destroy();
      continue;
    }
    const run = await load(server.base, endpoint, headers, REQUESTS, CONCURRENCY);
    results.push({
      client: "node loop",
      endpoint,
      requests: REQUESTS,
      concurrency: CONCURRENCY,
      medianMs: round(quantile(run.latencies, 0.5)),
      p99Ms: round(quantile(run.latencies, 0.99)),
      rps: Math.round(REQUESTS / run.seconds),
      statuses: run.statuses,
    });
  }
  const bad = results.filter((r) => Object.keys(r.statuses).some((s) => s !== "200"));
  console.log(JSON.stringify({ benchmark: "http", date: new Date().toISOString(), machine: machine(), results }, null, 2));
  if (bad.length) {
    console.error(`Non-200 answers for: ${bad.map((r) => r.endpoint).join(", ")}`);
    process.exitCode = 1;
  }
  if (server.stderr.trim()) console.error(`server stderr:\n${server.stderr.slice(-2000)}`);
} finally {
  await server.stop();
}
