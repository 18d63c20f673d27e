// Helpers for the end-to-end specs: the demo account, unique UK mobiles, PINs read from the simulator,
// direct fixtures in the server's SQLite file, and an axe-core accessibility check.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, type Page, type TestInfo } from "@playwright/test";

/** The demo business seeded on first start (db/seed.ts). */
export const DEMO = {
  email: "owner@demo.textcircle.test",
  password: "Textcircle-demo-1",
  company: "The Corner Café",
  number: "+447700900123",
} as const;

/**
 * A UK mobile in the 07911 range, unique enough for one run. Only 07911 0xxxxx to 2xxxxx: libphonenumber-js
 * rejects parts of the range (07911 3xxxxx to 6xxxxx and 9xxxxx), which the simulator then refuses.
 */
export function ukMobile(): string {
  return `+447911${String(crypto.randomInt(0, 300_000)).padStart(6, "0")}`;
}

/** The same number as a person in the UK types it (07911 123456). */
export function nationalMobile(e164: string): string {
  return `0${e164.slice(3)}`;
}

/** A unique, valid email address. */
export function uniqueEmail(prefix = "e2e"): string {
  return `${prefix}-${Date.now().toString(36)}${crypto.randomBytes(3).toString("hex")}@example.test`;
}

/** A unique business name (letters and digits only, well under 40 characters). */
export function uniqueCompany(): string {
  return `E2E Bakery ${crypto.randomBytes(3).toString("hex")}`;
}

export interface SimMessage {
  from: string;
  to: string;
  body: string;
  sentAt: string;
}

/** Texts the simulator delivered to a phone (GET /simulator/api/phones/{e164}/messages). */
export async function simMessages(page: Page, e164: string): Promise<SimMessage[]> {
  const res = await page.request.get(`/simulator/api/phones/${encodeURIComponent(e164)}/messages`);
  expect(res.status(), "simulator messages endpoint").toBe(200);
  return (await res.json()) as SimMessage[];
}

/** Waits for a text to the phone containing a 4 to 8 digit code, and returns the newest code. */
export async function readPin(page: Page, e164: string, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const messages = await simMessages(page, e164);
    const codes = [...messages]
      .sort((a, b) => a.sentAt.localeCompare(b.sentAt))
      .map((m) => /\b(\d{4,8})\b/.exec(m.body)?.[1])
      .filter((c): c is string => Boolean(c));
    if (codes.length) return codes[codes.length - 1];
    if (Date.now() > deadline) throw new Error(`no PIN texted to ${e164} within ${timeoutMs} ms: ${JSON.stringify(messages)}`);
    await page.waitForTimeout(250);
  }
}

/** The SQLite file the e2e server uses (set up by playwright.config.ts). */
export function dbPath(): string {
  const dir = process.env.TC_E2E_DIR;
  if (!dir) throw new Error("TC_E2E_DIR is not set: run the specs through playwright.config.ts");
  return path.join(dir, "app.db");
}

/** Runs `fn` on the e2e server's SQLite database (the server keeps running beside it). */
export function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** The demo business's subscribed members' phones, oldest first (or newest first). */
export function subscribedPhones(order: "oldest" | "newest" = "oldest"): string[] {
  return withDb((db) =>
    (
      db
        .prepare(`SELECT m.phone FROM members m JOIN businesses b ON b.id = m.business_id WHERE b.phone_number = ? AND m.status = 'SUBSCRIBED' ORDER BY m.id ${order === "oldest" ? "ASC" : "DESC"}`)
        .all(DEMO.number) as { phone: string }[]
    ).map((r) => r.phone),
  );
}

/** A phone texts the demo business through the simulator. */
export async function textDemo(page: Page, from: string, body: string): Promise<void> {
  const res = await page.request.post("/simulator/api/inbound", { data: { from, to: DEMO.number, body } });
  expect(res.status(), `simulator inbound from ${from}`).toBe(201);
}

/**
 * A trial business of its own with its Administrator (the demo owner's password and terms), so a spec's two
 * projects (JavaScript on and off) never share its data. Its trial credits are granted as the billing code grants
 * them: the balance and a ledger row together.
 */
export function createTrialOwner(options: { prefix: string; company?: string; ownerName?: string; credits?: number; phoneNumber?: string | null; trialDays?: number; noQuietHours?: boolean }): {
  email: string;
  businessId: number;
  company: string;
} {
  const email = uniqueEmail(options.prefix);
  const company = options.company ?? `E2E ${options.prefix} ${crypto.randomBytes(3).toString("hex")}`;
  const credits = options.credits ?? 50;
  const businessId = withDb((db) => {
    const demo = db.prepare("SELECT b.terms_version, u.password_hash FROM businesses b JOIN users u ON u.business_id = b.id WHERE u.email = ?").get(DEMO.email) as {
      terms_version: string;
      password_hash: string;
    };
    const now = new Date().toISOString();
    const quiet = options.noQuietHours ? "00:00" : null;
    return db.transaction(() => {
      const id = Number(
        db
          .prepare(
            `INSERT INTO businesses (name, name_key, phone_number, onboarding, status, trial_credits, trial_ends_at, referral_code, terms_version, created_at)
             VALUES (?, ?, ?, 'COMPLETE', 'TRIAL', ?, ?, ?, ?, ?)`,
          )
          .run(company, company.toLowerCase(), options.phoneNumber ?? null, credits, new Date(Date.now() + (options.trialDays ?? 30) * 86400_000).toISOString(), `E2E${crypto.randomBytes(4).toString("hex")}`, demo.terms_version, now)
          .lastInsertRowid,
      );
      if (quiet) db.prepare("UPDATE businesses SET quiet_start = ?, quiet_end = ? WHERE id = ?").run(quiet, quiet, id);
      db.prepare("INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, created_at, grant_key) VALUES (?, 'GRANT', 'TRIAL', ?, 'trial', ?, ?)").run(id, credits, now, `trial:${id}`);
      db.prepare("INSERT INTO users (business_id, name, email, mobile, password_hash, role, created_at) VALUES (?, ?, ?, ?, ?, 'ADMIN', ?)").run(id, options.ownerName ?? "Eve Owner", email, ukMobile(), demo.password_hash, now);
      return id;
    })();
  });
  return { email, businessId, company };
}

