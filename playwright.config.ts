// End-to-end tests in Debian's chromium, every spec twice: with JavaScript on ("js") and off ("no-js").
// The web server is the production build (node server.js) on a fresh SQLite file with the demo business.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";

// Workers inherit the runner's environment, so every process agrees on one temp dir and port.
process.env.TC_E2E_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), "tc-e2e-"));
// A port per run (several runs may share a machine: a developer and CI, or parallel sessions).
process.env.TC_E2E_PORT ??= String(32100 + (process.pid % 1000));
const dir = process.env.TC_E2E_DIR;
const port = Number(process.env.TC_E2E_PORT);
export const E2E_DB = path.join(dir, "app.db");

const chromium = {
  executablePath: "/usr/bin/chromium",
  args: [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "*.spec.ts",
  globalTeardown: "./tests/e2e/teardown.ts",
  // Per run, so two runs on one machine never delete each other's traces.
  outputDir: `test-results/e2e-${port}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  reporter: process.env.TC_E2E_JSON
    ? [["list"], ["json", { outputFile: process.env.TC_E2E_JSON }]]
    : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    locale: "en-GB",
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: chromium,
  },
  projects: [
    { name: "js", use: { browserName: "chromium", javaScriptEnabled: true } },
    { name: "no-js", use: { browserName: "chromium", javaScriptEnabled: false } },
  ],
  webServer: {
    command: `node --input-type=module -e "(await import('./scripts/ensure-build.mjs')).ensureBuild({ quiet: true })" && node server.js`,
    url: `http://127.0.0.1:${port}/login`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      NODE_ENV: "production",
      // One web process (production runs one per CPU): the specs read and write the database beside it.
      WEB_PROCESSES: "1",
      PORT: String(port),
      DATABASE_URL: E2E_DB,
      SEED_DEMO: "true",
      SMS_PROVIDER: "simulator",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      // The "sending soon" pause (default 60 s), short so a message sent or edited to "send now"
      // goes within the spec's time (groupmessages.spec.ts waits it out; conversations.spec.ts skips it).
      MESSAGE_SEND_DELAY_SECONDS: "5",
    },
  },
});
