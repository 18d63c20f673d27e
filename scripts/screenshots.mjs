// npm run screenshots: every screen at 375 and 1280 px, with JavaScript on and off, into screenshots/
// (git-ignored), for people to look at. It builds when needed, copies the build aside (so another build
// in the same tree cannot swap the assets under the running server), starts it on a scratch SQLite file
// with the demo business, signs in as the demo owner and saves full-page pictures. Chromium is Debian's,
// launched with the flags the end-to-end suite uses (playwright.config.ts).
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { chromium } from "@playwright/test";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "screenshots");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tc-shots-"));
const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];
const DEMO = { email: "owner@demo.textcircle.test", password: "Textcircle-demo-1" };
// `npm run screenshots -- --only home,memberinfo`: just those screens (and none of the multi-step flows).
const onlyArg = process.argv.indexOf("--only");
const ONLY = onlyArg > 0 ? new Set((process.argv[onlyArg + 1] ?? "").split(",").filter(Boolean)) : null;

async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** A private copy of the build and the files server.js needs, taken while no build is running. */
function copyBuild() {
  ensureBuild({ quiet: true });
  const lock = path.join(root, "build.lock");
  for (let tries = 0; ; tries++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (tries > 1200) throw new Error("a build kept build.lock for more than 5 minutes");
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250);
    }
  }
  try {
    fs.cpSync(path.join(root, "build"), path.join(scratch, "build"), { recursive: true });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
  fs.copyFileSync(path.join(root, "server.js"), path.join(scratch, "server.js"));
  fs.copyFileSync(path.join(root, "package.json"), path.join(scratch, "package.json"));
  fs.cpSync(path.join(root, "server"), path.join(scratch, "server"), { recursive: true, filter: (f) => !f.endsWith(".ts") });
  fs.symlinkSync(path.join(root, "node_modules"), path.join(scratch, "node_modules"), "dir");
}

