// The app shell in a real browser, JavaScript on and off: the main navigation on a phone (375 px, a
// bar at the bottom) and a desktop (1280 px, in the top bar), the current page marked, More opening
// without JavaScript, Team only for the Administrator, the shell around signed-in 404s and errors, the
// bare paths, no dead links on home; then axe-core over every signed-in and public screen, with no
// violation of any impact.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { axeViolations, createDemoTeamUser, DEMO, dbPath, login } from "./support";

const WIDTHS = [
  { width: 375, height: 812 },
  { width: 1280, height: 800 },
];

const nav = (page: Page) => page.getByRole("navigation", { name: "Main" });

/** The phone of a subscribed demo member. */
function memberPhone(): string {
  const db = new Database(dbPath(), { readonly: true });
  try {
    return (db.prepare("SELECT m.phone FROM members m JOIN users u ON u.business_id = m.business_id WHERE u.email = ? AND m.status = 'SUBSCRIBED' ORDER BY m.id LIMIT 1").get(DEMO.email) as { phone: string }).phone;
  } finally {
    db.close();
  }
}

/** Ids the sweep needs: a member and their form link, the join page's slug, a list group and a smart group. */
function fixtures() {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    const owner = db.prepare("SELECT business_id FROM users WHERE email = ?").get(DEMO.email) as { business_id: number };
    const biz = owner.business_id;
    const member = db.prepare("SELECT id, unique_ref FROM members WHERE business_id = ? ORDER BY id LIMIT 1").get(biz) as { id: number; unique_ref: string };
    const slug = (db.prepare("SELECT referral_code FROM businesses WHERE id = ?").get(biz) as { referral_code: string }).referral_code;
    const at = new Date().toISOString();
    const suffix = Math.random().toString(36).slice(2, 8);
    const list = db
      .prepare("INSERT INTO groups (business_id, name, type, filter, created_at, updated_at) VALUES (?, ?, 'LIST', NULL, ?, ?)")
      .run(biz, `Regulars ${suffix}`, at, at).lastInsertRowid;
    db.prepare("INSERT INTO group_members (group_id, member_id, added_at) VALUES (?, ?, ?)").run(list, member.id, at);
    const filter = JSON.stringify({ match: "ALL", conditions: [{ field: "optedIn", op: "is", value: "yes" }] });
    const smart = db
      .prepare("INSERT INTO groups (business_id, name, type, filter, created_at, updated_at) VALUES (?, ?, 'SMART', ?, ?, ?)")
      .run(biz, `Everyone subscribed ${suffix}`, filter, at, at).lastInsertRowid;
    return { memberId: member.id, ref: member.unique_ref, slug, listId: Number(list), smartId: Number(smart) };
  } finally {
    db.close();
  }
}

