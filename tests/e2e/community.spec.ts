// Community in a real browser, JavaScript on and off: the owner adds a custom attribute, invites a
// member (the invitation text reaches the simulator phone), the member replies YES from the simulator and
// shows as subscribed, then edits their own details on /myinfo/{ref} (the public member form).
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, nationalMobile, simMessages, ukMobile } from "./support";

async function waitForText(page: Page, phone: string, match: (body: string) => boolean, timeoutMs = 20_000) {
  await expect
    .poll(async () => (await simMessages(page, phone)).some((m) => match(m.body)), { timeout: timeoutMs, intervals: [250, 500, 1000] })
    .toBe(true);
}

function memberRow(phone: string): { id: number; status: string; unique_ref: string; first_name: string | null } | undefined {
  const db = new Database(dbPath(), { readonly: true });
  try {
    return db.prepare("SELECT id, status, unique_ref, first_name FROM members WHERE phone = ?").get(phone) as never;
  } finally {
    db.close();
  }
}

test.describe("community", () => {
  test("custom attribute, invite, accept by text, subscribed, member edits their form", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const suffix = Math.random().toString(36).slice(2, 7);
    const attrName = `Table ${suffix}`;
    const fullName = `Robin Example ${suffix}`;
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    // 1. a custom attribute the member can edit on their form
    await page.goto("/memberattributes");
    await expect(page.getByRole("heading", { name: "Default attributes" })).toBeVisible();
    await page.getByLabel("Name").fill(attrName);
    await page.getByLabel("Type").selectOption("TEXT");
    await page.getByLabel("Show on member form").check();
    await page.getByLabel("Member can edit").check();
    await page.getByRole("button", { name: "Add attribute" }).click();
    await expect(page.getByText("Attribute added")).toBeVisible();
    await expect(page.getByText(attrName, { exact: true })).toBeVisible();
    await expectAccessible(page, testInfo);

    // 2. invite a member
    const phone = ukMobile();
    await page.goto("/invitemember");
    await page.getByLabel("Mobile number").fill(nationalMobile(phone));
    await page.getByLabel("First name (optional)").or(page.getByLabel("First name")).first().fill("Robin");
    await page.getByLabel("Full name").fill(fullName);
    await page.getByLabel(`${attrName} (optional)`).fill("Window seat");
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText("Invitation sent").first()).toBeVisible();
    await expect(page.getByRole("heading", { name: fullName })).toBeVisible();
    await expectAccessible(page, testInfo);
    await waitForText(page, phone, (b) => /reply YES/i.test(b));

    // 3. the member accepts from the simulator phone
    const res = await page.request.post("/simulator/api/inbound", { data: { from: phone, to: DEMO.number, body: "YES" } });
    expect(res.status()).toBe(201);
    await expect.poll(() => memberRow(phone)?.status, { timeout: 20_000 }).toBe("SUBSCRIBED");
    await waitForText(page, phone, (b) => /Welcome/i.test(b));
    await page.goto(`/mycommunity?tab=subscribed&q=${encodeURIComponent(fullName)}`);
    await expect(page.getByRole("link", { name: new RegExp(fullName) })).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("link", { name: new RegExp(fullName) }).click();
    await expect(page.getByText("Subscribed").first()).toBeVisible();

    // 4. the member edits their own form (public page, no login)
    const member = memberRow(phone)!;
    const visitor = await page.context().browser()!.newContext({ javaScriptEnabled: testInfo.project.use.javaScriptEnabled !== false, baseURL: testInfo.project.use.baseURL });
    const mp = await visitor.newPage();
    await mp.goto(`/myinfo/${member.unique_ref}`);
    await expect(mp.getByRole("heading", { name: /Your details for/ })).toBeVisible();
    await expect(mp.getByLabel(`${attrName} (optional)`)).toHaveValue("Window seat");
    await mp.getByLabel("First name").fill("<b>bad</b>");
    await mp.getByRole("button", { name: "Save my details" }).click();
    await expect(mp.getByText("This can only use letters, numbers, spaces and everyday punctuation. Remove symbols such as < > { } # or @.")).toBeVisible();
    await mp.getByLabel("First name").fill("Robyn");
    await mp.getByLabel(`${attrName} (optional)`).fill("By the door");
    await mp.getByRole("button", { name: "Save my details" }).click();
    await expect(mp.getByText("Your details are saved")).toBeVisible();
    await expect(mp.getByLabel(`${attrName} (optional)`)).toHaveValue("By the door");
    expect(memberRow(phone)?.first_name).toBe("Robyn");
    await visitor.close();
  });
});
