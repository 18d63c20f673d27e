// HTTP: /termsupdated: an account on old terms is sent there, accepts, and goes home.
import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

describe("terms updated", () => {
  const t = useTestApp();

  it("sends an account on old terms to /termsupdated, and accepting records the current version", async () => {
    const account = await createAccount(t.app.db, { termsVersion: "2020-01-01" });
    const client = t.app.client();
    await client.login(account.email, account.password);
    const home = await client.get("/");
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/termsupdated");
    const page = await client.get("/termsupdated");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(pageText(html)).toContain("Our terms and conditions have changed");
    expect(pageText(html)).toContain("What has changed");
    expect(html).toContain('id="terms-text"');
    const res = await client.post("/termsupdated", {});
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const b = await t.app.db.selectFrom("businesses").select("terms_version").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(b.terms_version).toBe("2026-11-01");
    const after = await client.get("/");
    expect(after.status).toBe(200);
    expect(pageText(await after.text())).toContain("Thank you. You have accepted the new terms.");
    // Once accepted, the page is not shown again.
    expect((await client.get("/termsupdated")).headers.get("location")).toBe("/");
  });

  it("only changes the signed-in business", async () => {
    const mine = await createAccount(t.app.db, { termsVersion: "2020-01-01" });
    const other = await createAccount(t.app.db, { termsVersion: "2020-01-01" });
    const client = t.app.client();
    await client.login(mine.email, mine.password);
    expect((await client.post("/termsupdated", { businessId: String(other.businessId) })).status).toBe(302);
    const o = await t.app.db.selectFrom("businesses").select("terms_version").where("id", "=", other.businessId).executeTakeFirstOrThrow();
    expect(o.terms_version).toBe("2020-01-01");
  });

  it("refuses a post without the CSRF token and needs a session", async () => {
    const account = await createAccount(t.app.db, { termsVersion: "2020-01-01" });
    const client = t.app.client();
    await client.login(account.email, account.password);
    expect((await client.post("/termsupdated", {}, { csrf: false })).status).toBe(403);
    const b = await t.app.db.selectFrom("businesses").select("terms_version").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(b.terms_version).toBe("2020-01-01");
    const anon = await t.app.client().get("/termsupdated");
    expect(anon.status).toBe(302);
    expect(anon.headers.get("location")).toBe("/login?redirectTo=%2Ftermsupdated");
  });
});