async function startServer(port) {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: scratch,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: path.join(scratch, "app.db"),
      SEED_DEMO: "true",
      SMS_PROVIDER: "simulator",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server stopped (exit ${child.exitCode})`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/login`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("the server did not answer /login within 60 s");
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Ids for the screens that show one record: a member, their form link, the join page, two groups. */
function fixtures() {
  const db = new Database(path.join(scratch, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    const { business_id: biz } = db.prepare("SELECT business_id FROM users WHERE email = ?").get(DEMO.email);
    const member = db.prepare("SELECT id, unique_ref FROM members WHERE business_id = ? ORDER BY id LIMIT 1").get(biz);
    const { referral_code: slug } = db.prepare("SELECT referral_code FROM businesses WHERE id = ?").get(biz);
    const at = new Date().toISOString();
    const addGroup = (name, type, filter) =>
      Number(db.prepare("INSERT INTO groups (business_id, name, type, filter, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)").run(biz, name, type, filter, at, at).lastInsertRowid);
    const listId = addGroup("Regulars", "LIST", null);
    for (const m of db.prepare("SELECT id FROM members WHERE business_id = ? AND status = 'SUBSCRIBED' LIMIT 3").all(biz)) {
      db.prepare("INSERT INTO group_members (group_id, member_id, added_at) VALUES (?, ?, ?)").run(listId, m.id, at);
    }
    const smartId = addGroup("Everyone subscribed", "SMART", JSON.stringify({ match: "ALL", conditions: [{ field: "optedIn", op: "is", value: "yes" }] }));
    return { memberId: member.id, ref: member.unique_ref, slug, listId, smartId };
  } finally {
    db.close();
  }
}

async function main() {
  // The end-to-end config reads these; set first so that importing it creates no directory of its own.
  process.env.TC_E2E_DIR = scratch;
  process.env.TC_E2E_PORT = "0";
  const { default: config } = await import("../playwright.config.ts");
  copyBuild();
  const port = await freePort();
  const server = await startServer(port);
  const base = `http://127.0.0.1:${port}`;
  const f = fixtures();
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch(config.use.launchOptions);
  let count = 0;
  try {
    for (const js of [true, false]) {
      const mode = js ? "js" : "nojs";
      const context = await browser.newContext({ baseURL: base, javaScriptEnabled: js, locale: "en-GB" });
      const page = await context.newPage();
      const shoot = async (name) => {
        for (const size of WIDTHS) {
          await page.setViewportSize(size);
          await page.screenshot({ path: path.join(out, `${name}-${mode}-${size.width}.png`), fullPage: true });
          count++;
        }
      };
      const visit = async (name, url) => {
        if (ONLY && !ONLY.has(name)) return;
        await page.goto(url);
        await shoot(name);
      };

      for (const [name, url] of [
        ["login", "/login"],
        ["signup", "/signup"],
        ["forgotten-login", "/forgotten-login"],
        ["join", `/join/${f.slug}`],
        ["myinfo", `/myinfo/${f.ref}`],
        ["invalid", "/invalid"],
        ["createaccount-invalid", "/createaccount/no-such-invitation"],
        ["not-found-public", "/no-such-page"],
        ["simulator", "/simulator"],
      ]) {
        await visit(name, url);
      }

      await page.goto("/login");
      await page.getByLabel("Email address").fill(DEMO.email);
      await page.getByLabel("Password").fill(DEMO.password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL(`${base}/`);

      for (const [name, url] of [
        ["home", "/"],
        ["directmessages", "/directmessages"],
        ["member-messages", `/member/messages?id=${f.memberId}`],
        ["newdirectmessage", "/newdirectmessage"],
        ["mycommunity", "/mycommunity"],
        ["memberinfo", `/memberinfo/${f.memberId}`],
        ["invitemember", "/invitemember"],
        ["memberattributes", "/memberattributes"],
        ["groups", "/groups"],
        ["contactgroup", `/contactgroup/${f.listId}`],
        ["smartgroup", `/smartgroup/${f.smartId}`],
        ["groupmessages", "/groupmessages?groupId=-1"],
        ["allgroupmessages", "/allgroupmessages"],
        ["myaccount", "/myaccount"],
        ["manageteam", "/manageteam"],
        ["joinus", "/joinus"],
        ["import", "/mycommunity/import"],
        ["campaigns", "/campaigns"],
        ["newcampaign", "/newcampaign"],
        ["quickpoll", "/quickpoll"],
        ["customerexp", "/customerexp"],
        ["checkin", "/checkin"],
        ["customerexpqrcode-unset", "/customerexpqrcode"],
        ["checkinqrcode-unset", "/checkinqrcode"],
        ["subscription", "/subscription"],
        ["changesubscription", "/changesubscription"],
        ["paymenthistory", "/paymenthistory"],
        ["referral", "/referral"],
        ["outbox", "/outbox"],
        ["not-found-signed-in", "/no-such-page"],
      ]) {
        await visit(name, url);
      }

      if (ONLY) {
        await context.close();
        continue;
      }
      // Webhooks: an endpoint (added on the first pass) with a test event in its delivery log.
      await page.goto("/manageintegrations/webhooks");
      if (js) {
        await page.getByLabel("Endpoint address").fill("https://hooks.example.com/textcircle");
        await page.getByLabel("Description (optional)").fill("Our CRM");
        await page.getByRole("button", { name: "Add endpoint" }).click();
        await page.getByRole("textbox", { name: "Signing secret" }).waitFor();
        await shoot("webhooks-secret");
        await page.goto("/manageintegrations/webhooks");
        await page.getByRole("button", { name: /Send a test event/ }).click();
        await page.waitForURL(/\/manageintegrations\/webhooks$/);
      }
      await shoot("webhooks");

      // The three steps of a group message (not sent).
      await visit("newgroupmessage", "/newgroupmessage");
      await page.getByLabel("Message text").fill("Hi {{firstName|there}}, coffee and cake are half price this afternoon");
      await page.getByRole("button", { name: "Next: schedule" }).click();
      await page.waitForURL(/\/newgroupmessage\/schedule/);
      await shoot("newgroupmessage-schedule");
      await page.getByRole("button", { name: "Next: preview" }).click();
      await page.waitForURL(/\/newgroupmessage\/preview/);
      await shoot("newgroupmessage-preview");

      // The navigation's More menu, open (a <details>, so it opens without JavaScript too).
      await page.goto("/");
      for (const size of WIDTHS) {
        await page.setViewportSize(size);
        await page.reload();
        await page.getByRole("navigation", { name: "Main" }).getByText("More", { exact: true }).click();
        await page.screenshot({ path: path.join(out, `more-menu-${mode}-${size.width}.png`) });
        count++;
      }
      await context.close();
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`${count} screenshots in ${path.relative(process.cwd(), out) || "."}/`);
}

main().catch((error) => {
  console.error(error);
  fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
});
