import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { ADMIN_ACCESS_MINUTES, consumeAdminAccessToken, createAdminAccessToken } from "~/domain/accounts/admin-access.server";
import { sha256 } from "~/lib/crypto.server";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness, createUser } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

const now = new Date("2026-11-21T14:05:00Z");

describe.each(DIALECTS)("admin access tokens (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("stores only a hash, works once, and only within 10 minutes", async () => {
    const businessId = await createBusiness(t.db);
    const user = await createUser(t.db, businessId);
    const created = (await createAdminAccessToken(t.db, user.email.toUpperCase(), now))!;
    expect(created.userId).toBe(user.id);
    expect(created.expiresAt.getTime() - now.getTime()).toBe(ADMIN_ACCESS_MINUTES * 60_000);
    const row = await t.db.selectFrom("admin_access_tokens").selectAll().where("user_id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.id).toBe(sha256(created.token));
    expect(row.id).not.toContain(created.token);

    expect(await consumeAdminAccessToken(t.db, created.token, new Date(now.getTime() + 60_000))).toBe(user.id);
    expect(await consumeAdminAccessToken(t.db, created.token, new Date(now.getTime() + 61_000))).toBeNull();

    const late = (await createAdminAccessToken(t.db, user.email, now))!;
    expect(await consumeAdminAccessToken(t.db, late.token, new Date(now.getTime() + ADMIN_ACCESS_MINUTES * 60_000))).toBeNull();
  });

  it("lets only one of two simultaneous uses through", async () => {
    const businessId = await createBusiness(t.db);
    const user = await createUser(t.db, businessId);
    const { token } = (await createAdminAccessToken(t.db, user.email, now))!;
    const results = await Promise.all([consumeAdminAccessToken(t.db, token, now), consumeAdminAccessToken(t.db, token, now)]);
    expect(results.filter((r) => r === user.id)).toHaveLength(1);
    expect(results.filter((r) => r === null)).toHaveLength(1);
  });

  it("makes no token for an unknown or disabled user, and refuses junk", async () => {
    const businessId = await createBusiness(t.db);
    const disabled = await createUser(t.db, businessId, { disabled: true });
    expect(await createAdminAccessToken(t.db, "nobody@example.test", now)).toBeNull();
    expect(await createAdminAccessToken(t.db, disabled.email, now)).toBeNull();
    expect(await consumeAdminAccessToken(t.db, "short", now)).toBeNull();
    expect(await consumeAdminAccessToken(t.db, "x".repeat(43), now)).toBeNull();
  });
});

describe("/adminaccess/{token}", () => {
  const t = useTestApp();

  it("signs in as the customer with the admin banner, once; a second use is refused with 403", async () => {
    const account = await createAccount(t.app.db);
    const { token } = (await createAdminAccessToken(t.app.db, account.email, new Date()))!;
    const admin = t.app.client();
    const res = await admin.get(`/adminaccess/${token}`);
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const home = await admin.get("/");
    expect(home.status).toBe(200);
    const html = await home.text();
    expect(html).toMatch(/<form[^>]*action="\/logout\?admin=1"/);
    expect(pageText(html)).toContain("Admin access: signed in as Sam Tester");
    const session = await t.app.db.selectFrom("sessions").select("admin_access").innerJoin("users", "users.id", "sessions.user_id").where("users.email", "=", account.email).execute();
    expect(session).toEqual([{ admin_access: 1 }]);

    const again = await t.app.client().get(`/adminaccess/${token}`);
    expect(again.status).toBe(403);
    expect(pageText(await again.text())).toContain("This admin access link cannot be used");
    expect(again.headers.getSetCookie().some((c) => c.startsWith("tc_session=") && !c.startsWith("tc_session=;"))).toBe(false);
  });

  it("refuses an expired or made-up token with a clear 403 page", async () => {
    const account = await createAccount(t.app.db);
    const { token } = (await createAdminAccessToken(t.app.db, account.email, new Date(Date.now() - 11 * 60_000)))!;
    for (const path of [`/adminaccess/${token}`, "/adminaccess/not-a-real-token-at-all-1234567890", "/adminaccess/%3Cscript%3E"]) {
      const res = await t.app.client().get(path);
      expect(res.status).toBe(403);
      expect(pageText(await res.text())).toContain("has already been used, or is more than 10 minutes old");
    }
  });

  it("an ordinary sign-in has no admin banner, and Sign out ends the session", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.login(account.email, account.password);
    const html = await (await client.get("/")).text();
    expect(html).not.toContain("/logout?admin=1");
    const out = await client.post("/logout", {});
    expect(out.status).toBe(302);
    expect(out.headers.get("location")).toBe("/login");
    expect((await client.get("/")).headers.get("location")).toBe("/login");
  });

  it("npm run admin:access prints a working link for the given email", async () => {
    const account = await createAccount(t.app.db);
    const out = execFileSync(process.execPath, ["scripts/admin-access.mjs", account.email], {
      env: { PATH: process.env.PATH, DATABASE_URL: t.app.testDb.url, PUBLIC_URL: t.app.url, SESSION_SECRET: "test-secret-test-secret-test-secret-123" },
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    }).trim();
    expect(out).toMatch(new RegExp(`^${t.app.url.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}/adminaccess/[A-Za-z0-9_-]{43}$`));
    const client = t.app.client();
    const res = await client.get(new URL(out).pathname);
    expect(res.status).toBe(302);
    expect(pageText(await (await client.get("/")).text())).toContain("Admin access: signed in as");
  }, 30_000);
});
