// API keys in a real browser, JavaScript on and off: the owner makes a key and sees it once (with JavaScript a
// copy button), the key works on the public API, the list shows it by its last four characters afterwards, and
// disable, roll (with a grace period) and delete (after confirming) do what they say. Every screen passes axe-core.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { DEMO, expectAccessible, login, screenshots } from "./support";

test.describe("API keys", () => {
  test("the owner makes a key, copies it once, uses it, disables, rolls and deletes it", async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const js = testInfo.project.name === "js";
    const name = `Till ${testInfo.project.name} ${crypto.randomBytes(2).toString("hex")}`;
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/myaccount");
    await page.getByRole("link", { name: "API keys" }).click();
    await expect(page).toHaveURL(/\/manageintegrations\/apikeys$/);
    await expect(page.getByRole("heading", { level: 1, name: "API keys" })).toBeVisible();
    await expectAccessible(page, testInfo);

    // No permission at all is refused (in the browser with JavaScript, by the server without).
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("button", { name: "Make the key" }).click();
    await expect(page.getByText("Choose at least one permission: members or messaging.")).toBeVisible();
    await expectAccessible(page, testInfo);

    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByRole("group", { name: "Member permission" }).getByLabel("Write").check();
    await page.getByRole("group", { name: "Messaging permission" }).getByLabel("Read").check();
    await page.getByRole("button", { name: "Make the key" }).click();
    await expect(page.getByText(`Your new key “${name}”`)).toBeVisible();
    const secret = await page.getByLabel("API key", { exact: true }).inputValue();
    expect(secret).toMatch(/^tc_live_[0-9A-Za-z]{38}$/);
    if (js) {
      await page.getByRole("button", { name: "Copy the key" }).click();
      await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
    } else {
      await expect(page.getByRole("button", { name: "Copy the key" })).toHaveCount(0);
      await expect(page.getByText("Select the key in the box and copy it.")).toBeVisible();
    }
    await expectAccessible(page, testInfo);
    await screenshots(page, "apikeys-secret", testInfo);

    // The key works on the public API.
    const members = await page.request.get("/api/v1/members", { headers: { Authorization: `Bearer ${secret}` } });
    expect(members.status()).toBe(200);

    // Shown once: a fresh visit lists it by its last four characters only.
    await page.goto("/manageintegrations/apikeys");
    const item = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name }) });
    await expect(item.getByText(`tc_live_…${secret.slice(-4)}`)).toBeVisible();
    await expect(page.getByLabel("API key", { exact: true })).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await screenshots(page, "apikeys-list", testInfo);

    await item.getByRole("button", { name: `Disable “${name}”` }).click();
    await expect(item.getByText("Disabled", { exact: true })).toBeVisible();
    expect((await page.request.get("/api/v1/members", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(401);
    await item.getByRole("button", { name: `Enable “${name}”` }).click();
    await expect(item.getByText("Enabled", { exact: true })).toBeVisible();

    await item.getByLabel("The old secret keeps working for").selectOption("3600");
    await item.getByRole("button", { name: `Roll “${name}”` }).click();
    await expect(page.getByText(`The new secret for “${name}”`)).toBeVisible();
    const rolled = await page.getByLabel("API key", { exact: true }).inputValue();
    expect(rolled).not.toBe(secret);
    expect((await page.request.get("/api/v1/members", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(200);
    expect((await page.request.get("/api/v1/members", { headers: { Authorization: `Bearer ${rolled}` } })).status()).toBe(200);
    await expectAccessible(page, testInfo);

    await page.goto("/manageintegrations/apikeys");
    await expect(item.getByText(`ending …${secret.slice(-4)} still works until`)).toBeVisible();
    await item.getByRole(js ? "button" : "link", { name: `Delete “${name}”` }).click();
    await expect(page.getByRole("heading", { name: `Delete the key “${name}”?` })).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Delete the key" }).click();
    await expect(page.getByText("The key is deleted.")).toBeVisible();
    await expect(page.getByRole("heading", { name })).toHaveCount(0);
    expect((await page.request.get("/api/v1/members", { headers: { Authorization: `Bearer ${rolled}` } })).status()).toBe(401);

    // The reference, made from the OpenAPI document.
    await page.getByRole("link", { name: "API reference" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "POST /api/v1/members", exact: true })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "apikeys-reference", testInfo);
  });
});
