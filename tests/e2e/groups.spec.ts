// Groups and import in a real browser, JavaScript on and off: import a small CSV (map, consent,
// report), then build a smart group that finds the imported member, count it, save it and see it on
// /groups; the join-us page shows its QR code.
import { expect, test } from "@playwright/test";
import { DEMO, expectAccessible, login, nationalMobile, ukMobile } from "./support";

test.describe("groups and import", () => {
  test("import a CSV, then a smart group finds the member", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const name = `Zed${Math.random().toString(36).slice(2, 8)}`;
    const phone = ukMobile();
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    // 1. import
    await page.goto("/mycommunity/import");
    await expectAccessible(page, testInfo);
    await page.getByLabel("CSV file").setInputFiles({
      name: "members.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`Mobile,First name\n${nationalMobile(phone)},${name}\nnot a number,Nobody\n`),
    });
    await page.getByRole("button", { name: "Upload and check" }).click();
    await expect(page.getByRole("heading", { name: "Match your columns" })).toBeVisible();
    await expect(page.getByRole("cell", { name })).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByLabel("I confirm that everyone in this file has agreed to get texts from my business.").check();
    await page.getByRole("button", { name: "Import 2 rows" }).click();
    await expect(page.getByText("1 member added")).toBeVisible();
    await expect(page.getByText("1 row without a valid UK mobile number", { exact: true })).toBeVisible();

    // 2. smart group
    await page.goto("/groups");
    await page.getByLabel("Group name").fill(`Smart ${name}`);
    await page.getByLabel("Smart group").check();
    await page.getByRole("button", { name: "Make group" }).click();
    await expect(page.getByRole("heading", { name: "New smart group" })).toBeVisible();
    await page.getByLabel("Member detail").selectOption("firstName");
    await page.getByLabel("Comparison").selectOption("equals");
    await page.getByLabel("Value").fill(name);
    if (testInfo.project.use.javaScriptEnabled === false) await page.getByRole("button", { name: "Count members" }).click();
    await expect(page.getByText("1 subscribed member matches.")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Make smart group" }).click();
    await expect(page.getByText("Group made.")).toBeVisible();
    await page.goto("/groups");
    await expect(page.getByRole("link", { name: `Smart ${name}` })).toBeVisible();
    await expectAccessible(page, testInfo);

    // 3. join-us
    await page.goto("/joinus");
    await expect(page.getByRole("img", { name: /QR code that opens a text with JOIN/ })).toBeVisible();
    await expectAccessible(page, testInfo);
  });
});
