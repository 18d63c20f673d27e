// Login in a real browser, with JavaScript on and off (the two Playwright projects).
import { expect, test } from "@playwright/test";
import { createDemoTeamUser, DEMO, expectAccessible, login, screenshots, userRow } from "./support";

test.describe("login", () => {
  test("the demo owner signs in and lands on home", async ({ page }, testInfo) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in to Textcircle" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "login", testInfo);

    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1, name: DEMO.company })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
    // The language choice is on signed-in pages too.
    await expect(page.getByRole("navigation", { name: "Language" }).getByRole("link", { name: "Français" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "home", testInfo);

    // Signed in: the login page sends the user home.
    await page.goto("/login");
    await expect(page).toHaveURL(/\/$/);
  });

  test("invalid input shows errors beside the fields and keeps the values", async ({ page }, testInfo) => {
    await page.goto("/login");
    await page.getByLabel("Email address").fill("not-an-email");
    await page.getByLabel("Password").fill("Whatever-1");
    await page.getByRole("button", { name: "Sign in" }).click();

    const email = page.getByLabel("Email address");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveValue("not-an-email");
    // The message sits beside its field and is announced with it (aria-describedby).
    const emailErrorId = await email.getAttribute("aria-describedby");
    expect(emailErrorId).toBeTruthy();
    await expect(page.locator(`[id="${emailErrorId}"]`)).toHaveText("Enter a valid email address");
    await expect(page.locator(".field", { has: email }).locator(".field__errors")).toHaveText("Enter a valid email address");
    await expect(page.getByLabel("Password")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/login$/);
    await expectAccessible(page, testInfo);
  });

  test("an empty form shows a required message beside each field", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Sign in" }).click();
    for (const [label, message] of [
      ["Email address", "Email address is required"],
      ["Password", "Password is required"],
    ]) {
      const input = page.getByLabel(label);
      await expect(input).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator(`[id="${await input.getAttribute("aria-describedby")}"]`)).toHaveText(message);
    }
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a wrong password is refused and the email kept", async ({ page }, testInfo) => {
    await login(page, DEMO.email, "Wrong-pass-1");
    await expect(page.getByText("The email address or password is not right.")).toBeVisible();
    await expect(page.getByLabel("Email address")).toHaveValue(DEMO.email);
    // Without JavaScript the server re-renders the form and never sends the password back.
    if (testInfo.project.name === "no-js") await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("5 wrong passwords lock the account (UA004), even for the right password", async ({ page }) => {
    const user = createDemoTeamUser();
    for (let i = 1; i <= 4; i++) {
      await login(page, user.email, `Wrong-pass-${i}`);
      await expect(page.getByText("The email address or password is not right.")).toBeVisible();
    }
    await login(page, user.email, "Wrong-pass-5");
    const locked = "Your account is locked after too many failed attempts. Try again in 15 minutes.";
    await expect(page.getByText(locked)).toBeVisible();
    expect(userRow(user.email)?.locked_until).toBeTruthy();

    await login(page, user.email, user.password);
    await expect(page.getByText(locked)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });
});
