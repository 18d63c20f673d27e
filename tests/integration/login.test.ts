import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { pageText, useTestApp } from "../support/server";

describe("login", () => {
  const t = useTestApp();

  it("signs in with the right password and lands on home", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const res = await client.post("/login", { email: account.email, password: account.password });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith("tc_session="));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    const home = await client.get("/");
    expect(home.status).toBe(200);
  });

  it("refuses a wrong password with UA003 and keeps the email", async () => {
    const account = await createAccount(t.app.db);
    const res = await t.app.client().post("/login", { email: account.email, password: "Wrong-pass-1" });
    expect(res.status).toBe(401);
    const html = await res.text();
    expect(pageText(html)).toContain("The email address or password is not right.");
    expect(html).toContain(`value="${account.email}"`);
  });

  it("locks the account after 5 failures (UA004), even for the right password", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    for (let i = 0; i < 4; i++) expect((await client.post("/login", { email: account.email, password: "Wrong-pass-1" })).status).toBe(401);
    const fifth = await client.post("/login", { email: account.email, password: "Wrong-pass-1" });
    expect(fifth.status).toBe(403);
    const right = await client.post("/login", { email: account.email, password: account.password });
    expect(right.status).toBe(403);
    expect(pageText(await right.text())).toContain("Your account is locked after too many failed attempts. Try again in 15 minutes.");
  });

  it("refuses a post without the CSRF token", async () => {
    const account = await createAccount(t.app.db);
    const res = await t.app.client().post("/login", { email: account.email, password: account.password }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.headers.getSetCookie().some((c) => c.startsWith("tc_session="))).toBe(false);
  });

  it("sends a visitor without a session to /login", async () => {
    const res = await t.app.client().get("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/login");
  });

  it.each([
    ["empty", { email: "", password: "" }, "Email address is required"],
    ["markup", { email: "<script>alert(1)</script>", password: "x" }, "Enter a valid email address"],
    ["SQL fragment", { email: "' OR 1=1 --", password: "x" }, "Enter a valid email address"],
    ["control characters", { email: "a\u0000b@example.test", password: "x" }, "Enter a valid email address"],
    ["a 1 MB field", { email: "a".repeat(1024 * 1024), password: "x" }, "Enter a valid email address"],
  ])("answers %s input with a field error, never a 500", async (_why, fields, message) => {
    const res = await t.app.client().post("/login", fields);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(pageText(html)).toContain(message);
    expect(html).not.toContain("<script>alert(1)</script>");
  });

  it("refuses a body over the size limit with 413, not a crash", async () => {
    const client = t.app.client();
    const res = await client.post("/login", { email: "x@example.test", password: "p".repeat(3 * 1024 * 1024) });
    expect(res.status).toBe(413);
  });

  it("never follows a redirect to another site after login", async () => {
    const account = await createAccount(t.app.db);
    const res = await t.app.client().post("/login", { email: account.email, password: account.password, redirectTo: "//evil.example/x" });
    expect(res.headers.get("location")).toBe("/");
  });

  it.each([
    ["a TAB between the slashes", "/\t/evil.example"],
    ["a newline", "/\n/evil.example"],
    ["header injection", "/\r\nSet-Cookie: x=1"],
    ["an absolute URL", "https://evil.example/"],
  ])("goes home after login for a redirect with %s, never a 500", async (_why, redirectTo) => {
    const account = await createAccount(t.app.db);
    const res = await t.app.client().post("/login", { email: account.email, password: account.password, redirectTo });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
  });

  it("keeps a language chosen with ?lng= for the next pages", async () => {
    const client = t.app.client();
    const first = await client.get("/login?lng=fr");
    expect(pageText(await first.text())).toContain("Connexion à Textcircle");
    const next = await client.get("/signup");
    const html = await next.text();
    expect(html).toContain('lang="fr"');
  });
});
