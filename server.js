// Starts Textcircle. Production (`npm start`): serves the built app from build/. Development
// (`npm run dev`): Vite middleware with hot reload. Plain JavaScript so Node runs it without a build.
//
// In production the server runs as WEB_PROCESSES processes (the number of CPUs by default) sharing one
// port through Node's cluster module, so a page render on one CPU does not hold up requests on another.
// The first process starts alone (it migrates the database and seeds the demo), and only it runs the
// in-process background worker; the others start once it is listening. Development and tests use one.
import cluster from "node:cluster";
import http from "node:http";
import os from "node:os";
import { fileURLToPath } from "node:url";
import compression from "compression";
import express from "express";
import { accessLog } from "./server/access-log.js";

const production = process.env.NODE_ENV === "production";

async function main() {
  const server = express();
  server.disable("x-powered-by");
  // HTML, CSS and JS are compressed. The JSON API and webhooks answer small bodies where zlib's per-response
  // set-up cost more than it saved (it was the largest CPU cost of a polling request).
  const filter = (req, res) => !/^\/(api|webhooks|simulator\/api)\//.test(req.path) && compression.filter(req, res);
  // Pages are made afresh for every request, so they get a cheaper setting: level 3 with a smaller zlib
  // state takes about a third of the default's CPU and sends about 5 % more bytes. Files (content-hashed
  // and cached for a year) keep the default level.
  const files = compression({ filter });
  const pages = compression({ filter, level: 3, memLevel: 6 });
  server.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? files : pages)(req, res, next));
  let started;
  if (production) {
    server.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
    // Other public files (favicon…): only paths that look like files reach the disk, so pages and the API
    // do not pay a stat() per request.
    const publicFiles = express.static("build/client", { maxAge: "1h", index: false });
    server.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()));
    const mod = await import("./build/server/index.js");
    started = await mod.createApp();
    server.use(started.app);
  } else {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    server.use(vite.middlewares);
    const mod = await vite.ssrLoadModule("./server/app.ts");
    started = await mod.createApp();
    server.use(started.app);
  }
  // Provider webhooks are answered before Express (no middleware they need, and thousands a second at peak).
  // HOST (validated by the app's configuration) defaults to loopback: other machines reach the app only
  // when the operator says so, e.g. HOST=0.0.0.0 behind a proxy.
  const { host, port } = started.config;
  const logRequest = accessLog({ slowMs: started.config.accessLogSlowMs });
  // In a cluster every process opens the port together, once all of them are ready: a client that
  // connected while only the first was up would stay tied to it for the life of its connection.
  if (cluster.isWorker) {
    await new Promise((resolve) => {
      process.on("message", (m) => m?.listen && resolve());
      process.send({ ready: true });
    });
  }
  const listener = http
    .createServer((req, res) => {
      logRequest(req, res);
      if (!started.handleWebhook(req, res)) server(req, res);
    })
    .listen(port, host, () => {
      const shown = host.includes(":") ? `[${host}]` : host;
      if (cluster.isWorker) process.send({ listening: true });
      // Said once, by the first (or only) process.
      if (!cluster.isWorker || process.env.TC_WEB_PROCESS === "0") console.log(`Textcircle is running at http://${host === "127.0.0.1" ? "localhost" : shown}:${listener.address().port} (listening on ${shown})`);
    });
  const stop = () => {
    listener.close(() => started.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/**
 * How many web processes to run: WEB_PROCESSES, else one per CPU in production and one otherwise.
 * A value that is not a whole number from 1 to 64 gives 1 here, and the app's configuration check then
 * stops the process with a message naming the variable.
 */
function webProcesses() {
  if (!production) return 1;
  const raw = process.env.WEB_PROCESSES;
  if (raw === undefined || raw === "") return os.availableParallelism?.() ?? os.cpus().length;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return n >= 1 && n <= 64 ? n : 1;
}

/** The cluster's primary: serves nothing itself; starts, watches and stops the web processes. */
function runPrimary(count) {
  // A larger young generation (16 MB semi-spaces instead of V8's default) means fewer scavenges for a page's
  // short-lived objects: about a tenth more pages a second in the home-page benchmark. A flag given to node
  // (NODE_OPTIONS or the command line) wins.
  const given = `${process.execArgv.join(" ")} ${process.env.NODE_OPTIONS ?? ""}`;
  const execArgv = /--max-semi-space-size/.test(given) ? process.execArgv : [...process.execArgv, "--max-semi-space-size=16"];
  cluster.setupPrimary({ exec: fileURLToPath(import.meta.url), execArgv });
  const live = new Set();
  const ready = new Set();
  let stopping = false;
  let opened = false;
  const stopAll = () => {
    stopping = true;
    if (live.size === 0) process.exit();
    for (const w of live) w.process.kill("SIGTERM");
    // Each process gives its open connections at most 5 s; do not wait much longer than that.
    setTimeout(() => process.exit(), 7000).unref();
  };
  const fork = (index) => {
    // The background worker runs in process 0 only (when it runs at all).
    const worker = cluster.fork({ TC_WEB_PROCESS: String(index), ...(index > 0 ? { RUN_WORKER: "false" } : {}) });
    live.add(worker);
    let listening = false;
    worker.on("message", (m) => {
      if (m?.ready && !ready.has(worker)) {
        ready.add(worker);
        if (opened) {
          // A replacement for a process that died: the others are serving already.
          worker.send({ listen: true });
          return;
        }
        // The others start once the first has migrated the database, seeded the demo and made the
        // session secret, so that each of these happens exactly once.
        if (index === 0) for (let i = 1; i < count; i++) fork(i);
        if (ready.size === count) {
          opened = true;
          for (const w of ready) w.send({ listen: true });
        }
      } else if (m?.listening) {
        listening = true;
      }
    });
    worker.on("exit", (code, signal) => {
      live.delete(worker);
      ready.delete(worker);
      if (stopping) {
        if (live.size === 0) process.exit();
      } else if (!listening) {
        // A process that fails to start (a bad configuration, the port taken) stops the whole server.
        process.exitCode = code || 1;
        stopAll();
      } else {
        console.error(`web process ${index} exited (${signal ?? code}); starting another`);
        fork(index);
      }
    });
  };
  fork(0);
  const stop = () => {
    if (!stopping) stopAll();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

const count = cluster.isPrimary ? webProcesses() : 1;
if (cluster.isPrimary && count > 1) {
  runPrimary(count);
} else {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
