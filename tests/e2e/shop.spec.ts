// The shop integration in a real browser, JavaScript on and off: the demo owner opens Integrations from My
// account, connects the shop simulator (a refused token first: BR038 with the reason), chooses a discount, then
// sends a group message with {{shopify.code}} (from the merge-tag picker with JavaScript). The send waits while
// the worker makes the codes, then each member gets a text with a code of their own: read from the SMS
// simulator's phones, and the same codes listed in the shop simulator, where one is marked redeemed.
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, simMessages, ensureDemoCredits } from "./support";

/** The demo business's subscribed members (db/seed.ts). */
const SUBSCRIBED = [
  { phone: "+447400900201", first: "Amelia" },
  { phone: "+447400900202", first: "Oliver" },
  { phone: "+447400900203", first: "Isla" },
  { phone: "+447400900204", first: "George" },
  { phone: "+447400900205", first: "Freya" },
];

function withDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

/** Group texts wait for the morning in quiet hours; this spec must pass at any hour (as groupmessages.spec.ts). */
function setQuietHours(hours: { start: string; end: string } | null): { start: string; end: string } {
  return withDb((db) => {
    const before = db.prepare("SELECT quiet_start AS start, quiet_end AS end FROM businesses WHERE phone_number = ?").get(DEMO.number) as { start: string; end: string };
    const next = hours ?? { start: "00:00", end: "00:00" };
    db.prepare("UPDATE businesses SET quiet_start = ?, quiet_end = ? WHERE phone_number = ?").run(next.start, next.end, DEMO.number);
    return before;
  });
}

/** Each run starts with no shop connected, and leaves none for the specs after it. */
function forgetShop(): void {
  withDb((db) => db.prepare("DELETE FROM shop_integrations WHERE business_id = (SELECT id FROM businesses WHERE phone_number = ?)").run(DEMO.number));
}

test.describe("shop discount codes", () => {
  let quiet: { start: string; end: string } | null = null;
  test.beforeEach(() => {
    quiet = setQuietHours(null);
    ensureDemoCredits(100);
    forgetShop();
  });
  test.afterEach(() => {
    if (quiet) setQuietHours(quiet);
    forgetShop();
  });

  test("connect the simulator shop, send {{shopify.code}} to a group, each member gets their own code", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(60_000);
    const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    // 1. My account → Integrations.
    await page.goto("/myaccount");
    await page.getByRole("link", { name: "Integrations" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Integrations" })).toBeVisible();
    await expectAccessible(page, testInfo);

    // 2. A refused token, then the right one.
    await page.getByLabel("Shop domain").fill("corner-cafe.myshopify.com");
    await page.getByLabel("Admin API access token").fill("shpat_invalid");
    await page.getByRole("button", { name: "Connect the shop" }).click();
    await expect(page.getByText("Your shop refused the access token.")).toBeVisible();
    // The server never sends a token back (without JavaScript the field comes back empty).
    if (!javaScriptEnabled) await expect(page.getByLabel("Admin API access token")).toHaveValue("");
    await page.getByLabel("Shop domain").fill("corner-cafe.myshopify.com");
    await page.getByLabel("Admin API access token").fill("shpat_e2e0000wxyz");
    await page.getByRole("button", { name: "Connect the shop" }).click();
    await expect(page.getByText("Your shop is connected.")).toBeVisible();
    await expect(page.getByTestId("shop-details")).toContainText("ending in wxyz");
    await page.getByLabel("Discount", { exact: true }).selectOption({ label: "Free delivery" });
    await page.getByRole("button", { name: "Use this discount" }).click();
    await expect(page.getByText("Members' codes will come from this discount.")).toBeVisible();
    await expectAccessible(page, testInfo);

    // 3. Compose with the tag (the picker offers it now), to all subscribers, now.
    await page.goto("/newgroupmessage");
    const box = page.getByLabel("Message text");
    const picker = page.getByRole("region", { name: "Merge tags" });
    const text = `Hi {{firstName}}, free delivery ${run} with code {{shopify.code}}`;
    if (javaScriptEnabled) {
      const insert = picker.getByRole("button", { name: "Insert Discount code" });
      await expect(insert).toBeVisible();
      await box.fill(`Hi {{firstName}}, free delivery ${run} with code `);
      await insert.click();
    } else {
      await expect(picker).toContainText("{{shopify.code}}");
      await box.fill(text);
    }
    await expect(box).toHaveValue(text);
    await page.getByRole("button", { name: "Next: schedule" }).click();
    await expect(page).toHaveURL(/\/newgroupmessage\/schedule\?draft=\d+$/);
    await page.getByRole("button", { name: "Next: preview" }).click();
    await expect(page.getByTestId("rendered")).toContainText(`free delivery ${run} with code ABCDE-23456`);
    await expectAccessible(page, testInfo);

    // 4. Send: it waits for its codes (the page refreshes itself), then goes out.
    await page.getByRole("button", { name: "Send group message" }).click();
    await expect(page).toHaveURL(/\/groupmessages\?groupId=-1/, { timeout: 30_000 });

    // 5. Each member's own code, at their phone.
    const codes = new Map<string, string>();
    for (const m of SUBSCRIBED) {
      await expect
        .poll(async () => (await simMessages(page, m.phone)).filter((s) => s.body.includes(run)).length, { timeout: 20_000, intervals: [500, 1000] })
        .toBe(1);
      const [sms] = (await simMessages(page, m.phone)).filter((s) => s.body.includes(run));
      const match = new RegExp(`^Hi ${m.first}, free delivery ${run} with code ([A-Z2-9]{5}-[A-Z2-9]{5})\\n`).exec(sms.body);
      expect(match, sms.body).not.toBeNull();
      codes.set(m.first, match![1]);
    }
    expect(new Set(codes.values()).size).toBe(SUBSCRIBED.length);

    // 6. The same codes in the shop simulator; one is marked redeemed.
    await page.goto("/shopsimulator");
    const table = page.getByTestId("sim-codes");
    for (const code of codes.values()) await expect(table).toContainText(code);
    await expectAccessible(page, testInfo);
    const amelia = codes.get("Amelia")!;
    await page.getByRole("button", { name: `Mark redeemed: ${amelia}` }).click();
    await expect(page.getByRole("row", { name: new RegExp(amelia) })).toContainText("Redeemed");

    // 7. The integrations page lists who got which code.
    await page.goto("/manageintegrations");
    await expect(page.getByRole("row", { name: new RegExp(codes.get("Oliver")!) })).toContainText("Oliver");
  });
});
