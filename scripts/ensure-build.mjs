// Builds the app when build/ is missing or older than the sources. Used by `npm start` and the tests.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

function newest(dir) {
  let t = 0;
  if (!fs.existsSync(dir)) return t;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : fs.statSync(p).mtimeMs);
  }
  return t;
}

/** Several test runs may start at once: one builds while the others wait on a lock directory. */
function withLock(fn) {
  const lock = "build.lock";
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 180_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() - started > 300_000) throw new Error("Timed out waiting for another build to finish");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

export function ensureBuild(options = {}) {
  return withLock(() => buildIfStale(options));
}

function buildIfStale({ quiet = false } = {}) {
  const built = "build/server/index.js";
  const sources = Math.max(...["app", "db", "migrations", "server", "public"].map(newest), ...["package.json", "vite.config.ts", "react-router.config.ts"].map((f) => fs.statSync(f).mtimeMs));
  if (fs.existsSync(built) && fs.statSync(built).mtimeMs >= sources) return false;
  if (!quiet) console.log("Building Textcircle…");
  // Warnings and errors only: the list of every emitted file (a hundred lines) is for `npm run build`.
  const result = spawnSync("npx", ["react-router", "build", "--logLevel", "warn"], {
    stdio: quiet ? "pipe" : "inherit",
    encoding: "utf8",
    // Always a production bundle, even when a test runner (NODE_ENV=test) asks for the build.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (!quiet && result.status === 0) console.log("Built.");
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}\n${result.stderr ?? ""}`.split("\n").filter((l) => !/nodedir|Future Flag|future\.v8|reactrouter\.com|^\s*$/.test(l));
    throw new Error(`react-router build failed:\n${output.slice(-30).join("\n")}`);
  }
  return true;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureBuild();
