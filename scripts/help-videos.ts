// npm run videos: records the help centre's short videos of the getting-started tasks from the real product, so
// they stay true as the screens change. It builds when needed, copies the build aside, starts it on a scratch
// SQLite file with the demo business (as npm run screenshots does), signs in as the demo owner and, for each
// video of the catalogue (app/domain/help/catalogue.ts), drives Debian's Chromium through the task with
// Playwright's recordVideo while it notes when each captioned step starts. Then ffmpeg re-encodes each
// recording to a small VP9 WebM and the script writes its WebVTT captions in en-GB and French from the same
// step texts the guide shows as its transcript. Output: public/help/videos/<id>.webm, <id>.en-GB.vtt, <id>.fr.vtt.
//
// Needs ffmpeg twice: Playwright records through an ffmpeg of its own, which cannot be downloaded here, so the
// script points Playwright's browser cache at Debian's (apt-get install ffmpeg) under the name it expects; and
// the re-encoding. CI needs neither: the videos are committed files.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { HELP_VIDEOS, videoFiles, type HelpLocale } from "../app/domain/help/catalogue";
import { ensureBuild } from "./ensure-build.mjs";

const root = path.resolve(import.meta.dirname, "..");
const out = path.join(root, "public", "help", "videos");
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "tc-videos-"));
const SIZE = { width: 960, height: 540 };
const DEMO = { email: "owner@demo.textcircle.test", password: "Textcircle-demo-1" };
const LAUNCH = {
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};
/** How long each captioned step stays on screen at least, so it can be read. */
const STEP_MS = 3200;

function ffmpegPath(): string {
  try {
    return execFileSync("sh", ["-c", "command -v ffmpeg"], { encoding: "utf8" }).trim();
  } catch {
    throw new Error("ffmpeg is not installed: apt-get install -y ffmpeg");
  }
}