/**
 * A second user in the demo business with the demo password, for tests that must not disturb the demo
 * owner (the lockout test). The password hash is copied from the demo owner's row.
 */
export function createDemoTeamUser(): { email: string; password: string } {
  const email = uniqueEmail("team");
  withDb((db) => {
    const info = db
      .prepare(
        `INSERT INTO users (business_id, name, email, mobile, password_hash, role, created_at)
         SELECT business_id, 'Tess Team', ?, ?, password_hash, 'TEAM', ? FROM users WHERE email = ?`,
      )
      .run(email, ukMobile(), new Date().toISOString(), DEMO.email);
    if (info.changes !== 1) throw new Error("demo owner not found: is SEED_DEMO on?");
  });
  return { email, password: DEMO.password };
}

/** The row of a user, for asserting what a flow stored. */
export function userRow(email: string): { failed_logins: number; locked_until: string | null; business_id: number } | undefined {
  return withDb((db) => db.prepare("SELECT failed_logins, locked_until, business_id FROM users WHERE email = ?").get(email.toLowerCase()) as never);
}

/**
 * Tops the demo trial up to at least `min` credits, the way the billing code grants them (the balance column and a
 * ledger row together, so the ledger still reconciles). The specs share the demo business and each spends some of
 * its 42 trial credits; without this, whichever spec runs late finds the trial spent.
 */
export function ensureDemoCredits(min = 100): void {
  withDb((db) => {
    const b = db.prepare("SELECT id, trial_credits FROM businesses WHERE phone_number = ?").get(DEMO.number) as { id: number; trial_credits: number } | undefined;
    if (!b || b.trial_credits >= min) return;
    const add = min - b.trial_credits;
    db.transaction(() => {
      db.prepare("UPDATE businesses SET trial_credits = trial_credits + ? WHERE id = ?").run(add, b.id);
      db.prepare("INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, created_at, grant_key) VALUES (?, 'GRANT', 'TRIAL', ?, 'e2e top-up', ?, ?)").run(
        b.id,
        add,
        new Date().toISOString(),
        `e2e-top-up:${crypto.randomUUID()}`,
      );
    })();
  });
}

/** Signs in through the login form (works with JavaScript on or off); the demo owner's trial is topped up first. */
export async function login(page: Page, email: string, password: string): Promise<void> {
  if (email === DEMO.email) ensureDemoCredits();
  await page.goto("/login");
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

const AXE = path.resolve("node_modules/axe-core/axe.min.js");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.1 A/AA rules and axe's best practices) on the current page and returns every
 * violation, each as "impact rule: help at targets". In the no-js project page scripts cannot run, so
 * the same HTML the visitor got is served again, its scripts removed, into a JavaScript-enabled page of
 * the same size (stylesheets still load) and checked there.
 */
export async function axeViolations(page: Page, testInfo: TestInfo): Promise<{ impact: string | null; text: string }[]> {
  let target = page;
  let copy: Page | undefined;
  if (testInfo.project.use.javaScriptEnabled === false) {
    const html = (await page.content()).replace(/<script[\s\S]*?<\/script>/gi, "");
    const url = page.url();
    const context = await page.context().browser()!.newContext({ javaScriptEnabled: true, viewport: page.viewportSize() });
    copy = await context.newPage();
    await copy.route("**/*", (route) => {
      if (route.request().url() === url) return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
      return route.request().resourceType() === "script" ? route.abort() : route.continue();
    });
    await copy.goto(url);
    target = copy;
  }
  try {
    // Evaluated rather than added as a <script>: the page's Content-Security-Policy refuses inline scripts.
    await target.evaluate(fs.readFileSync(AXE, "utf8"));
    const violations = await target.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
      const result = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } });
      return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
    });
    return violations.map((v) => ({ impact: v.impact, text: `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}` }));
  } finally {
    await copy?.context().close();
  }
}

/**
 * Fails on serious or critical axe-core violations on the current page; with `{ anyImpact: true }` on
 * every violation, minor and moderate ones too.
 */
export async function expectAccessible(page: Page, testInfo: TestInfo, options: { anyImpact?: boolean } = {}): Promise<void> {
  const found = (await axeViolations(page, testInfo)).filter((v) => options.anyImpact || v.impact === "serious" || v.impact === "critical");
  expect(found.map((v) => v.text), `accessibility violations on ${page.url()}`).toEqual([]);
}

/** Full-page screenshots at phone and desktop widths into test-results/screenshots (for people, not asserted). */
export async function screenshots(page: Page, name: string, testInfo: TestInfo): Promise<void> {
  const original = page.viewportSize();
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.screenshot({ path: `test-results/screenshots/${name}-${testInfo.project.name}-${width}.png`, fullPage: true });
  }
  if (original) await page.setViewportSize(original);
}
