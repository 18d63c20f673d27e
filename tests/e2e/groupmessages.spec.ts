// Group messages in a real browser, JavaScript on and off: the demo owner builds a smart group (visits
// this year more than 3: Amelia, Oliver and Isla in the demo seed), writes a text with merge tags (a
// member tag with a fallback and a custom attribute; with JavaScript the custom tag comes from the
// merge-tag picker), schedules it for tomorrow, checks the preview, then changes the text and sets it to
// send now while it is still pending. After the short "sending soon" pause (MESSAGE_SEND_DELAY_SECONDS
// in playwright.config.ts) each member of the group gets their own rendered text exactly once, the old
// text never, and members outside the group nothing (read from the simulator's phones).
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, simMessages } from "./support";

/** Demo members (db/seed.ts): the smart group holds those with more than 3 visits this year. */
const IN_GROUP = [
  { phone: "+447400900201", first: "Amelia", drink: "Flat white" },
  { phone: "+447400900202", first: "Oliver", drink: "Tea" },
  { phone: "+447400900203", first: "Isla", drink: "Hot chocolate" },
];
const OUTSIDE = ["+447400900204", "+447400900205"]; // George (1 visit), Freya (none)

/**
 * Group texts wait for the morning in quiet hours (21:00-08:00 UK); this spec must pass at any hour,
 * so the demo business has none while it runs (equal start and end), and gets its own back after.
 */
function setQuietHours(hours: { start: string; end: string } | null): { start: string; end: string } {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    const before = db.prepare("SELECT quiet_start AS start, quiet_end AS end FROM businesses WHERE phone_number = ?").get(DEMO.number) as { start: string; end: string };
    const next = hours ?? { start: "00:00", end: "00:00" };
    db.prepare("UPDATE businesses SET quiet_start = ?, quiet_end = ? WHERE phone_number = ?").run(next.start, next.end, DEMO.number);
    return before;
  } finally {
    db.close();
  }
}

/** Tomorrow's date in the UK, as a date input takes it (YYYY-MM-DD). */
function ukTomorrow(): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London", year: "numeric", month: "2-digit", day: "2-digit" }).format(new Date(Date.now() + 86_400_000));
}

test.describe("group messages", () => {
  let quiet: { start: string; end: string } | null = null;
  test.beforeEach(() => {
    quiet = setQuietHours(null);
  });
  test.afterEach(() => {
    if (quiet) setQuietHours(quiet);
  });

  test("schedule a merge-tag text to a smart group, change it while pending, each member gets their own text once", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(40_000);
    const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
    const groupName = `Regulars ${run}`;
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    // 1. The smart group, through the groups pages.
    await page.goto("/groups");
    await page.getByLabel("Group name").fill(groupName);
    await page.getByLabel("Smart group").check();
    await page.getByRole("button", { name: "Make group" }).click();
    await expect(page.getByRole("heading", { name: "New smart group" })).toBeVisible();
    await page.getByLabel("Member detail").selectOption({ label: "Visits this year" });
    // Without JavaScript the comparisons for a number appear once the page comes back.
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Count members" }).click();
    await page.getByLabel("Comparison").selectOption({ label: "is more than" });
    await page.getByLabel("Value").fill("3");
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Count members" }).click();
    await expect(page.getByText("3 subscribed members match.")).toBeVisible();
    await page.getByRole("button", { name: "Make smart group" }).click();
    await expect(page.getByText("Group made.")).toBeVisible();

    // 2. Compose: a member tag with a fallback and a custom attribute (from the picker with JavaScript).
    await page.goto("/newgroupmessage");
    const box = page.getByLabel("Message text");
    const picker = page.getByRole("region", { name: "Merge tags" });
    if (javaScriptEnabled) {
      // The picker's buttons appear once the page is interactive (typing before that is not kept by React).
      const insert = picker.getByRole("button", { name: "Insert Favourite drink" });
      await expect(insert).toBeVisible();
      await box.fill("Hi {{firstName|there}}, your ");
      await insert.click();
      await page.keyboard.type(` is on us next week ${run}`);
    } else {
      await expect(picker).toContainText("{{attr.favouriteDrink}}");
      await box.fill(`Hi {{firstName|there}}, your {{attr.favouriteDrink}} is on us next week ${run}`);
    }
    await expect(box).toHaveValue(`Hi {{firstName|there}}, your {{attr.favouriteDrink}} is on us next week ${run}`);
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Next: schedule" }).click();

    // 3. Who and when: the smart group, tomorrow at noon.
    await expect(page).toHaveURL(/\/newgroupmessage\/schedule\?draft=\d+$/);
    await page.getByLabel("Group").selectOption({ label: `${groupName} (3 members)` });
    await page.getByLabel("Schedule for later").check();
    await page.getByLabel("Date").fill(ukTomorrow());
    await page.getByLabel("Time (UK)").fill("12:00");
    await page.getByRole("button", { name: "Next: preview" }).click();

    // 4. Preview: the first member's own text (custom value rendered), three texts, three credits.
    await expect(page).toHaveURL(/\/newgroupmessage\/preview\?draft=\d+$/);
    // A marketing text without a way to stop gets the opt-out line, and the preview says so.
    await expect(page.getByTestId("rendered")).toHaveText(`Hi Amelia, your Flat white is on us next week ${run} Reply STOP to opt out`);
    await expect(page.getByTestId("opt-out-note")).toContainText("UK rules (PECR)");
    await expect(page.getByTestId("summary")).toContainText("This sends 3 texts and uses 3 credits.");
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Schedule group message" }).click();
    await expect(page.getByText("Your group message is scheduled.")).toBeVisible();

    // 5. Change it while pending: new text, send now.
    const item = page.locator(".gm-list__item", { hasText: run });
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Scheduled");
    await item.getByRole("link", { name: "Change" }).click();
    await expect(page.getByRole("heading", { name: "Change group message" })).toBeVisible();
    const edited = `Hi {{firstName|there}}, your {{attr.favouriteDrink|usual}} is on us today ${run}`;
    await page.getByLabel("Message text").fill(edited);
    await page.getByLabel("Send now").check();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Your group message is changed.")).toBeVisible();

    // 6. After the pause, each member gets their own text exactly once; nobody gets the old text.
    for (const m of IN_GROUP) {
      const expected = `Hi ${m.first}, your ${m.drink} is on us today ${run}\nReply STOP to opt out`;
      await expect
        .poll(async () => (await simMessages(page, m.phone)).filter((s) => s.body.includes(run)).map((s) => s.body), { timeout: 20_000, intervals: [500, 1000] })
        .toEqual([expected]);
    }
    // The worker has sent everything it will: give a duplicate a moment to show, then check again.
    await page.waitForTimeout(1500);
    for (const m of IN_GROUP) {
      const got = (await simMessages(page, m.phone)).filter((s) => s.body.includes(run));
      expect(got.map((s) => s.body)).toEqual([`Hi ${m.first}, your ${m.drink} is on us today ${run}\nReply STOP to opt out`]);
      expect(got[0].from).toBe(DEMO.number);
    }
    for (const phone of OUTSIDE) {
      expect((await simMessages(page, phone)).filter((s) => s.body.includes(run))).toEqual([]);
    }
    await page.reload();
    await expect(page.locator(".gm-list__item", { hasText: run })).not.toContainText("Scheduled");
  });
});
