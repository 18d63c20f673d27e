// Direct messages in a real browser, JavaScript on and off: a member joins and texts in from the
// simulator, the unread tile and panel show it, the owner opens the thread (read), replies, and the
// member's phone (simulator JSON) gets the reply. With JavaScript the open thread shows a new text
// without a reload.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, nationalMobile, simMessages, ukMobile } from "./support";

async function textIn(page: Page, from: string, body: string) {
  const res = await page.request.post("/simulator/api/inbound", { data: { from, to: DEMO.number, body } });
  expect(res.status()).toBe(201);
}

async function waitForText(page: Page, phone: string, match: (body: string) => boolean, timeoutMs = 20_000) {
  await expect
    .poll(async () => (await simMessages(page, phone)).some((m) => match(m.body)), { timeout: timeoutMs, intervals: [250, 500, 1000] })
    .toBe(true);
}

/** Ends the sending-soon pause of this phone's queued texts, so the worker sends them now. */
function skipPause(phone: string) {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    const now = new Date().toISOString();
    db.prepare("UPDATE messages SET editable_until = ? WHERE id IN (SELECT message_id FROM outbound WHERE to_phone = ? AND status = 'QUEUED')").run(now, phone);
    db.prepare("UPDATE outbound SET next_attempt_at = ? WHERE to_phone = ? AND status = 'QUEUED'").run(now, phone);
  } finally {
    db.close();
  }
}

test.describe("direct messages", () => {
  test("a member texts in, the owner sees it unread, opens it, replies, and the member's phone gets the reply", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(90_000);
    const phone = ukMobile();
    const shown = nationalMobile(phone).replace(/^(\d{5})(\d{6})$/, "$1 $2");
    // The member joins by text (double opt-in) and then asks a question.
    await textIn(page, phone, "JOIN");
    await waitForText(page, phone, (b) => /YES/i.test(b));
    await textIn(page, phone, "YES");
    await waitForText(page, phone, (b) => /welcome/i.test(b));
    const question = `Are you open on Sunday? ${Date.now()}`;
    await textIn(page, phone, question);

    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    // Processing is asynchronous: reload until the unread panel lists the text.
    await expect
      .poll(async () => {
        await page.goto("/");
        return page.locator(".unread-list").getByText(question.slice(0, 40)).count();
      }, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const tile = Number(await page.locator("#tile-unread [data-value]").textContent());
    expect(tile).toBeGreaterThanOrEqual(1);

    await page.goto("/directmessages?tab=unread");
    await expect(page.getByRole("heading", { level: 1, name: "Direct messages" })).toBeVisible();
    const row = page.locator(".dm-row", { hasText: shown });
    await expect(row).toContainText(question.slice(0, 40));
    await expectAccessible(page, testInfo);
    await row.click();
    await expect(page).toHaveURL(/\/member\/messages\?id=\d+$/);
    await expect(page.locator("#dm-thread")).toContainText(question);
    await expect(page.locator("#dm-status")).toHaveText("Read");
    await expectAccessible(page, testInfo);

    // Empty reply: an error beside the box, nothing sent.
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Your reply is required")).toBeVisible();

    const reply = `Yes, 9 till 4. ${javaScriptEnabled ? "js" : "nojs"}`;
    await page.getByLabel("Your reply").fill(reply);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Your text is on its way.")).toBeVisible();
    await expect(page.locator("#dm-thread")).toContainText(reply);
    // The short pause: "Sending soon, at 14:05:07" without JavaScript, a live "Sending in 4 seconds" with it, and Undo.
    await expect(page.locator("#dm-thread li").last()).toContainText(/Sending (soon|in \d+ seconds?)/);
    await expect(page.locator("#dm-thread li").last().getByRole("button", { name: "Undo" })).toBeVisible();
    await expect(page.getByLabel("Your reply")).toHaveValue("");

    skipPause(phone);
    await waitForText(page, phone, (b) => b === reply);

    if (javaScriptEnabled) {
      // The open thread shows the member's next text without a reload.
      const next = `Lovely, see you then ${Date.now()}`;
      await textIn(page, phone, next);
      await expect(page.locator("#dm-thread")).toContainText(next, { timeout: 25_000 });
    } else {
      await page.reload();
      await expect(page.locator("#dm-thread li").last()).not.toContainText(/Sending (soon|in)/);
    }
  });

  test("a new direct message: search a member, write with the counter, send to the thread", async ({ page, javaScriptEnabled }) => {
    test.setTimeout(60_000);
    const phone = ukMobile();
    await textIn(page, phone, "JOIN");
    await waitForText(page, phone, (b) => /YES/i.test(b));
    await textIn(page, phone, "YES");
    await waitForText(page, phone, (b) => /welcome/i.test(b));
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/newdirectmessage");
    const search = page.getByLabel("Find a member");
    await search.fill(nationalMobile(phone));
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Search" }).click();
    const choice = page.locator("#dm-choices .dm-row");
    await expect(choice).toHaveCount(1);
    await choice.click();
    await expect(page).toHaveURL(/\/newdirectmessage\?id=\d+$/);
    await page.getByLabel("Message").fill("Your order is ready");
    if (javaScriptEnabled) await expect(page.locator(".dm-counter")).toContainText("19 of 1600 characters");
    await page.getByRole("button", { name: "Send text" }).click();
    await expect(page).toHaveURL(/\/member\/messages\?id=\d+$/);
    await expect(page.getByText("Your text is on its way.")).toBeVisible();
    await expect(page.locator("#dm-thread")).toContainText("Your order is ready");
  });
});
