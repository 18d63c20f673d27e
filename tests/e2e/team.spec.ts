// The team in a real browser, JavaScript on and off, as a new user would meet it: the owner invites a team member
// by email on /manageteam, the invitee opens the link from the email outbox, types their details, confirms their
// mobile with the PIN from the SMS simulator and lands on home signed in; they reply to a member's text (the thread
// says who sent it), and the Administrator's screens answer them with the FB001 page. Every screen passes axe-core.
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, nationalMobile, readPin, screenshots, simMessages, ukMobile, uniqueEmail } from "./support";

const FORBIDDEN = "Only your account administrator can do this";

async function textIn(page: Page, from: string, body: string) {
  const res = await page.request.post("/simulator/api/inbound", { data: { from, to: DEMO.number, body } });
  expect(res.status()).toBe(201);
}

async function waitForText(page: Page, phone: string, match: (body: string) => boolean, timeoutMs = 20_000) {
  await expect
    .poll(async () => (await simMessages(page, phone)).some((m) => match(m.body)), { timeout: timeoutMs, intervals: [250, 500, 1000] })
    .toBe(true);
}

/** The member this conversation is with. */
function memberId(phone: string): number {
  const db = new Database(dbPath(), { readonly: true });
  try {
    return (db.prepare("SELECT id FROM members WHERE phone = ?").get(phone) as { id: number }).id;
  } finally {
    db.close();
  }
}

test.describe("team", () => {
  test("the owner invites a team member by email, who signs up from the link, replies to a DM and cannot change billing", async ({ page, javaScriptEnabled }, testInfo) => {
    test.setTimeout(120_000);
    const tag = javaScriptEnabled ? "js" : "nojs";
    // A member with something to answer.
    const memberPhone = ukMobile();
    await textIn(page, memberPhone, "JOIN");
    await waitForText(page, memberPhone, (b) => /YES/i.test(b));
    await textIn(page, memberPhone, "YES");
    await waitForText(page, memberPhone, (b) => /welcome/i.test(b));
    const question = `Can I book for four on Friday? ${tag}`;
    await textIn(page, memberPhone, question);

    // The owner invites by email.
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/manageteam");
    await expect(page.getByRole("heading", { level: 1, name: "Manage team" })).toBeVisible();
    const email = uniqueEmail("invitee");
    await page.getByLabel("Their email address").fill(email);
    await page.getByRole("button", { name: "Email the invitation" }).click();
    await expect(page.getByText("Invitation emailed.")).toBeVisible();
    const invites = page.locator("#team-invites-title").locator("xpath=ancestor::section[1]");
    await expect(invites).toContainText(email);
    // The same person again: BR045 beside the field.
    await page.getByLabel("Their email address").fill(email);
    await page.getByRole("button", { name: "Email the invitation" }).click();
    await expect(page.getByText("An invitation has already been sent to this person.")).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-manage", testInfo);

    // The link, from the email outbox.
    await page.goto("/outbox");
    const body = await page.locator(".outbox__item", { hasText: email }).first().locator("pre.outbox__body").textContent();
    const link = /(\/createaccount\/[A-Za-z0-9_-]+)/.exec(body ?? "")?.[1];
    expect(link, body ?? "").toBeTruthy();

    // The invitee, in a browser without the owner's session.
    await page.context().clearCookies();
    await page.goto(link!);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Join The Corner Café on Textcircle");
    await expect(page.getByLabel("Email address")).toHaveValue(email);
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-createaccount", testInfo);
    const mobile = ukMobile();
    const name = `Sam Helper ${tag === "js" ? "Js" : "Nojs"}`;
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("Mobile number").fill(nationalMobile(mobile));
    await page.getByLabel("Password", { exact: true }).fill("Sunny-day-42");
    await page.getByLabel("Confirm password").fill("Sunny-day-42");
    await page.getByRole("button", { name: "Text me a code" }).click();
    await expect(page).toHaveURL(/\/createaccount\/[A-Za-z0-9_-]+\/verify$/);
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-createaccount-verify", testInfo);
    await page.getByLabel("Verification code").fill(await readPin(page, mobile));
    await page.getByRole("button", { name: "Create my login" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Welcome to the team. You are signed in.")).toBeVisible();

    // The link is used up.
    const again = await page.request.get(link!);
    expect(again.status()).toBe(404);

    // A reply to the member's text.
    await page.goto(`/member/messages?id=${memberId(memberPhone)}`);
    await expect(page.locator("#dm-thread")).toContainText(question);
    const reply = `Yes, table for four at 7. ${tag}`;
    await page.getByLabel("Your reply").fill(reply);
    await page.getByRole("button", { name: "Send", exact: true }).click();
    await expect(page.getByText("Your text is on its way.")).toBeVisible();
    await expect(page.locator("#dm-thread li").last()).toContainText(reply);
    await expect(page.locator("#dm-thread li").last()).toContainText(`sent by ${name}`);
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-thread", testInfo);

    // Billing and the team are the Administrator's: the FB001 page.
    await page.goto("/subscription");
    await expect(page.getByText("Only your account administrator can change your monthly subscription.")).toBeVisible();
    for (const path of ["/changesubscription", "/manageteam"]) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(403);
      await expect(page.getByText(FORBIDDEN)).toBeVisible();
    }
    await expectAccessible(page, testInfo);

    // The owner again: the hand-over question (asked, then cancelled), then removing the new team member.
    await page.context().clearCookies();
    await login(page, DEMO.email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);
    await page.goto("/manageteam");
    const card = page.locator(".team-card", { hasText: name });
    await card.getByRole("button", { name: `Make administrator for ${name}` }).or(card.getByRole("link", { name: `Make administrator for ${name}` })).click();
    await expect(page.getByRole("heading", { name: `Make ${name} the account administrator?` })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-handover-question", testInfo);
    await page.getByRole("button", { name: "Cancel" }).or(page.getByRole("link", { name: "Cancel" })).first().click();
    await card.getByRole("button", { name: `Remove ${name}` }).or(card.getByRole("link", { name: `Remove ${name}` })).click();
    await expect(page.getByRole("heading", { name: `Remove ${name} from the team?` })).toBeVisible();
    await page.getByRole("button", { name: "Remove from the team" }).click();
    await expect(page.getByText("Team member removed and signed out.")).toBeVisible();
    await expect(page.locator(".team-card", { hasText: name })).toHaveCount(0);
  });

  test("an unknown or used invitation link shows the invalid-invitation page", async ({ page }, testInfo) => {
    const res = await page.goto(`/createaccount/${"Q".repeat(32)}`);
    expect(res?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "This invitation link is invalid or has expired" })).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "team-invalid", testInfo);
  });
});
