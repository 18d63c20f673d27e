// Sign-up (info, PIN read from the simulator, password, terms) -> onboarding (/welcome, get a
// number) -> home, in a real browser with JavaScript on and off.
import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, login, nationalMobile, readPin, screenshots, simMessages, uniqueCompany, uniqueEmail, ukMobile } from "./support";

async function fillInfo(page: Page, info: { company: string; name: string; email: string; mobile: string }) {
  await page.getByLabel("Business name").fill(info.company);
  await page.getByLabel("Your name").fill(info.name);
  await page.getByLabel("Email address").fill(info.email);
  await page.getByLabel("Mobile number").fill(info.mobile);
  await page.getByRole("button", { name: "Text me a code" }).click();
}

test.describe("sign-up", () => {
  test("sign up with the texted PIN, get a number, land on home", async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const company = uniqueCompany();
    const email = uniqueEmail("owner");
    const mobile = ukMobile();
    const password = "Garden-path-73";

    await page.goto("/login");
    await page.getByRole("link", { name: "Create an account" }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole("heading", { level: 1, name: "Create your Textcircle account" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "signup", testInfo);

    // Step 1: info. Nothing has been texted to this phone yet.
    expect(await simMessages(page, mobile)).toEqual([]);
    await fillInfo(page, { company, name: "Priya Patel", email, mobile: nationalMobile(mobile) });

    // Step 2: the PIN, as texted to the virtual phone.
    await expect(page).toHaveURL(/\/signup\/verify$/);
    await expect(page.getByRole("heading", { level: 1, name: "Check your phone" })).toBeVisible();
    const pin = await readPin(page, mobile);
    expect(pin).toMatch(/^\d{6}$/);
    await expectAccessible(page, testInfo);
    await page.getByLabel("Verification code").fill(pin);
    await page.getByRole("button", { name: "Check code" }).click();

    // Step 3: password.
    await expect(page).toHaveURL(/\/signup\/secure$/);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill(password);
    await page.getByRole("button", { name: "Continue" }).click();

    // Step 4: terms.
    await expect(page).toHaveURL(/\/signup\/terms$/);
    await expectAccessible(page, testInfo);
    await page.getByLabel("I have read and accept the Textcircle terms and conditions").check();
    await page.getByRole("button", { name: "Create my account" }).click();

    // Onboarding: signed in, asked to get a number; home is not reachable yet.
    await expect(page).toHaveURL(/\/welcome$/);
    await expect(page.getByRole("heading", { level: 1, name: `Welcome, ${company}` })).toBeVisible();
    await expect(page.getByText("Welcome to Textcircle! Your account is ready.")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.goto("/");
    await expect(page).toHaveURL(/\/welcome$/);
    await page.getByRole("button", { name: "Get my number" }).click();

    await expect(page).toHaveURL(/\/welcome\/success$/);
    await expect(page.getByRole("heading", { level: 1, name: "Your number is ready" })).toBeVisible();
    const number = (await page.locator("[data-number]").innerText()).trim();
    expect(number.replace(/\s/g, "")).toMatch(/^(\+44|0)7700900\d{3}$/);
    await expectAccessible(page, testInfo);
    await page.getByRole("link", { name: "Go to your home screen" }).click();

    // Home: the new business, and the account signs in again with its new password.
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
    await expectAccessible(page, testInfo);

    await page.context().clearCookies();
    await login(page, email, password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: company })).toBeVisible();
  });

  test("invalid details show errors beside the fields and keep the values", async ({ page }, testInfo) => {
    const expectError = async (label: string, value: string, message: string) => {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(input).toHaveValue(value);
      await expect(page.locator(".field", { has: input }).locator(".field__errors")).toHaveText(message);
    };
    await page.goto("/signup");
    await fillInfo(page, { company: "<b>Cafe</b>", name: "Priya Patel", email: "priya@", mobile: "12345" });
    await expect(page).toHaveURL(/\/signup$/);
    await expectError("Business name", "<b>Cafe</b>", "This can only use letters, numbers, spaces and everyday punctuation. Remove symbols such as < > { } # or @.");
    await expectError("Email address", "priya@", "Enter a valid email address");
    await expect(page.getByLabel("Your name")).toHaveValue("Priya Patel");
    await expect(page.getByLabel("Your name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Mobile number")).toHaveValue("12345");
    await expectAccessible(page, testInfo);

    // With the other fields right, the server checks the mobile number (the browser does not ship the
    // phone-number library) and answers beside the field, keeping everything typed.
    const email = uniqueEmail("fix");
    await fillInfo(page, { company: uniqueCompany(), name: "Priya Patel", email, mobile: "12345" });
    await expect(page).toHaveURL(/\/signup$/);
    await expectError("Mobile number", "12345", "Enter a UK mobile number: 11 digits starting with 07, for example 07400 123456");
    await expect(page.getByLabel("Email address")).toHaveValue(email);
    await expect(page.getByLabel("Business name")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("heading", { level: 1, name: "Create your Textcircle account" })).toBeVisible();
  });
});
