// HTTP: forgotten login: same answer for everyone, code to the account's mobile, new password,
// lockout cleared, sessions ended, signed in; re-issue cap; bad input; CSRF.
import { deliverQueued } from "../support/pipeline";
import { describe, expect, it } from "vitest";
import type { Database } from "#db/index";
import { parseUkMobile } from "~/lib/phone";
import { createAccount, ukMobile as baseMobile } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}
const attr = (v: string) => v.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const SENT = "If an account matches, we have texted a code to its mobile. It expires in 10 minutes.";

async function latestCode(db: Database, phone: string): Promise<string> {
  await deliverQueued(db);
  const row = await db.selectFrom("sim_messages").select("body").where("phone", "=", phone).orderBy("id", "desc").executeTakeFirst();
  const m = row ? /\b(\d{6})\b/.exec(row.body) : null;
  if (!m) throw new Error(`no code texted to ${phone}`);
  return m[1];
}

async function accountWithMobile(db: Database) {
  const account = await createAccount(db);
  const mobile = ukMobile();
  await db.updateTable("users").set({ mobile }).where("id", "=", account.id).execute();
  return { ...account, mobile };
}

describe("forgotten login", () => {
  const t = useTestApp();

  it("texts a code, sets the new password, clears the lockout, ends old sessions and signs in", async () => {
    const account = await accountWithMobile(t.app.db);
    const oldDevice = t.app.client();
    await oldDevice.login(account.email, account.password);
    expect((await oldDevice.get("/")).status).toBe(200);
    await t.app.db.updateTable("users").set({ failed_logins: 2, locked_until: new Date(Date.now() + 15 * 60_000).toISOString() }).where("id", "=", account.id).execute();

    const client = t.app.client();
    const page = await client.get("/forgotten-login");
    expect(page.status).toBe(200);
    expect(pageText(await page.text())).toContain("Email address or mobile number");
    const res = await client.post("/forgotten-login", { identifier: account.email.toUpperCase() });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/forgotten-login/verify");
    const verify = await client.get("/forgotten-login/verify");
    expect(verify.status).toBe(200);
    const verifyText = pageText(await verify.text());
    expect(verifyText).toContain(SENT);
    expect(verifyText).toContain("You can ask for 2 more codes this hour.");
    const code = await latestCode(t.app.db, account.mobile);

    const mismatch = await client.post("/forgotten-login/verify", { code, password: "Fresh-start9", confirmPassword: "Fresh-start8" });
    expect(mismatch.status).toBe(400);
    expect(pageText(await mismatch.text())).toContain("The passwords do not match");
    const weak = await client.post("/forgotten-login/verify", { code, password: "weakpass", confirmPassword: "weakpass" });
    expect(weak.status).toBe(400);
    expect(pageText(await weak.text())).toContain("Please follow the rules for a stronger password");
    const wrong = await client.post("/forgotten-login/verify", { code: code === "000000" ? "111111" : "000000", password: "Fresh-start9", confirmPassword: "Fresh-start9" });
    expect(wrong.status).toBe(400);
    expect(pageText(await wrong.text())).toContain("That verification code is not right.");

    const done = await client.post("/forgotten-login/verify", { code, password: "Fresh-start9", confirmPassword: "Fresh-start9" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(done.headers.getSetCookie().some((c) => c.startsWith("tc_session="))).toBe(true);
    const home = await client.get("/");
    expect(home.status).toBe(200);
    expect(pageText(await home.text())).toContain("Your password has been changed and you are signed in.");

    const user = await t.app.db.selectFrom("users").select(["failed_logins", "locked_until"]).where("id", "=", account.id).executeTakeFirstOrThrow();
    expect(user).toEqual({ failed_logins: 0, locked_until: null });
    // The other device was signed out; the old password no longer works, the new one does.
    expect((await oldDevice.get("/")).status).toBe(302);
    expect((await t.app.client().post("/login", { email: account.email, password: account.password })).status).toBe(401);
    await t.app.client().login(account.email, "Fresh-start9");
    // The code was single-use.
    const reuse = t.app.client();
    await reuse.post("/forgotten-login", { identifier: account.email });
    // (that request texted a new code; the old one is void)
    const again = await reuse.post("/forgotten-login/verify", { code, password: "Other-pass77", confirmPassword: "Other-pass77" });
    if (code !== (await latestCode(t.app.db, account.mobile))) expect(again.status).toBe(400);
  });

  it("finds the account by mobile number too", async () => {
    const account = await accountWithMobile(t.app.db);
    const client = t.app.client();
    const national = `0${account.mobile.slice(3, 7)} ${account.mobile.slice(7)}`;
    expect((await client.post("/forgotten-login", { identifier: national })).status).toBe(302);
    const code = await latestCode(t.app.db, account.mobile);
    const done = await client.post("/forgotten-login/verify", { code, password: "By-mobile-1", confirmPassword: "By-mobile-1" });
    expect(done.headers.get("location")).toBe("/");
  });

  it("answers an unknown email exactly like a known one and texts nobody", async () => {
    const before = (await deliverQueued(t.app.db), await t.app.db.selectFrom("sim_messages").select("id").execute()).length;
    const known = await accountWithMobile(t.app.db);
    const pages: string[] = [];
    for (const identifier of [known.email, `nobody-${Date.now()}@example.test`]) {
      const client = t.app.client();
      const res = await client.post("/forgotten-login", { identifier });
      expect(res.status).toBe(302);
      expect(res.headers.get("location")).toBe("/forgotten-login/verify");
      const page = pageText(await (await client.get("/forgotten-login/verify")).text()).replace(identifier, "X");
      pages.push(page.replace(/tc_\w+/g, ""));
    }
    expect(pages[0]).toBe(pages[1]);
    expect((await deliverQueued(t.app.db), await t.app.db.selectFrom("sim_messages").select("id").execute()).length).toBe(before + 1);
  });

  it("caps codes per hour: at the maximum it says when to retry, and the last code still works", async () => {
    const account = await accountWithMobile(t.app.db);
    const client = t.app.client();
    await client.post("/forgotten-login", { identifier: account.email });
    expect((await client.post("/forgotten-login/verify", { intent: "resend" })).status).toBe(302);
    expect(pageText(await (await client.get("/forgotten-login/verify")).text())).toContain("You can ask for 1 more code this hour.");
    expect((await client.post("/forgotten-login/verify", { intent: "resend" })).status).toBe(302);
    const capped = await client.post("/forgotten-login/verify", { intent: "resend" });
    expect(capped.status).toBe(429);
    expect(pageText(await capped.text())).toMatch(/You can still enter the last code we sent, or ask for a new one after \d{2}:\d{2}/);
    expect((await deliverQueued(t.app.db), await t.app.db.selectFrom("sim_messages").select("id").where("phone", "=", account.mobile).execute())).toHaveLength(3);
    const done = await client.post("/forgotten-login/verify", { code: await latestCode(t.app.db, account.mobile), password: "Capped-but-ok1", confirmPassword: "Capped-but-ok1" });
    expect(done.headers.get("location")).toBe("/");
  });

  it("sends a visitor without a pending reset back to the first page", async () => {
    const res = await t.app.client().get("/forgotten-login/verify");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/forgotten-login");
  });

  it("bad input gives 400 with the message and the value kept, never a 500", async () => {
    const huge = "a".repeat(1024 * 1024);
    const cases: Array<[string, RegExp]> = [
      ["", /is required/],
      ["not-an-email", /Enter an email address or a UK mobile number/],
      ["<script>alert(1)</script>", /Enter an email address or a UK mobile number/],
      ["x'; DROP TABLE users;--", /Enter an email address or a UK mobile number/],
      ["sam\u0007@example.test", /contains characters that cannot be used/],
      [huge, /Enter an email address or a UK mobile number/],
    ];
    for (const [identifier, message] of cases) {
      const res = await t.app.client().post("/forgotten-login", { identifier });
      expect(res.status, identifier.slice(0, 30)).toBe(400);
      const html = await res.text();
      expect(pageText(html)).toMatch(message);
      if (identifier) expect(html).toContain(`value="${attr(identifier)}"`);
    }
    const client = t.app.client();
    await client.post("/forgotten-login", { identifier: `someone-${Date.now()}@example.test` });
    for (const code of ["", "<b>", "1' OR 1=1--", huge]) {
      const res = await client.post("/forgotten-login/verify", { code, password: "Fine-pass-1", confirmPassword: "Fine-pass-1" });
      expect(res.status).toBe(400);
      expect(pageText(await res.text())).toMatch(/Verification code is required|That verification code is not right/);
    }
    expect(t.app.serverErrors).not.toMatch(/Error/);
  });

  it("refuses posts without the right CSRF token (403)", async () => {
    const account = await accountWithMobile(t.app.db);
    const client = t.app.client();
    expect((await client.post("/forgotten-login", { identifier: account.email }, { csrf: false })).status).toBe(403);
    await client.get("/forgotten-login");
    const res = await client.request("/forgotten-login", {
      method: "POST",
      body: new URLSearchParams({ identifier: account.email, _csrf: "x".repeat(32) }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(403);
    expect((await deliverQueued(t.app.db), await t.app.db.selectFrom("sim_messages").select("id").where("phone", "=", account.mobile).execute())).toHaveLength(0);
  });
});
