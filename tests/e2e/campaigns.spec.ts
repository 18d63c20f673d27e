// A quick poll in a real browser, JavaScript on and off: the demo owner creates a poll to every subscriber on the
// quick poll page, three members' phones get it from the simulator and vote by texting back (one changes its vote,
// which counts once, for the new answer), and the home feed panel, the live-campaigns tile and the results page show
// the right counts. axe-core checks every page visited.
import { expect, test } from "@playwright/test";
import { DEMO, expectAccessible, login, screenshots, simMessages, subscribedPhones, textDemo, withDb } from "./support";

/** Campaign texts wait for the morning in quiet hours; the spec must pass at any hour (as groupmessages.spec.ts). */
function setQuietHours(hours: { start: string; end: string } | null): { start: string; end: string } {
  return withDb((db) => {
    const before = db.prepare("SELECT quiet_start AS start, quiet_end AS end FROM businesses WHERE phone_number = ?").get(DEMO.number) as { start: string; end: string };
    const next = hours ?? { start: "00:00", end: "00:00" };
    db.prepare("UPDATE businesses SET quiet_start = ?, quiet_end = ? WHERE phone_number = ?").run(next.start, next.end, DEMO.number);
    return before;
  });
}

/** The id of the demo business's campaign of this name. */
function campaignIdByName(name: string): number {
  const row = withDb((db) => db.prepare("SELECT c.id FROM campaigns c JOIN businesses b ON b.id = c.business_id WHERE b.phone_number = ? AND c.name = ?").get(DEMO.number, name) as { id: number } | undefined);
  if (!row) throw new Error(`no campaign named ${name}`);
  return row.id;
}

/** The demo business's campaigns live or ongoing now (what the live-campaigns tile counts). */
function liveCampaigns(): number {
  return withDb((db) => (db.prepare("SELECT count(*) AS n FROM campaigns c JOIN businesses b ON b.id = c.business_id WHERE b.phone_number = ? AND c.status IN ('LIVE', 'ONGOING')").get(DEMO.number) as { n: number }).n);
}

/** A UK date `days` from now, as a date input takes it (YYYY-MM-DD). */
function ukDate(days: number): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + days * 86_400_000));
}

interface PollDetail {
  id: number;
  status: string;
  totalSent: number;
  totalReceived: number;
  responses: { response: string; total: number }[];
}

test.describe("campaigns", () => {
  let quiet: { start: string; end: string } | null = null;
  let campaignId: number | null = null;
  test.beforeEach(() => {
    quiet = setQuietHours(null);
    campaignId = null;
  });
  test.afterEach(async ({ page }) => {
    // End the poll so its open question never takes the members' texts in other specs.
    if (campaignId !== null) await page.request.post(`/api/campaigns/${campaignId}/end`);
    if (quiet) setQuietHours(quiet);
  });

  test("a quick poll to every subscriber: three phones vote, one changes its vote, results and home panel agree", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(55_000);
    const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
    const name = `Opening ${run}`.slice(0, 40);
    const phones = subscribedPhones("oldest");
    expect(phones.length, "the demo business has at least three subscribed members").toBeGreaterThanOrEqual(3);
    const voters = phones.slice(0, 3);
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    // 1. The owner creates the poll on the quick poll page: sent now to all subscribers, closing in three days.
    const question = `Should we open on Sundays ${run}? Reply 1 Yes or 2 No`;
    await page.goto("/quickpoll");
    await page.getByLabel("Campaign name").fill(name);
    await page.getByLabel("Send to").selectOption("-1");
    await page.getByLabel("Your question").fill(question);
    await page.getByLabel("Option 1", { exact: true }).fill("Yes");
    await page.getByLabel("Option 2", { exact: true }).fill("No");
    await page.getByLabel("Send now").check();
    const close = page.getByRole("group", { name: "Close date" });
    await close.getByLabel("Date").fill(ukDate(3));
    await close.getByLabel("Time (UK)").fill("18:00");
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Create campaign" }).click();
    await expect(page.getByText("Campaign created")).toBeVisible();
    const poll = { id: campaignIdByName(name) };
    campaignId = poll.id;

    // 2. Every voter's phone gets the question once.
    for (const phone of voters) {
      await expect
        .poll(async () => (await simMessages(page, phone)).filter((m) => m.body.includes(run)).length, { timeout: 20_000, intervals: [500, 1000] })
        .toBe(1);
    }

    // 3. They vote; the third changes its mind. Final: Yes 1, No 2.
    await textDemo(page, voters[0], "1");
    await textDemo(page, voters[1], "no");
    await textDemo(page, voters[2], "Yes");
    await textDemo(page, voters[2], "2");
    const detailOf = async () => (await (await page.request.get(`/api/campaigns/${poll.id}`)).json()) as PollDetail;
    await expect
      .poll(async () => {
        const d = await detailOf();
        return { received: d.totalReceived, responses: d.responses };
      }, { timeout: 15_000, intervals: [500, 1000] })
      .toEqual({
        received: 3,
        responses: [
          { response: "Yes", total: 1 },
          { response: "No", total: 2 },
        ],
      });
    const detail = await detailOf();
    expect(detail.totalSent).toBe(phones.length);

    // 4. The home feed panel: sent, replied, the top response and its share (text, with JavaScript on or off).
    await page.goto("/");
    const panel = page.locator("article.feed-campaign", { hasText: name });
    await expect(panel).toHaveCount(1);
    await expect(panel).toContainText(`Sent to ${phones.length} members`);
    await expect(panel).toContainText("3 replied");
    await expect(panel).toContainText("Top response: No (67%)");
    await expect(panel).toContainText(/\d+ (DAYS|DAY|HOURS) left/);
    if (javaScriptEnabled) await expect(panel.locator(".feed-chart svg")).toHaveCount(1);
    else await expect(panel.locator(".feed-chart svg")).toHaveCount(0);
    await expect(page.locator("#tile-campaigns [data-value]")).toHaveText(String(liveCampaigns()));
    await expectAccessible(page, testInfo);
    await panel.scrollIntoViewIfNeeded();
    await screenshots(page, "home-campaign-panel", testInfo);

    // 5. The results page, from the panel's link: the votes per option.
    await panel.getByRole("link", { name }).click();
    await expect(page).toHaveURL(new RegExp(`/viewcampaign\\?id=${poll.id}$`));
    const main = page.getByRole("main");
    await expect(main).toContainText(name);
    await expect(main.getByRole("row", { name: /^Yes\b/ })).toContainText("1");
    await expect(main.getByRole("row", { name: /^No\b/ })).toContainText("2");
    await expectAccessible(page, testInfo);
  });
});