/** Playwright records through <browsers path>/ffmpeg-<revision>/ffmpeg-linux: link Debian's ffmpeg there. */
function linkFfmpegForPlaywright(ffmpeg: string) {
  const browsers = JSON.parse(fs.readFileSync(path.join(root, "node_modules/playwright-core/browsers.json"), "utf8")) as { browsers: { name: string; revision: string }[] };
  const revision = browsers.browsers.find((b) => b.name === "ffmpeg")?.revision;
  if (!revision) throw new Error("playwright-core names no ffmpeg revision");
  const cache = process.env.PLAYWRIGHT_BROWSERS_PATH || path.join(os.homedir(), ".cache", "ms-playwright");
  const dir = path.join(cache, `ffmpeg-${revision}`);
  fs.mkdirSync(dir, { recursive: true });
  const link = path.join(dir, "ffmpeg-linux");
  if (!fs.existsSync(link)) fs.symlinkSync(ffmpeg, link);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

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

async function startServer(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server.js"], {
    cwd: scratch,
    env: {
      ...process.env,
      NODE_ENV: "production",
      WEB_PROCESSES: "1",
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

/** A UK date some days ahead, YYYY-MM-DD. */
function ukDate(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(new Date(Date.now() + days * 86400_000));
}

type Step = (page: Page) => Promise<void>;

/** What each video does on screen: one function per caption, in the caption's order. */
const SCRIPTS: Record<string, Step[]> = {
  "join-code": [
    async (page) => {
      await page.goto("/");
    },
    async (page) => {
      await page.getByRole("navigation", { name: "Main" }).getByText("More", { exact: true }).click();
      await page.waitForTimeout(900);
      await page.getByRole("link", { name: "Join us" }).click();
      await page.waitForURL(/\/joinus/);
    },
    async (page) => {
      await page.mouse.wheel(0, 250);
    },
    async (page) => {
      await page.mouse.wheel(0, 400);
    },
  ],
  "invite-member": [
    async (page) => {
      await page.goto("/");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" }).click();
      await page.waitForURL(/\/mycommunity/);
      await page.waitForTimeout(900);
      await page.getByRole("link", { name: "Invite a member" }).first().click();
      await page.waitForURL(/\/invitemember/);
    },
    async (page) => {
      await page.getByLabel("Mobile number").pressSequentially("07911 123456", { delay: 60 });
      const first = page.getByLabel("First name (optional)").or(page.getByLabel("First name")).first();
      await first.pressSequentially("Sam", { delay: 60 });
      await page.getByLabel("Full name").pressSequentially("Sam Baker", { delay: 60 });
    },
    async (page) => {
      await page.getByRole("button", { name: "Send invitation" }).click();
      await page.waitForLoadState("networkidle");
    },
    async (page) => {
      await page.mouse.wheel(0, 200);
    },
  ],
  "group-message": [
    async (page) => {
      await page.goto("/");
      await page.waitForTimeout(600);
      await page.getByRole("link", { name: "Send a group message" }).click();
      await page.waitForURL(/\/newgroupmessage/);
    },
    async (page) => {
      await page.getByLabel("Message text").pressSequentially("Hi {{firstName|there}}, coffee and cake are half price this afternoon!", { delay: 35 });
    },
    async (page) => {
      await page.getByRole("button", { name: "Next: schedule" }).click();
      await page.waitForURL(/\/newgroupmessage\/schedule/);
      await page.getByLabel("Send now").check();
    },
    async (page) => {
      await page.getByRole("button", { name: "Next: preview" }).click();
      await page.waitForURL(/\/newgroupmessage\/preview/);
      await page.waitForTimeout(2800);
      await page.getByRole("button", { name: "Send group message" }).click();
    },
    async (page) => {
      await page.waitForLoadState("networkidle");
    },
  ],
  "quick-poll": [
    async (page) => {
      await page.goto("/");
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" }).click();
      await page.waitForURL(/\/campaigns/);
      await page.waitForTimeout(900);
      await page.goto("/newcampaign");
    },
    async (page) => {
      await page.getByRole("link", { name: /Quick poll/ }).first().click();
      await page.waitForURL(/\/quickpoll/);
    },
    async (page) => {
      await page.getByLabel("Campaign name").pressSequentially("Sunday opening", { delay: 50 });
      await page.getByLabel("Your question").pressSequentially("Should we open on Sundays? Reply 1 or 2", { delay: 35 });
      await page.getByLabel("Option 1", { exact: true }).pressSequentially("Yes please", { delay: 50 });
      await page.getByLabel("Option 2", { exact: true }).pressSequentially("No thanks", { delay: 50 });
    },
    async (page) => {
      await page.getByLabel("Send to").selectOption("-1");
      await page.getByLabel("Send now").check();
      const close = page.getByRole("group", { name: "Close date" });
      await close.getByLabel("Date").fill(ukDate(3));
      await close.getByLabel("Time (UK)").fill("18:00");
      await page.waitForTimeout(800);
      await page.getByRole("button", { name: "Create campaign" }).click();
      await page.waitForLoadState("networkidle");
    },
    async (page) => {
      await page.mouse.wheel(0, 300);
    },
  ],
};

function vttTime(ms: number): string {
  const t = Math.max(0, Math.round(ms));
  const h = Math.floor(t / 3600_000);
  const m = Math.floor((t % 3600_000) / 60_000);
  const s = Math.floor((t % 60_000) / 1000);
  return `${String(h).padStart(2, "0")}:${String(m).padStart(2, "0")}:${String(s).padStart(2, "0")}.${String(t % 1000).padStart(3, "0")}`;
}

function writeCaptions(id: string, starts: number[], end: number) {
  const video = HELP_VIDEOS.find((v) => v.id === id)!;
  for (const locale of Object.keys(video.captions) as HelpLocale[]) {
    let vtt = "WEBVTT\n\n";
    video.captions[locale].forEach((text, i) => {
      vtt += `${i + 1}\n${vttTime(starts[i])} --> ${vttTime(i + 1 < starts.length ? starts[i + 1] : end)}\n${text}\n\n`;
    });
    fs.writeFileSync(path.join(root, "public", videoFiles(id).captions[locale]), vtt);
  }
}

async function main() {
  const ffmpeg = ffmpegPath();
  linkFfmpegForPlaywright(ffmpeg);
  copyBuild();
  const port = await freePort();
  const server = await startServer(port);
  const base = `http://127.0.0.1:${port}`;
  const only = process.argv.slice(2);
  fs.mkdirSync(out, { recursive: true });
  const browser = await chromium.launch(LAUNCH);
  try {
    const login = await browser.newContext({ baseURL: base, locale: "en-GB" });
    const lp = await login.newPage();
    await lp.goto("/login");
    await lp.getByLabel("Email address").fill(DEMO.email);
    await lp.getByLabel("Password").fill(DEMO.password);
    await lp.getByRole("button", { name: "Sign in" }).click();
    await lp.waitForURL(`${base}/`);
    const storageState = await login.storageState();
    await login.close();

    for (const video of HELP_VIDEOS) {
      if (only.length && !only.includes(video.id)) continue;
      const steps = SCRIPTS[video.id];
      if (!steps || steps.length !== video.captions["en-GB"].length) throw new Error(`${video.id}: ${steps?.length ?? 0} steps for ${video.captions["en-GB"].length} captions`);
      const raw = path.join(scratch, "raw", video.id);
      const context = await browser.newContext({ baseURL: base, locale: "en-GB", viewport: SIZE, storageState, recordVideo: { dir: raw, size: SIZE } });
      const page = await context.newPage();
      const t0 = Date.now();
      const starts: number[] = [];
      for (const step of steps) {
        const at = Date.now();
        starts.push(at - t0);
        await step(page);
        const left = STEP_MS - (Date.now() - at);
        if (left > 0) await page.waitForTimeout(left);
      }
      await page.waitForTimeout(800);
      const end = Date.now() - t0;
      await context.close();
      const recorded = await page.video()!.path();
      const target = path.join(root, "public", videoFiles(video.id).webm);
      // VP9 at a constant quality: screens are mostly still, so this keeps each video well under 1.5 MB.
      execFileSync(ffmpeg, ["-y", "-loglevel", "error", "-i", recorded, "-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "42", "-row-mt", "1", "-deadline", "good", "-cpu-used", "4", "-an", target]);
      writeCaptions(video.id, starts, end);
      console.log(`${video.id}: ${(fs.statSync(target).size / 1024).toFixed(0)} KB, ${(end / 1000).toFixed(1)} s`);
    }
  } finally {
    await browser.close();
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  fs.rmSync(scratch, { recursive: true, force: true });
  process.exit(1);
});