test.describe("app shell", () => {
  for (const size of WIDTHS) {
    test(`the main navigation at ${size.width} px`, async ({ page }) => {
      await page.setViewportSize(size);
      await login(page, DEMO.email, DEMO.password);
      await expect(page).toHaveURL(/\/$/);
      const main = nav(page);
      await expect(main.getByRole("link", { name: "Home" })).toHaveAttribute("aria-current", "page");

      // On a phone the bar sits at the bottom of the screen; on a desktop in the top bar.
      const box = (await main.getByRole("link", { name: "Home" }).boundingBox())!;
      if (size.width < 640) expect(box.y + box.height).toBeGreaterThan(size.height - 80);
      else expect(box.y).toBeLessThan(80);
      // Touch targets of at least 44 px.
      expect(box.height).toBeGreaterThanOrEqual(44);

      // A member texts in: Messages says how many texts are unread.
      const res = await page.request.post("/simulator/api/inbound", { data: { from: memberPhone(), to: DEMO.number, body: "Are you open on Sunday?" } });
      expect(res.status()).toBe(201);
      await expect
        .poll(async () => {
          await page.reload();
          return main.getByRole("link", { name: /^Messages \(\d+ unread\)$/ }).count();
        }, { timeout: 20_000, intervals: [500, 1000] })
        .toBe(1);

      for (const [name, path] of [
        [/^Messages/, "/directmessages"],
        ["Members", "/mycommunity"],
        ["Groups", "/groups"],
        ["Campaigns", "/campaigns"],
        ["Home", "/"],
      ] as const) {
        await main.getByRole("link", { name }).click();
        await expect(page).toHaveURL(new RegExp(`${path === "/" ? "/" : path}$`));
        await expect(main.getByRole("link", { name })).toHaveAttribute("aria-current", "page");
        await expect(main.locator('[aria-current="page"]')).toHaveCount(1);
      }

      // A page inside a section marks its entry: a member's thread is under Messages.
      await page.goto("/newdirectmessage");
      await expect(main.getByRole("link", { name: /^Messages/ })).toHaveAttribute("aria-current", "page");

      // More opens (a <details>, so also without JavaScript) and leads to each of its entries.
      for (const [name, path, heading] of [
        ["My account", "/myaccount", "My account"],
        ["Join us", "/joinus", null],
        ["Your plan", "/subscription", null],
        ["Team", "/manageteam", null],
        ["Support chat", "/agentchat", "Support chat"],
        ["Help", "/helpcentre", "Help centre"],
        ["Analytics", "/analytics", "Analytics"],
      ] as const) {
        await main.getByText("More", { exact: true }).click();
        const link = main.getByRole("link", { name, exact: true });
        await expect(link).toBeVisible();
        await link.click();
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        if (heading) await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
        // Marked as the current page, and the menu is closed on the new page.
        const entry = main.locator(`a[href="${path}"]`);
        await expect(entry).toHaveAttribute("aria-current", "page");
        await expect(entry).toBeHidden();
        await expect(main.locator("summary[data-current]")).toHaveCount(1);
      }
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    });
  }

  test("a team member's More has no Team entry", async ({ page }) => {
    const team = createDemoTeamUser();
    await login(page, team.email, team.password);
    await expect(page).toHaveURL(/\/$/);
    await nav(page).getByText("More", { exact: true }).click();
    await expect(nav(page).getByRole("link", { name: "My account" })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Team" })).toHaveCount(0);
    // The page itself still refuses, inside the shell.
    const res = await page.goto("/manageteam");
    expect(res?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(nav(page).getByRole("link", { name: "Home" })).toBeVisible();
  });

  test("signed-in 404s keep the shell, and bare paths open their list", async ({ page }) => {
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    for (const path of ["/no-such-page", "/memberinfo/999999999", "/contactgroup/999999999"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "Page not found" })).toBeVisible();
      await expect(nav(page).getByRole("link", { name: "Members" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
    }
    for (const [bare, list] of [
      ["/memberinfo", "/mycommunity"],
      ["/member/messages", "/directmessages"],
      ["/contactgroup", "/groups"],
      ["/smartgroup", "/groups"],
      ["/groupmessage", "/allgroupmessages"],
    ]) {
      const res = await page.goto(bare);
      expect(res?.status(), bare).toBe(200);
      await expect(page).toHaveURL(new RegExp(`${list}$`));
    }
  });

  test("home links only to screens that exist", async ({ page }) => {
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    const hrefs = await page.locator("a[href^='/']").evaluateAll((as) => [...new Set(as.map((a) => a.getAttribute("href")!))]);
    expect(hrefs.length).toBeGreaterThan(5);
    for (const href of hrefs) {
      const res = await page.request.get(href, { maxRedirects: 5 });
      expect(res.status(), href).not.toBe(404);
    }
  });

  // Every violation of every impact on every screen, at both widths, collected and then shown together.
  test("axe finds nothing on any signed-in screen", async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    const f = fixtures();
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    const screens = [
      "/",
      "/directmessages",
      `/member/messages?id=${f.memberId}`,
      "/newdirectmessage",
      "/mycommunity",
      `/memberinfo/${f.memberId}`,
      "/invitemember",
      "/memberattributes",
      "/groups",
      `/contactgroup/${f.listId}`,
      `/smartgroup/${f.smartId}`,
      "/smartgroup/new?name=New%20regulars",
      "/groupmessages?groupId=-1",
      "/allgroupmessages",
      "/myaccount",
      "/manageteam",
      "/joinus",
      "/mycommunity/import",
      "/no-such-page",
    ];
    const found: string[] = [];
    const check = async () => {
      for (const v of await axeViolations(page, testInfo)) found.push(`${page.viewportSize()?.width} px ${new URL(page.url()).pathname}: ${v.text}`);
    };
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const path of screens) {
        await page.goto(path);
        await expect(nav(page)).toBeVisible();
        await check();
      }
      // The three steps of a group message: compose, schedule, preview (not sent).
      await page.goto("/newgroupmessage");
      await check();
      await page.getByLabel("Message text").fill("Coffee and cake half price this afternoon");
      await page.getByRole("button", { name: "Next: schedule" }).click();
      await expect(page).toHaveURL(/\/newgroupmessage\/schedule\?draft=\d+$/);
      await check();
      await page.getByRole("button", { name: "Next: preview" }).click();
      await expect(page).toHaveURL(/\/newgroupmessage\/preview\?draft=\d+$/);
      await check();
      // The More menu open (the no-js check serves a fresh copy of the page, where it is closed).
      if (testInfo.project.use.javaScriptEnabled !== false) {
        await page.goto("/");
        await nav(page).getByText("More", { exact: true }).click();
        await expect(nav(page).getByRole("link", { name: "My account" })).toBeVisible();
        await check();
      }
    }
    expect(found).toEqual([]);
  });

  test("axe finds nothing on any public screen", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const f = fixtures();
    const found: string[] = [];
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const path of ["/login", "/signup", "/forgotten-login", `/join/${f.slug}`, `/myinfo/${f.ref}`, "/invalid", "/no-such-page", "/simulator"]) {
        await page.goto(path);
        for (const v of await axeViolations(page, testInfo)) found.push(`${size.width} px ${path}: ${v.text}`);
      }
    }
    expect(found).toEqual([]);
  });
});
