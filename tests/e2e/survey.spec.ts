// A customer experience survey in a real browser, JavaScript on and off: the demo owner sets it up on its page,
// three members' phones text the keyword through the simulator and score it 10, 8 and 3, and the results page and
// the home panel show one promoter, one passive and one detractor, a score of 0, and (with JavaScript) the
// three-slice chart. The detractor's conversation opens unread. axe-core checks the pages.
import { expect, test, type Page } from "@playwright/test";
import { DEMO, expectAccessible, login, simMessages, subscribedPhones, textDemo } from "./support";

/** Waits until the phone has received a text matching `pattern`, after `since` texts it already had. */
async function waitForText(page: Page, phone: string, pattern: RegExp, since: number): Promise<void> {
  await expect
    .poll(async () => (await simMessages(page, phone)).slice(since).some((m) => pattern.test(m.body)), { timeout: 20_000, intervals: [500, 1000] })
    .toBe(true);
}

test.describe("customer experience survey", () => {
  let campaignId: number | null = null;
  test.afterEach(async ({ page }) => {
    // End the survey so its open questions never take the members' texts in other specs.
    if (campaignId !== null) await page.request.post(`/api/campaigns/${campaignId}/end`);
  });

  test("three phones score it by text; the results and the home panel show the score and the classes", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(60_000);
    const keyword = `RATE${testInfo.project.name === "js" ? "J" : "N"}${Date.now().toString(36).toUpperCase().slice(-6)}`;
    const name = `Survey ${keyword}`.slice(0, 40);
    const phones = subscribedPhones("newest").slice(0, 3);
    expect(phones).toHaveLength(3);
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/customerexp");
    await expectAccessible(page, testInfo);
    await page.getByLabel("Campaign name").fill(name);
    await page.getByLabel("Keyword").fill(keyword);
    await page.getByLabel("Introduction").fill("Thanks for visiting!");
    await page.getByLabel("Question 1: the score").fill("From 0 to 10, would you recommend us?");
    await page.getByLabel("Question 2 for a score of 0 to 6").fill("Sorry! What went wrong?");
    await page.getByLabel("Question 2 for a score of 7 to 10").fill("Great! What did you like?");
    await page.getByLabel("Thank you for a score of 0 to 6").fill("Thank you, we will do better.");
    await page.getByLabel("Thank you for a score of 7 to 10").fill("Thank you!");
    await page.getByRole("button", { name: /Create/ }).click();
    await expect(page).toHaveURL(/\/viewcampaign\?id=\d+/);
    campaignId = Number(new URL(page.url()).searchParams.get("id"));

    const scores = ["10", "8", "3"];
    for (const [i, phone] of phones.entries()) {
      const before = (await simMessages(page, phone)).length;
      await textDemo(page, phone, keyword.toLowerCase());
      await waitForText(page, phone, /From 0 to 10, would you recommend us\?/, before);
      const asked = (await simMessages(page, phone)).length;
      await textDemo(page, phone, scores[i]);
      await waitForText(page, phone, i === 2 ? /Sorry! What went wrong\?/ : /Great! What did you like\?/, asked);
    }

    await page.goto(`/viewcampaign?id=${campaignId}`);
    const main = page.getByRole("main");
    await expect(main).toContainText(name);
    await expect(main.getByRole("row", { name: /Promoters/ })).toContainText("1");
    await expect(main.getByRole("row", { name: /Passives/ })).toContainText("1");
    await expect(main.getByRole("row", { name: /Detractors/ })).toContainText("1");
    await expect(main.locator(".cv-nps__value")).toHaveText("0");
    await expectAccessible(page, testInfo);

    await page.goto("/");
    const panel = page.locator("article.feed-campaign", { hasText: name });
    await expect(panel).toHaveCount(1);
    await expect(panel).toContainText("Score 0");
    await expect(panel).toContainText("1 promoters, 1 passives, 1 detractors");
    if (javaScriptEnabled) await expect(panel.locator(".feed-chart svg")).toHaveCount(1);
    else await expect(panel.locator(".feed-chart svg")).toHaveCount(0);
    await expectAccessible(page, testInfo);
  });
});
