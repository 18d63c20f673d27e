// The help centre and the owner's analytics in a real browser, JavaScript on and off: a new Administrator opens
// the getting-started guide from the home quick start, finds its videos with captions in both languages and a
// transcript, searches the guides, and no longer sees the quick start; an owner's analytics page shows this
// week's texts and opt-outs, as a chart with JavaScript and as a table without, and downloads them as CSV.
// Every page passes axe-core.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { createTrialOwner, DEMO, expectAccessible, login, ukMobile, uniqueEmail, withDb } from "./support";


/** A second Administrator of the demo business: a user who has not seen the quick start yet. */
function createDemoAdmin(): string {
  const email = uniqueEmail("owner");
  withDb((db) => {
    const info = db
      .prepare(
        `INSERT INTO users (business_id, name, email, mobile, password_hash, role, created_at)
         SELECT business_id, 'Olive Owner', ?, ?, password_hash, 'ADMIN', ? FROM users WHERE email = ?`,
      )
      .run(email, ukMobile(), new Date().toISOString(), DEMO.email);
    if (info.changes !== 1) throw new Error("demo owner not found: is SEED_DEMO on?");
  });
  return email;
}

/** A business of its own with an owner, three members texted a group message an hour ago, one of whom opted out. */
function createBusinessWithAWeek(): string {
  // 50 trial credits, 3 of them spent on the group message below.
  const { email, businessId: biz } = createTrialOwner({ prefix: "analytics", company: `E2E Deli ${crypto.randomBytes(3).toString("hex")}`, ownerName: "Dee Deli", trialDays: 20 });
  withDb((db) => {
    const now = Date.now();
    const at = (ms: number) => new Date(now - ms).toISOString();
    db.prepare("UPDATE businesses SET trial_credits = 47 WHERE id = ?").run(biz);
    const sentAt = at(3600_000);
    const message = Number(
      db
        .prepare("INSERT INTO messages (business_id, kind, body, status, send_at, editable_until, recipients, created_at, updated_at) VALUES (?, 'GROUP', 'Fresh bagels today', 'COMPLETE', ?, ?, 3, ?, ?)")
        .run(biz, sentAt, sentAt, sentAt, sentAt).lastInsertRowid,
    );
    const members: { id: number; phone: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const phone = ukMobile();
      const id = Number(
        db
          .prepare("INSERT INTO members (business_id, phone, status, unique_ref, joined_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
          .run(biz, phone, i === 1 ? "OPTED_OUT" : "SUBSCRIBED", crypto.randomBytes(12).toString("base64url"), at(86400_000), at(86400_000), at(0)).lastInsertRowid,
      );
      members.push({ id, phone });
      db.prepare(
        "INSERT INTO outbound (message_id, business_id, member_id, to_phone, from_phone, body, segments, priority, status, next_attempt_at, created_at, sent_at) VALUES (?, ?, ?, ?, '+447700900001', 'Fresh bagels today', 1, 1, 'DELIVERED', ?, ?, ?)",
      ).run(message, biz, id, phone, sentAt, sentAt, sentAt);
    }
    db.prepare("INSERT INTO consent_log (business_id, member_id, phone, action, channel, evidence, created_at) VALUES (?, ?, ?, 'OPTED_OUT', 'SMS', 'STOP', ?)").run(biz, members[1].id, members[1].phone, at(1800_000));
    db.prepare("INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, created_at) VALUES (?, 'CHARGE', 'TRIAL', 3, 'send', ?)").run(biz, sentAt);
  });
  return email;
}

test.describe("help centre", () => {
  test("an owner opens the getting-started guide from the home quick start, with videos, captions and transcripts", async ({ page }, testInfo) => {
    const js = testInfo.project.use.javaScriptEnabled !== false;
    const email = createDemoAdmin();
    await login(page, email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    const quickStart = page.getByRole("region", { name: "Quick start" });
    await expect(quickStart).toBeVisible();
    await expectAccessible(page, testInfo);
    await quickStart.getByRole("link", { name: /^Watch step 1 video: Show customers how to join/ }).click();

    await expect(page).toHaveURL(/\/helpcentre\/getstarted#video-join-code$/);
    await expect(page.getByRole("heading", { level: 1, name: "Getting started" })).toBeVisible();
    const videos = page.locator("video");
    await expect(videos).toHaveCount(4);
    const first = page.locator("#video-join-code");
    await expect(first.locator("video source")).toHaveAttribute("src", "/help/videos/join-code.webm");
    await expect(first.locator('track[srclang="en-GB"]')).toHaveAttribute("src", "/help/videos/join-code.en-GB.vtt");
    await expect(first.locator('track[srclang="fr"]')).toHaveAttribute("src", "/help/videos/join-code.fr.vtt");
    await expect(first.getByRole("heading", { name: "Transcript" })).toBeVisible();
    await expect(first.getByText("Open More, then Join us.")).toBeVisible();
    for (const file of ["join-code.webm", "join-code.en-GB.vtt", "join-code.fr.vtt"]) {
      const res = await page.request.get(`/help/videos/${file}`);
      expect(res.status(), file).toBe(200);
      expect(res.headers()["content-type"]).toContain(file.endsWith(".vtt") ? "text/vtt" : "video/webm");
    }
    if (js) {
      // The browser can play it: its length is known once the metadata has loaded.
      await expect.poll(() => first.locator("video").evaluate((v: HTMLVideoElement) => (Number.isFinite(v.duration) ? v.duration : 0)), { timeout: 10_000 }).toBeGreaterThan(5);
      expect(await first.locator("video").evaluate((v: HTMLVideoElement) => v.textTracks.length)).toBe(2);
    }
    await expectAccessible(page, testInfo);

    // The quick start is seen: home no longer shows it.
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Send a group message" }).or(page.getByRole("link", { name: "Send a group message" })).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Quick start" })).toHaveCount(0);

    // Search the guides (as you type with JavaScript; with the button without it).
    await page.goto("/helpcentre");
    await expectAccessible(page, testInfo);
    await page.getByLabel("Search the guides").fill("waitlist");
    if (!js) await page.getByRole("button", { name: "Search" }).click();
    const results = page.getByRole("region", { name: /guide mentions “waitlist”/ });
    await expect(results).toBeVisible();
    await expect(results.getByRole("link", { name: "Every campaign type" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await results.getByRole("link", { name: "Every campaign type" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Invitation" })).toBeVisible();
  });

  test("an owner's analytics page shows this week's texts and opt-outs, as a chart with JavaScript and a table without", async ({ page }, testInfo) => {
    const js = testInfo.project.use.javaScriptEnabled !== false;
    const email = createBusinessWithAWeek();
    await login(page, email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await page.getByRole("navigation", { name: "Main" }).getByText("More", { exact: true }).click();
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Analytics" }).click();
    await expect(page).toHaveURL(/\/analytics$/);
    await expect(page.getByRole("heading", { level: 1, name: "Analytics" })).toBeVisible();
    const totals = page.locator("#analytics-totals");
    await expect(totals.locator("div", { hasText: "Texts sent" }).locator("dd")).toHaveText("3");
    await expect(totals.locator("div", { hasText: "Opt-outs after your texts" }).locator("dd")).toHaveText("1");
    const sends = page.locator("#analytics-sends-table");
    await expect(sends.getByRole("row", { name: /All subscribers/ })).toContainText("33.3%");

    const texts = page.getByRole("region", { name: "Texts per day" });
    if (js) {
      await expect(texts.locator("svg.ct-chart-line")).toBeVisible();
      await expect(texts.locator("#analytics-daily-table")).toBeHidden();
      await texts.getByText("Show the figures as a table").click();
      await expect(texts.locator("#analytics-daily-table")).toBeVisible();
    } else {
      await expect(texts.locator("svg")).toHaveCount(0);
      await expect(texts.locator("#analytics-daily-table")).toBeVisible();
    }
    await expect(texts.locator("#analytics-daily-table tbody tr").first()).toContainText("3");
    await expectAccessible(page, testInfo);

    const csv = await page.request.get("/analytics/export?days=7");
    expect(csv.headers()["content-type"]).toBe("text/csv; charset=utf-8");
    expect(await csv.text()).toContain(",group message,All subscribers,3,0,0.0,1,33.3");

    await page.getByRole("link", { name: "Last 30 days" }).click();
    await expect(page).toHaveURL(/days=30/);
    await expect(totals.locator("div", { hasText: "Texts sent" }).locator("dd")).toHaveText("3");
  });
});
