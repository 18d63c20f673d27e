// `npm test`: every check and suite, then one plain closing line "N passed, N failed" (", N skipped" when any).
// (a) static checks, each counted as one test: the type check (`npm run typecheck`), the linter (`npm run lint`)
// and the dependency-direction check (`npm run depcheck`); (b) vitest: unit and integration suites on SQLite and
// PostgreSQL; (c) Playwright: the e2e specs with JavaScript on and off. Each tool's own output streams through;
// the suites' counts come from their JSON reports. Exits non-zero when anything failed, a runner crashed, or no
// test ran at all.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

process.env.TEST_DATABASE_URL ||= "postgres://postgres@127.0.0.1:5432/test";
const OUT = path.resolve("test-results");
const VITEST_JSON = path.join(OUT, "vitest.json");
const PLAYWRIGHT_JSON = path.join(OUT, "playwright.json");
const bin = (name) => path.resolve("node_modules/.bin", name);

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label} ===\n`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.error) console.error(`${label}: could not start: ${result.error.message}`);
  console.log(`\n${label} finished in ${seconds} s (exit ${result.status ?? result.signal})`);
  return result.status ?? 1;
}

/** The static checks: each is one passed test when its command exits 0, one failed test otherwise. */
const STATIC_CHECKS = [
  { label: "Type check (npm run typecheck)", script: "typecheck" },
  { label: "Lint (npm run lint)", script: "lint" },
  { label: "Dependency direction (npm run depcheck)", script: "depcheck" },
];

function staticChecks() {
  const counts = { passed: 0, failed: 0, skipped: 0, note: "" };
  const failedNames = [];
  for (const check of STATIC_CHECKS) {
    const status = run(check.label, "npm", ["run", "--silent", check.script]);
    if (status === 0) counts.passed++;
    else {
      counts.failed++;
      failedNames.push(check.script);
    }
  }
  if (failedNames.length) counts.note = `failed: ${failedNames.join(", ")} (their output is above)`;
  return counts;
}

function readJson(file) {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/**
 * vitest's JSON report. A test file that failed without a failing test (it did not load, or a beforeAll hook
 * threw) counts as one failure; tests skipped inside a failed file did not run because of that failure, so
 * they count as failed too (the project allows no .skip).
 */
function vitestCounts(status) {
  const report = readJson(VITEST_JSON);
  if (!report) return { passed: 0, failed: 1, skipped: 0, note: "vitest wrote no report (it crashed or could not start)" };
  let failed = 0;
  let skipped = 0;
  let notRun = 0;
  let brokenFiles = 0;
  for (const file of report.testResults ?? []) {
    const results = file.assertionResults ?? [];
    const fileFailed = results.filter((a) => a.status === "failed").length;
    const fileSkipped = results.filter((a) => ["skipped", "pending", "todo", "disabled"].includes(a.status)).length;
    failed += fileFailed;
    if (file.status === "failed") {
      notRun += fileSkipped;
      if (fileFailed + fileSkipped === 0) brokenFiles++;
    } else skipped += fileSkipped;
  }
  const counts = { passed: report.numPassedTests ?? 0, failed: failed + notRun + brokenFiles, skipped, note: "" };
  const notes = [];
  if (notRun) notes.push(`${notRun} test(s) did not run because their file or hook failed, counted as failed`);
  if (brokenFiles) notes.push(`${brokenFiles} test file(s) failed outside any test`);
  if (status !== 0 && counts.failed === 0) {
    counts.failed = 1;
    notes.push(`vitest exited with ${status} (set-up or teardown error)`);
  }
  counts.note = notes.join("; ");
  return counts;
}

/** Playwright's JSON report: expected = passed, unexpected = failed, flaky counts as passed; global errors fail. */
function playwrightCounts(status) {
  const report = readJson(PLAYWRIGHT_JSON);
  if (!report?.stats) return { passed: 0, failed: 1, skipped: 0, note: "Playwright wrote no report (it crashed or could not start)" };
  const s = report.stats;
  const counts = { passed: (s.expected ?? 0) + (s.flaky ?? 0), failed: s.unexpected ?? 0, skipped: s.skipped ?? 0, note: "" };
  const globalErrors = (report.errors ?? []).length;
  if (globalErrors || (status !== 0 && counts.failed === 0)) {
    counts.failed += Math.max(globalErrors, 1);
    counts.note = `Playwright exited with ${status}${globalErrors ? ` and ${globalErrors} error(s) outside tests (web server?)` : ""}`;
  }
  return counts;
}

async function postgresReachable(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query("select 1");
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function line({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}

async function main() {
  fs.mkdirSync(OUT, { recursive: true });
  for (const f of [VITEST_JSON, PLAYWRIGHT_JSON]) fs.rmSync(f, { force: true });

  const s = staticChecks();

  const pgError = await postgresReachable(process.env.TEST_DATABASE_URL);
  if (pgError) {
    console.error(`PostgreSQL is required (TEST_DATABASE_URL=${process.env.TEST_DATABASE_URL}) and is not reachable: ${pgError}`);
    console.log(line({ passed: s.passed, failed: s.failed + 1, skipped: 0 }));
    process.exit(1);
  }

  const vitestStatus = run("Unit and integration tests (vitest)", bin("vitest"), ["run", "--reporter=default", "--reporter=json", `--outputFile.json=${VITEST_JSON}`]);
  const v = vitestCounts(vitestStatus);
  const playwrightStatus = run("End-to-end tests (Playwright, JavaScript on and off)", bin("playwright"), ["test"], { TC_E2E_JSON: PLAYWRIGHT_JSON });
  const p = playwrightCounts(playwrightStatus);

  const total = { passed: s.passed + v.passed + p.passed, failed: s.failed + v.failed + p.failed, skipped: v.skipped + p.skipped };
  console.log("\n=== Summary ===");
  console.log(`checks:     ${line(s)}${s.note ? `  (${s.note})` : ""}`);
  console.log(`vitest:     ${line(v)}${v.note ? `  (${v.note})` : ""}`);
  console.log(`playwright: ${line(p)}${p.note ? `  (${p.note})` : ""}`);
  if (total.passed + total.failed === 0) console.log("No test ran: that counts as a failure.");
  console.log(line(total));
  process.exit(total.failed > 0 || total.passed === 0 ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  console.log(line({ passed: 0, failed: 1, skipped: 0 }));
  process.exit(1);
});
