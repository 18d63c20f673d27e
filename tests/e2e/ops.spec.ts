// Support chat and the operator console in a real browser, JavaScript on and off: an owner asks for help in
// the chat, an operator answers in the console and the owner sees the answer (without a reload when
// JavaScript is on); an operator opens admin access to the owner's account from a button, sees the banner,
// suspends the business and lifts it again, and finds it all in the audit log. Every screen passes axe-core.
import crypto from "node:crypto";
import { expect, test, type Browser, type TestInfo } from "@playwright/test";
import { createTrialOwner, DEMO, expectAccessible, login, screenshots, uniqueEmail, withDb } from "./support";

const OPERATOR_PASSWORD = "Console-pass-42";

/** A business of its own with its Administrator (the demo owner's password), so the two projects never meet. */
function createOwner(): { email: string; company: string; name: string } {
  const name = "Dora Deli";
  const { email, company } = createTrialOwner({ prefix: "chat", company: `E2E Deli ${crypto.randomBytes(3).toString("hex")}`, ownerName: name });
  return { email, company, name };
}

/** An operator with a password already chosen (what `npm run ops:create` and the first sign-in lead to). */
function createOperator(): { email: string } {
  const email = uniqueEmail("operator");
  const salt = crypto.randomBytes(16);
  const key = crypto.scryptSync(OPERATOR_PASSWORD.normalize("NFKC"), salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  const hash = `scrypt$16384$${salt.toString("base64url")}$${key.toString("base64url")}`;
  withDb((db) => {
    db.prepare("INSERT INTO operators (email, name, password_hash, must_change_password, created_at) VALUES (?, 'Olive Operator', ?, 0, ?)").run(email, hash, new Date().toISOString());
  });
  return { email };
}

/** A second browser of the same kind (JavaScript on or off) for the operator. */
async function operatorPage(browser: Browser, testInfo: TestInfo) {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, javaScriptEnabled: testInfo.project.use.javaScriptEnabled, locale: "en-GB" });
  const page = await context.newPage();
  const { email } = createOperator();
  await page.goto("/ops");
  await expect(page).toHaveURL(/\/ops\/login$/);
  await expect(page.getByRole("heading", { name: "Operator sign-in" })).toBeVisible();
  await expectAccessible(page, testInfo);
  await page.getByLabel("Email address").fill(email);
  await page.getByLabel("Password").fill(OPERATOR_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Businesses" })).toBeVisible();
  return { page, context };
}

test.describe("support chat and operator console", () => {
  test("an owner asks for help in the chat, an operator answers in the console, the owner sees the answer", async ({ page, browser }, testInfo) => {
    test.setTimeout(90_000);
    const js = testInfo.project.use.javaScriptEnabled !== false;
    const owner = createOwner();
    await login(page, owner.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    // The chat is reachable from the shell on every page.
    await page.getByText("More", { exact: true }).click();
    await page.getByRole("link", { name: "Support chat" }).click();
    await expect(page.getByRole("heading", { name: "Support chat", level: 1 })).toBeVisible();
    await expectAccessible(page, testInfo);
    const question = `How do I invite members? <b>${testInfo.project.name}</b>`;
    await page.getByLabel("Your message").fill(question);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    // Markup is shown as text.
    await expect(page.locator(".chat-msg__text").filter({ hasText: question })).toBeVisible();
    await expectAccessible(page, testInfo);

    const { page: ops, context } = await operatorPage(browser, testInfo);
    await ops.getByRole("link", { name: /Support inbox/ }).click();
    await expect(ops.getByRole("heading", { name: "Support inbox" })).toBeVisible();
    await expectAccessible(ops, testInfo);
    await ops.getByRole("link", { name: owner.company }).click();
    await expect(ops.getByText(question)).toBeVisible();
    await ops.getByRole("button", { name: "Assign to me" }).click();
    await expect(ops.getByText("Assigned to Olive Operator.")).toBeVisible();
    const answer = `Open Members, then Invite (${testInfo.project.name}).`;
    await ops.getByLabel("Your answer").fill(answer);
    await ops.getByRole("button", { name: "Send the answer" }).click();
    await expect(ops.locator(".chat-msg__text").filter({ hasText: answer })).toBeVisible();
    await expectAccessible(ops, testInfo);
    await screenshots(ops, "ops-chat", testInfo);

    // The owner sees the answer: while JavaScript is on without a reload (the chat polls every 10 s), else at the next load.
    if (!js) await page.reload();
    await expect(page.locator(".chat-msg__text").filter({ hasText: answer })).toBeVisible({ timeout: 20_000 });
    await screenshots(page, "agentchat", testInfo);
    // The home feed's support chat panel shows the last answer.
    await page.goto("/");
    await expect(page.locator(".feed-item--chat")).toContainText(answer);
    await context.close();
  });

  test("an operator opens admin access from a button, suspends the business and lifts it, all in the audit log", async ({ page, browser }, testInfo) => {
    test.setTimeout(90_000);
    const owner = createOwner();
    const { page: ops, context } = await operatorPage(browser, testInfo);
    await ops.getByLabel("Name or email").fill(owner.email);
    await ops.getByRole("button", { name: "Find" }).click();
    await ops.getByRole("link", { name: owner.company }).click();
    await expect(ops.getByRole("heading", { name: owner.company })).toBeVisible();
    await expectAccessible(ops, testInfo);
    await screenshots(ops, "ops-business", testInfo);

    await ops.getByRole("button", { name: `Open admin access as ${owner.email}` }).click();
    const link = ops.getByRole("link", { name: /\/adminaccess\// });
    await expect(link).toBeVisible();
    await expectAccessible(ops, testInfo);
    const href = (await link.getAttribute("href"))!;
    const visit = await context.newPage();
    await visit.goto(href);
    await expect(visit.getByRole("button", { name: `Admin access: signed in as ${owner.name}` }).or(visit.getByText(`Admin access: signed in as ${owner.name}`))).toBeVisible();
    await visit.close();

    // The owner knows: a notice on their home screen.
    await login(page, owner.email, DEMO.password);
    await expect(page.getByText("Textcircle support opened your account")).toBeVisible();
    await expectAccessible(page, testInfo);

    await ops.getByLabel("Suspend (for example while a payment or complaint is looked into)").check();
    await ops.getByLabel("Reason (kept in the audit log)").fill("End-to-end check");
    await ops.getByRole("button", { name: "Stop the business" }).click();
    await expect(ops.getByText("This business is Suspended.", { exact: false })).toBeVisible();
    // The owner is signed out and cannot sign in again.
    await page.goto("/");
    await expect(page).toHaveURL(/\/login/);
    await login(page, owner.email, DEMO.password);
    await expect(page.getByText("This account has been disabled. Please contact us.")).toBeVisible();

    await ops.getByRole("button", { name: "Lift" }).click();
    await expect(ops.getByRole("button", { name: "Stop the business" })).toBeVisible();
    await login(page, owner.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await ops.getByRole("link", { name: "This business in the audit log" }).click();
    await expect(ops.getByRole("heading", { name: "Audit log" })).toBeVisible();
    for (const action of ["Opened admin access", "Suspended the business", "Lifted the stop"]) await expect(ops.getByRole("cell", { name: action })).toBeVisible();
    await expectAccessible(ops, testInfo);
    for (const path of ["/ops/pipeline", "/ops/analytics", "/ops/replies"]) {
      await ops.goto(path);
      await expectAccessible(ops, testInfo);
      await screenshots(ops, `ops${path.replace(/\//g, "-")}`, testInfo);
    }
    await context.close();
  });
});
