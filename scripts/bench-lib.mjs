// Shared by the benchmarks: start the production server on a fresh SQLite file with the demo business,
// sign in as the demo owner, and make keep-alive HTTP requests over loopback.
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ensureBuild } from "./ensure-build.mjs";

export const DEMO = { email: "owner@demo.textcircle.test", password: "Textcircle-demo-1" };

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Builds when stale, then runs `node server.js` (NODE_ENV=production) until /login answers 200. */
export async function startServer({ quiet = true } = {}) {
  ensureBuild({ quiet });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-bench-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["server.js"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATABASE_URL: path.join(dir, "app.db"), SEED_DEMO: "true", SMS_PROVIDER: "simulator" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${stderr}`);
    const res = await request(base, "/login").catch(() => null);
    if (res?.status === 200) break;
    if (Date.now() > deadline) throw new Error(`server did not answer /login within 60 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    base,
    pid: child.pid,
    get stderr() {
      return stderr;
    },
    async stop() {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** One request; resolves with status, headers and the raw (still encoded) body bytes. */
export function request(base, pathname, { method = "GET", headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(pathname, base), { method, headers, agent }, (res) => {
      const chunks = [];
      res.on("data", (c) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body) req.write(body);
    req.end();
  });
}

/** Signs in through the login form (CSRF cookie + field) and returns the Cookie header to send. */
export async function signIn(base, email = DEMO.email, password = DEMO.password) {
  const jar = new Map();
  const keep = (res) => {
    for (const c of [res.headers["set-cookie"] ?? []].flat()) {
      const [pair] = c.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  keep(await request(base, "/login"));
  const form = new URLSearchParams({ email, password, _csrf: jar.get("tc_csrf") ?? "" }).toString();
  const res = await request(base, "/login", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", "Content-Length": Buffer.byteLength(form), Cookie: cookie(), Origin: base },
    body: form,
  });
  keep(res);
  if (res.status !== 302 || !jar.has("tc_session")) throw new Error(`sign-in failed with ${res.status}: ${res.body.toString().slice(0, 300)}`);
  return cookie();
}

export function machine() {
  return {
    nproc: os.availableParallelism?.() ?? os.cpus().length,
    cpu: os.cpus()[0]?.model ?? "unknown",
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage1m: Math.round(os.loadavg()[0] * 100) / 100,
  };
}
