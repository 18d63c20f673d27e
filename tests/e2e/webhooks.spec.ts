// Outbound webhooks in a real browser, JavaScript on and off: an Administrator of a business of their own adds an
// endpoint, copies the signing secret shown once, sends a test event and finds it in the delivery log with its
// body, then deletes the endpoint after confirming; a private address is refused with a clear message (the e2e
// server runs in production mode); a team member is refused. Every screen passes axe-core.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { createDemoTeamUser, createTrialOwner, DEMO, expectAccessible, login } from "./support";

const PATH = "/manageintegrations/webhooks";

/** A business with its Administrator (the demo password), so the two projects never share endpoints. */
function createBusinessOwner(): { email: string } {
  return createTrialOwner({ prefix: "webhooks", company: `E2E Hooks ${crypto.randomBytes(3).toString("hex")}`, ownerName: "Hana Hook" });
}

test.describe("webhooks", () => {
  test("an Administrator adds an endpoint, sees the secret once, tests it, reads the log and deletes it", async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { email } = createBusinessOwner();
    await login(page, email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await page.goto(PATH);
    await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
    await expect(page.getByText("No endpoints yet.")).toBeVisible();
    await expectAccessible(page, testInfo);

    // A private address is refused in production, and nothing is saved.
    await page.getByLabel("Endpoint address").fill("https://192.168.1.20/hook");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    await expect(page.getByText("This address is on a private or local network")).toBeVisible();
    await expectAccessible(page, testInfo);

    const url = `https://hooks.example.test/${testInfo.project.name}`;
    await page.getByLabel("Endpoint address").fill(url);
    await page.getByLabel("Description (optional)").fill("Our CRM");
    await page.getByRole("button", { name: "Add endpoint" }).click();
    const secretBox = page.getByRole("textbox", { name: "Signing secret" });
    await expect(secretBox).toBeVisible();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await expect(page.getByText("it will not be shown again")).toBeVisible();
    await expectAccessible(page, testInfo);

    // Shown once: the page opened again shows only the last four characters.
    await page.goto(PATH);
    await expect(page.getByRole("textbox", { name: "Signing secret" })).toHaveCount(0);
    await expect(page.getByText(`whsec_…${secret.slice(-4)}`)).toBeVisible();
    await expect(page.locator(".webhook-endpoint__url")).toHaveText(url);

    await page.getByRole("button", { name: `Send a test event ${url}` }).click();
    await expect(page.getByText("Test event on its way")).toBeVisible();
    const log = page.getByRole("region", { name: "Delivery log" });
    await expect(log.getByText("webhook.test")).toBeVisible();
    await log.getByRole("link", { name: /View body/ }).first().click();
    await expect(page.locator(".webhook-payload")).toContainText('"type": "webhook.test"');
    await expect(page.locator(".webhook-payload")).toContainText("This is a test event from Textcircle.");
    await expectAccessible(page, testInfo);

    // Delete, after confirming (a dialog with JavaScript, a step in the page without).
    await page.goto(PATH);
    await page.locator(".webhook-endpoint").getByRole("button", { name: "Delete" }).or(page.locator(".webhook-endpoint").getByRole("link", { name: "Delete" })).click();
    await expect(page.getByRole("heading", { name: "Delete this endpoint?" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Delete endpoint" }).click();
    await expect(page.getByText("Endpoint deleted.")).toBeVisible();
    await expect(page.getByText("No endpoints yet.")).toBeVisible();
  });

  test("a team member is refused", async ({ page }) => {
    const team = createDemoTeamUser();
    await login(page, team.email, team.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto(PATH);
    await expect(page.getByText("Only your account administrator can do this")).toBeVisible();
  });
});
