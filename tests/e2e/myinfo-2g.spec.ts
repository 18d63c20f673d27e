// The member's page on a 2G phone connection: /myinfo/{ref} ships no JavaScript, so on a throttled
// link (Chromium's network emulation: 250 kbit/s each way, 300 ms round trip) it loads and its form
// posts within a few seconds. Chromium only (the throttling is a Chromium DevTools feature).
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { dbPath, DEMO } from "./support";

function demoMemberRef(): { ref: string; firstName: string } {
  const db = new Database(dbPath(), { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT m.unique_ref AS ref, coalesce(m.first_name, '') AS firstName FROM members m JOIN users u ON u.business_id = m.business_id
         WHERE u.email = ? AND m.status = 'SUBSCRIBED' ORDER BY m.id LIMIT 1`,
      )
      .get(DEMO.email) as { ref: string; firstName: string } | undefined;
    if (!row) throw new Error("no subscribed demo member: is SEED_DEMO on?");
    return row;
  } finally {
    db.close();
  }
}

test("/myinfo loads and saves within a few seconds on a 2G connection, with no scripts", async ({ page }) => {
  const { ref, firstName } = demoMemberRef();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 300, downloadThroughput: 250_000 / 8, uploadThroughput: 250_000 / 8 });
  const scripts: string[] = [];
  page.on("request", (r) => {
    if (r.resourceType() === "script") scripts.push(r.url());
  });

  const started = Date.now();
  await page.goto(`/myinfo/${ref}`, { waitUntil: "load" });
  const loaded = Date.now() - started;
  await expect(page.getByRole("heading", { name: /Your details for/ })).toBeVisible();
  expect(loaded, `page load took ${loaded} ms`).toBeLessThan(5_000);

  // Saved with the name it already has, so the demo data stays as it was.
  await page.getByLabel("First name").fill(firstName || "Sam");
  const posted = Date.now();
  await page.getByRole("button", { name: "Save my details" }).click();
  await expect(page.getByText("Your details are saved")).toBeVisible({ timeout: 10_000 });
  const saved = Date.now() - posted;
  expect(saved, `the post and the page after it took ${saved} ms`).toBeLessThan(5_000);
  expect(scripts).toEqual([]);
  test.info().annotations.push({ type: "2G timings", description: `load ${loaded} ms, save ${saved} ms` });
  console.log(`2G: load ${loaded} ms, save ${saved} ms`);
});
