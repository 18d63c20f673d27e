// Billing in a real browser, JavaScript on and off, as a new owner would meet it: a trial account referred by the
// demo business sees its trial meter and the referral discount, activates a plan with the payment simulator's
// card that asks for 3-D Secure, increases the plan mid-month after seeing the pro-rata price, finds both
// invoices in the payment history and downloads a VAT invoice PDF. Every screen passes axe-core.
import crypto from "node:crypto";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { DEMO, dbPath, expectAccessible, login, ukMobile, uniqueEmail } from "./support";

/** A trial business of its own (so the two projects never share a plan), referred by the demo business. */
function createReferredTrial(): { email: string } {
  const email = uniqueEmail("billing");
  const db = new Database(dbPath());
  db.pragma("busy_timeout = 5000");
  try {
    const demo = db.prepare("SELECT b.id, b.terms_version, u.password_hash FROM businesses b JOIN users u ON u.business_id = b.id WHERE u.email = ?").get(DEMO.email) as {
      id: number;
      terms_version: string;
      password_hash: string;
    };
    const now = new Date();
    const name = `E2E Florist ${crypto.randomBytes(3).toString("hex")}`;
    const id = Number(
      db
        .prepare(
          `INSERT INTO businesses (name, name_key, phone_number, onboarding, status, trial_credits, trial_ends_at, referral_code, referred_by_id, terms_version, created_at)
           VALUES (?, ?, NULL, 'COMPLETE', 'TRIAL', 50, ?, ?, ?, ?, ?)`,
        )
        .run(name, name.toLowerCase(), new Date(now.getTime() + 30 * 86400_000).toISOString(), `E2E${crypto.randomBytes(4).toString("hex")}`, demo.id, demo.terms_version, now.toISOString()).lastInsertRowid,
    );
    db.prepare("INSERT INTO credit_ledger (business_id, kind, pool, credits, reason, created_at, grant_key) VALUES (?, 'GRANT', 'TRIAL', 50, 'trial', ?, ?)").run(id, now.toISOString(), `trial:${id}`);
    db.prepare("INSERT INTO users (business_id, name, email, mobile, password_hash, role, created_at) VALUES (?, 'Fern Florist', ?, ?, ?, 'ADMIN', ?)").run(id, email, ukMobile(), demo.password_hash, now.toISOString());
  } finally {
    db.close();
  }
  return { email };
}

test.describe("billing", () => {
  test("a referred trial owner activates a plan with 3-D Secure, increases it and downloads a VAT invoice", async ({ page }, testInfo) => {
    test.setTimeout(90_000);
    const { email } = createReferredTrial();
    await login(page, email, DEMO.password);
    await expect(page).toHaveURL(/\/$/);

    await page.goto("/subscription");
    await expect(page.getByText("50 of 50 trial credits left")).toBeVisible();
    await expect(page.getByText("Thanks to a referral, £10.00 comes off your next payment.")).toBeVisible();
    await expectAccessible(page, testInfo);

    // A declined card first: nothing changes.
    await page.getByLabel("250 texts a month").check();
    await page.getByLabel("Name on the card").fill("Fern Florist");
    await page.getByLabel("Card number").fill("4000 0000 0000 0002");
    await page.getByLabel("Expiry date").fill("12/39");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Activate plan and pay" }).click();
    await expect(page.getByText("Your card was declined, so no money was taken.")).toBeVisible();
    await expectAccessible(page, testInfo);

    // The card that asks for 3-D Secure.
    await page.getByLabel("250 texts a month").check();
    await page.getByLabel("Name on the card").fill("Fern Florist");
    await page.getByLabel("Card number").fill("4000 0025 0000 3155");
    await page.getByLabel("Expiry date").fill("12/39");
    await page.getByLabel("Security code").fill("123");
    await page.getByRole("button", { name: "Activate plan and pay" }).click();
    await expect(page.getByRole("heading", { name: "Confirm your payment" })).toBeVisible();
    // £15 less the £10 referral discount, plus VAT.
    await expect(page.getByText("a payment of £6.00")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: "Confirm payment" }).click();
    await expect(page.getByText("0 of 250 texts used")).toBeVisible();
    await expectAccessible(page, testInfo);

    // Increase now, after seeing the price.
    await page.getByRole("link", { name: "Change plan" }).first().click();
    await page.getByLabel("Increase my plan now").check();
    await page.getByLabel("1,000 texts a month").check();
    await page.getByRole("button", { name: "See the price" }).click();
    await expect(page.getByText("To pay now")).toBeVisible();
    await expectAccessible(page, testInfo);
    await page.getByRole("button", { name: /^Pay £\d+\.\d\d with Visa/ }).click();
    await expect(page.getByText("0 of 1,000 texts used")).toBeVisible();

    // Both invoices, and one as a PDF.
    await page.goto("/paymenthistory");
    const invoices = page.getByRole("link", { name: /^INV-\d{6}$/ });
    await expect(invoices).toHaveCount(2);
    await expect(page.getByText("−£10.00")).toBeVisible();
    await expectAccessible(page, testInfo);
    const href = await invoices.last().getAttribute("href");
    const pdf = await page.request.get(href!);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");

    await page.goto("/referral");
    await expect(page.getByRole("heading", { name: "Refer a business" })).toBeVisible();
    await expectAccessible(page, testInfo);
  });
});
