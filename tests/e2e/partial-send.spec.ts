// Running out of credit in a group message, in a real browser with JavaScript on and off: a trial owner with 5
// credits left writes to all 8 subscribers; the preview says the credit is short and offers "Send to the first 5
// of 8 members" or "Increase my plan first"; sending to the first 5 says so, the list says 3 were left out, and
// the left-out page names them. Every screen passes axe-core.
import crypto from "node:crypto";
import { expect, test } from "@playwright/test";
import { createTrialOwner, DEMO, expectAccessible, login, screenshots, ukMobile, withDb } from "./support";

/** A trial business of its own with 5 credits left, a number, no quiet hours and 8 subscribed members. */
function createShortTrial(): { email: string } {
  const { email, businessId } = createTrialOwner({
    prefix: "partial",
    company: `E2E Bakery ${crypto.randomBytes(3).toString("hex")}`,
    ownerName: "Bea Baker",
    credits: 5,
    phoneNumber: `+447700${crypto.randomInt(800000, 899999)}`,
    noQuietHours: true,
  });
  withDb((db) => {
    const now = new Date().toISOString();
    const member = db.prepare(
      `INSERT INTO members (business_id, phone, first_name, status, unique_ref, joined_at, created_at, updated_at) VALUES (?, ?, ?, 'SUBSCRIBED', ?, ?, ?, ?)`,
    );
    for (let i = 1; i <= 8; i++) member.run(businessId, ukMobile(), `Patron${i}`, crypto.randomBytes(16).toString("base64url"), now, now, now);
  });
  return { email };
}

test.describe("group message short of credit", () => {
  test("the owner sends to the first 5 of 8 members and sees who was left out", async ({ page }, testInfo) => {
    test.setTimeout(60_000);
    const { email } = createShortTrial();
    await login(page, email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/newgroupmessage");
    await page.getByLabel("Message text").fill(`Fresh sourdough at 4pm ${testInfo.project.name}`);
    await page.getByRole("button", { name: "Next: schedule" }).click();
    await expect(page).toHaveURL(/\/newgroupmessage\/schedule\?draft=\d+$/);
    await page.getByRole("button", { name: "Next: preview" }).click();
    await expect(page).toHaveURL(/\/newgroupmessage\/preview\?draft=\d+$/);

    await expect(page.getByTestId("summary")).toContainText("This sends 8 texts and uses 8 credits.");
    await expect(page.getByText("Not enough credit for everyone in this group")).toBeVisible();
    await expect(page.getByRole("link", { name: "Increase my plan first" })).toHaveAttribute("href", "/changesubscription");
    await expect(page.getByRole("button", { name: "Send group message" })).toHaveCount(0);
    await expectAccessible(page, testInfo);
    await screenshots(page, "partial-send-preview", testInfo);

    await page.getByRole("button", { name: "Send to the first 5 of 8 members" }).click();
    await expect(page.getByText("Your group message is on its way to the members your credit covered.")).toBeVisible();
    const note = page.getByTestId("left-out-note").first();
    await expect(note).toContainText("Sent to 5: 3 members were left out because the credit ran out.");
    await expectAccessible(page, testInfo);
    await screenshots(page, "partial-send-list", testInfo);

    await note.getByRole("link", { name: "See who was left out" }).click();
    await expect(page.getByRole("heading", { name: "Members left out" }).first()).toBeVisible();
    await expect(page.getByTestId("left-out-member")).toHaveCount(3);
    for (const n of ["Patron6", "Patron7", "Patron8"]) await expect(page.getByText(n)).toBeVisible();
    await expectAccessible(page, testInfo);
    await screenshots(page, "partial-send-left-out", testInfo);
  });
});
