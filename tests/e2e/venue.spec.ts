// Venue check-in in a real browser, JavaScript on and off: a visitor texts the check-in keyword from a simulator
// phone, opens the check-out link in the reply and checks out (a made-up link is refused); the owner
// prints the QR code (keyword and number beside it) and generates the check-in export, which the page follows
// until the worker has made it. Each page is checked with axe-core.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, simMessages, ukMobile } from "./support";

/** A check-in campaign of the demo business, with a keyword of its own for this run. */
function createCheckinCampaign(keyword: string): number {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    const { id: biz } = db.prepare("SELECT id FROM businesses WHERE phone_number = ?").get(DEMO.number) as { id: number };
    const at = new Date().toISOString();
    return Number(
      db
        .prepare(
          "INSERT INTO campaigns (business_id, type, kind, name, keyword, message_text, issue_at, status, settings, public_ref, created_at, updated_at) VALUES (?, 'CHECKIN', 'ONGOING', 'Front door', ?, 'Welcome in!', ?, 'ONGOING', ?, ?, ?, ?)",
        )
        .run(biz, keyword, at, JSON.stringify({ autoCheckoutHours: 4 }), crypto.randomBytes(12).toString("base64url"), at, at).lastInsertRowid,
    );
  } finally {
    db.close();
  }
}

test.describe("venue check-in", () => {
  test("check in by keyword, check out through the link, print the QR code, export the visits", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const keyword = `IN${crypto.randomBytes(3).toString("hex").toUpperCase()}`;
    const campaignId = createCheckinCampaign(keyword);
    const phone = ukMobile();

    // A visitor texts the keyword and gets a personal check-out link.
    const sent = await page.request.post("/simulator/api/inbound", { data: { from: phone, to: DEMO.number, body: keyword.toLowerCase() } });
    expect(sent.status()).toBe(201);
    let link = "";
    await expect
      .poll(
        async () => {
          link = (await simMessages(page, phone)).map((m) => /\/checkout\/[A-Za-z0-9_-]+/.exec(m.body)?.[0]).find(Boolean) ?? "";
          return link;
        },
        { timeout: 20_000, intervals: [250, 500, 1000] },
      )
      .not.toBe("");
    await page.goto(link);
    await expect(page.getByRole("heading", { name: `Check out of ${DEMO.company}` })).toBeVisible();
    await expect(page.getByText(/You checked in at Front door at \d\d:\d\d\./)).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Check out" }).click();
    await expect(page.getByRole("heading", { name: "You have checked out" })).toBeVisible();
    await expect(page.getByText(/You checked out at \d\d:\d\d\. Thank you for visiting/)).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.goto("/checkout/made-up-reference-1");
    await expect(page.getByText("We could not find that check-in reference.")).toBeVisible();

    // The owner prints the QR code and exports the visits.
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto(`/checkinqrcode?id=${campaignId}`);
    await expect(page.getByText(`Text ${keyword} to 07700 900123 to check in.`)).toBeVisible();
    await expect(page.locator(".venue-qr svg")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("link", { name: "Table card" }).click();
    await expect(page.locator(".venue-qr--card")).toBeVisible();

    await page.goto(`/checkinexport?id=${campaignId}`);
    await expect(page.getByText("No files yet")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Generate file" }).click();
    // The page refreshes itself until the worker has made the file.
    await expect(page.getByText("Ready", { exact: true })).toBeVisible({ timeout: 30_000 });
    const shareLink = await page.getByLabel("Share link").inputValue();
    expect(shareLink).toMatch(/\/checkinshare\/[A-Za-z0-9_-]{16,}$/);
    await expectAccessible(page, testInfo);
    const csv = await page.request.get(new URL(shareLink).pathname);
    expect(csv.headers()["content-type"]).toMatch(/^text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("Name,Mobile,Checked in,Checked out,Source");
    expect(lines.some((l) => l.includes(phone))).toBe(true);
  });
});
