// `node scripts/bench-install.mjs`: how long a newcomer waits. Clones this repository (committed HEAD) into
// a temp dir, times `npm install` (no node_modules; npm's download cache as it is on this machine), then
// times `npm start` (build + migrate + demo seed + serve) until GET /login first answers 200. Prints JSON.
import { execSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { freePort, machine, request } from "./bench-lib.mjs";

const repo = path.resolve(".");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tc-install-"));
const clone = path.join(dir, "textcircle");
const seconds = (ms) => Math.round(ms / 100) / 10;

try {
  execSync(`git clone --quiet ${JSON.stringify(repo)} ${JSON.stringify(clone)}`, { stdio: "inherit" });
  const commit = execSync("git rev-parse --short HEAD", { cwd: clone }).toString().trim();

  let t0 = performance.now();
  execSync("npm install --no-audit --no-fund", { cwd: clone, stdio: ["ignore", "ignore", "inherit"] });
  const installMs = performance.now() - t0;

  const port = await freePort();
  t0 = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: clone,
    env: { ...process.env, PORT: String(port), DATABASE_URL: path.join(dir, "app.db") },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  let firstOkMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    const res = await request(`http://127.0.0.1:${port}`, "/login").catch(() => null);
    if (res?.status === 200) {
      firstOkMs = performance.now() - t0;
      break;
    }
    if (performance.now() - t0 > 300_000) throw new Error("no 200 on /login within 5 minutes");
    await new Promise((r) => setTimeout(r, 100));
  }
  process.kill(-child.pid, "SIGTERM");
  await new Promise((r) => child.once("exit", r));

  console.log(
    JSON.stringify(
      {
        benchmark: "install",
        date: new Date().toISOString(),
        commit,
        machine: machine(),
        npm: execSync("npm --version").toString().trim(),
        npmInstallSeconds: seconds(installMs),
        firstStartToLogin200Seconds: seconds(firstOkMs),
        totalSeconds: seconds(installMs + firstOkMs),
        note: "npm's download cache (~/.npm) was left as it was; better-sqlite3 compiles from source",
      },
      null,
      2,
    ),
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
