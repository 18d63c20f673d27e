// `npm run bench:cpu`: the CPU time one web process spends per signed-in home page (`GET /`), a figure that
// depends little on what else the machine is doing, unlike requests per second on a shared machine. Starts the
// production server as one process without the background worker (WEB_PROCESSES=1, RUN_WORKER=false), fresh
// SQLite file and demo seed, signs in as the demo owner, warms up (BENCH_WARMUP requests, 500), then loads `/`
// with wrk (one thread, BENCH_CONCURRENCY connections, 4; BENCH_SECONDS, 8) and divides the process's user +
// system CPU time over the run by the requests it answered. Prints JSON. Needs wrk (`apt-get install wrk`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { agent, machine, request, signIn, startServer } from "./bench-lib.mjs";

const WARMUP = Number(process.env.BENCH_WARMUP || 500);
const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY || 4);
const WRK = "/usr/bin/wrk";
if (!fs.existsSync(WRK)) throw new Error("bench:cpu needs wrk (apt-get install wrk)");

/** User + system CPU time of a process so far, in ms (Linux /proc; clock ticks of 10 ms). */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

process.env.WEB_PROCESSES = "1";
process.env.RUN_WORKER = "false";
const server = await startServer();
try {
  const cookie = await signIn(server.base);
  const headers = { Cookie: cookie, "Accept-Encoding": "gzip" };
  for (let i = 0; i < WARMUP; i++) {
    const res = await request(server.base, "/", { headers });
    if (res.status !== 200) throw new Error(`GET / answered ${res.status}`);
  }
  agent.destroy();
  const before = cpuMs(server.pid);
  const run = spawnSync(WRK, ["-t1", `-c${CONCURRENCY}`, `-d${SECONDS}s`, "-H", `Cookie: ${cookie}`, "-H", "Accept-Encoding: gzip", `${server.base}/`], { encoding: "utf8" });
  const after = cpuMs(server.pid);
  if (run.status !== 0) throw new Error(`wrk failed: ${run.stderr}`);
  const requests = Number(/(\d+) requests in/.exec(run.stdout)?.[1] ?? 0);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(run.stdout)?.[1] ?? 0);
  console.log(
    JSON.stringify(
      {
        benchmark: "cpu",
        date: new Date().toISOString(),
        machine: machine(),
        endpoint: "/",
        concurrency: CONCURRENCY,
        seconds: SECONDS,
        requests,
        non2xx,
        rps: Math.round(requests / SECONDS),
        cpuMsPerRequest: requests ? Math.round(((after - before) / requests) * 100) / 100 : null,
      },
      null,
      2,
    ),
  );
  if (non2xx) process.exitCode = 1;
} finally {
  await server.stop();
}
