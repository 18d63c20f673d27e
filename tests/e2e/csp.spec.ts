// The Content-Security-Policy holds in a real browser: pages load, hydrate and refresh themselves without a
// single violation report, signed in and out.
import { expect, test, type Page } from "@playwright/test";
import { DEMO, login } from "./support";

const PUBLIC_PAGES = ["/login", "/signup", "/forgotten-login", "/simulator"];
const SIGNED_IN_PAGES = ["/", "/groups", "/mycommunity", "/memberattributes", "/invitemember", "/joinus", "/newgroupmessage", "/groupmessages", "/allgroupmessages", "/directmessages", "/myaccount"];

/** Collects every CSP violation the page reports, from the first script on. */
async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  await page.exposeFunction("__reportViolation", (v: string) => found.push(v));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { __reportViolation(v: string): void }).__reportViolation(`${e.violatedDirective} ${e.blockedURI} ${e.sample} on ${e.documentURI} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  page.on("console", (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) found.push(m.text());
  });
  return found;
}

test.describe("Content-Security-Policy", () => {
  test("no page breaks it, signed out or in", async ({ page }) => {
    const violations = await watchViolations(page);
    for (const path of PUBLIC_PAGES) {
      const res = await page.goto(path);
      expect(res?.headers()["content-security-policy"], path).toContain("nonce-");
      await page.waitForLoadState("networkidle");
    }
    await login(page, DEMO.email, DEMO.password);
    for (const path of SIGNED_IN_PAGES) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
    }
    expect(violations).toEqual([]);
  });
});
