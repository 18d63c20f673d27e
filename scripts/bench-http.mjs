// `npm run bench:http`: latency and throughput of the home page and the polling endpoints, signed in as
// the demo owner, over loopback against the production server (fresh SQLite file, demo seed).
// For each endpoint: 50 warm-up requests (BENCH_WARMUP), then REQUESTS requests kept CONCURRENCY deep over keep-alive
// connections. Prints JSON: median and p99 latency (ms) and requests per second. Not a test: nothing is asserted
// except that every answer was a 200.
import { performance } from "node:perf_hooks";
import { machine, request, signIn, startServer } from "./bench-lib.mjs";

const REQUESTS = Number(process.env.BENCH_REQUESTS || 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 8);
// Warm-up requests per endpoint before the measured ones (BENCH_WARMUP; a long one shows the steady state
// once V8 has optimised the hot code, in every web process).
const WARMUP = Number(process.env.BENCH_WARMUP || 50);
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

const server = await startServer();
try {
  const cookie = await signIn(server.base);
  const headers = { Cookie: cookie, "Accept-Encoding": "gzip" };
  const results = [];
  for (const endpoint of ENDPOINTS) {
    const first = await request(server.base, endpoint, { headers });
    if (first.status !== 200) throw new Error(`${endpoint} answered ${first.status}: ${first.body.toString().slice(0, 200)}`);
    await load(server.base, endpoint, headers, WARMUP, CONCURRENCY);
    const run = await load(server.base, endpoint, headers, REQUESTS, CONCURRENCY);
    results.push({
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
