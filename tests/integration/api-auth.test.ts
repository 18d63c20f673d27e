// /api/ authentication: bearer tokens from POST /api/account/token (same lockout as the login form),
// the session cookie, 401 UA002 / UA001 envelopes, revoking a token, and the per-address rate limit.
import { describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { APP_VERSION_CLIENT } from "~/lib/version";
import { createAccount, createBusiness, createUser } from "../support/factories";
import { useTestApp, type TestClient } from "../support/server";

async function envelopeOf(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = await res.json();
  expect(body.responseCode).toBe(code);
  expect(Array.isArray(body.errorStatuses)).toBe(true);
  expect(body.errorStatuses[0].responseCode).toBe(code);
  expect(JSON.stringify(body)).not.toMatch(/at .*\.(js|ts):\d+/);
  return body;
}

function clearsSessionCookie(res: Response): boolean {
  return res.headers.getSetCookie().some((c) => c.startsWith("tc_session=;") && /Max-Age=0/i.test(c));
}

async function token(client: TestClient, email: string, password: string) {
  return client.json("/api/account/token", "POST", { email, password });
}

describe("/api/ authentication", () => {
  const t = useTestApp();

  it("answers 401 UA002 when no credentials are sent, and clears nothing", async () => {
    const res = await t.app.client().get("/api/account/users/current");
    await envelopeOf(res, 401, "UA002");
    expect(clearsSessionCookie(res)).toBe(false);
  });

  it("answers 401 UA001 for an unknown bearer token and clears the session cookie", async () => {
    const res = await t.app.client().get("/api/feed", { Authorization: "Bearer " + "x".repeat(43) });
    await envelopeOf(res, 401, "UA001");
    expect(clearsSessionCookie(res)).toBe(true);
  });

  it("answers 401 UA001 for a malformed Authorization header", async () => {
    const res = await t.app.client().get("/api/feed", { Authorization: "Basic dXNlcjpwYXNz" });
    await envelopeOf(res, 401, "UA001");
  });

  it("answers 401 UA001 for an expired bearer token and for an expired cookie, clearing the cookie", async () => {
    const account = await createAccount(t.app.db);
    const old = new Date(Date.now() - 31 * 86400_000);
    const api = await createSession(t.app.db, account.id, "API", old);
    const res = await t.app.client().get("/api/account/status", { Authorization: `Bearer ${api.token}` });
    await envelopeOf(res, 401, "UA001");
    expect(clearsSessionCookie(res)).toBe(true);

    const web = await createSession(t.app.db, account.id, "WEB", old);
    const client = t.app.client();
    client.cookies.set("tc_session", web.token);
    const res2 = await client.get("/api/account/status");
    await envelopeOf(res2, 401, "UA001");
    expect(clearsSessionCookie(res2)).toBe(true);
    expect(client.cookies.has("tc_session")).toBe(false);
  });

  it("refuses the token of a disabled user (UA001)", async () => {
    const businessId = await createBusiness(t.app.db);
    const user = await createUser(t.app.db, businessId, { disabled: true });
    const s = await createSession(t.app.db, user.id, "API", new Date());
    await envelopeOf(await t.app.client().get("/api/feed", { Authorization: `Bearer ${s.token}` }), 401, "UA001");
  });

  it("accepts both a bearer token and the web session cookie", async () => {
    const account = await createAccount(t.app.db, { name: "Bearer and Cookie Ltd" });
    const res = await token(t.app.client(), account.email, account.password);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = await res.json();
    expect(body.accessToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const expires = Date.parse(body.expiresAt);
    expect(new Date(expires).toISOString()).toBe(body.expiresAt);
    expect(expires).toBeGreaterThan(Date.now() + 23 * 3600_000);
    expect(expires).toBeLessThan(Date.now() + 25 * 3600_000);

    const viaBearer = await t.app.client().get("/api/account/users/current", { Authorization: `Bearer ${body.accessToken}` });
    expect(viaBearer.status).toBe(200);
    expect(await viaBearer.json()).toEqual({ name: "Sam Tester", companyName: "Bearer and Cookie Ltd" });

    const browser = t.app.client();
    await browser.login(account.email, account.password);
    const viaCookie = await browser.get("/api/account/users/current");
    expect(viaCookie.status).toBe(200);
    expect(await viaCookie.json()).toEqual({ name: "Sam Tester", companyName: "Bearer and Cookie Ltd" });
  });

  it("gives UA003 for a wrong password or unknown email, the same envelope either way", async () => {
    const account = await createAccount(t.app.db);
    const wrong = await envelopeOf(await token(t.app.client(), account.email, "Wrong-pass-1"), 401, "UA003");
    expect(wrong.accessToken).toBeUndefined();
    await envelopeOf(await token(t.app.client(), "nobody-here@example.test", "Wrong-pass-1"), 401, "UA003");
  });

  it("locks the account after 5 failures (UA004), even for the right password, exactly like the login form", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    for (let i = 0; i < 4; i++) await envelopeOf(await token(client, account.email, "Wrong-pass-1"), 401, "UA003");
    const fifth = await envelopeOf(await token(client, account.email, "Wrong-pass-1"), 403, "UA004");
    expect(fifth.data).toEqual({ minutes: 15 });
    const right = await envelopeOf(await token(client, account.email, account.password), 403, "UA004");
    expect(right.accessToken).toBeUndefined();
    // The login form sees the same lock.
    const form = await t.app.client().post("/login", { email: account.email, password: account.password });
    expect(form.status).toBe(403);
    const sessions = await t.app.db.selectFrom("sessions").select("id").where("user_id", "=", account.id).execute();
    expect(sessions).toHaveLength(0);
  });

  it("gives UA005 for a disabled account", async () => {
    const businessId = await createBusiness(t.app.db);
    const user = await createUser(t.app.db, businessId, { disabled: true });
    await envelopeOf(await token(t.app.client(), user.email, user.password), 403, "UA005");
  });

  it("refuses bad token requests with 400 BR025, never 500", async () => {
    const client = t.app.client();
    const cases: [string, string | undefined, Record<string, string>?][] = [
      ["malformed JSON", "{\"email\": "],
      ["wrong types", JSON.stringify({ email: 42, password: ["x"] })],
      ["missing fields", JSON.stringify({})],
      ["an array", JSON.stringify([1, 2])],
      ["not an email", JSON.stringify({ email: "<script>alert(1)</script>", password: "x" })],
      ["SQL in the email", JSON.stringify({ email: "' OR 1=1 --", password: "x" })],
      ["a huge body", JSON.stringify({ email: "a@b.co", password: "p".repeat(1024 * 1024) })],
      ["no body", undefined],
    ];
    for (const [, body] of cases) {
      const res = await client.json("/api/account/token", "POST", body ?? "");
      await envelopeOf(res, 400, "BR025");
    }
    const form = await client.request("/api/account/token", {
      method: "POST",
      body: "email=a%40b.co&password=x",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    const formBody = await envelopeOf(form, 400, "BR025");
    expect(formBody.errorStatuses).toEqual([{ responseCode: "BR025", data: { field: "contentType" } }]);
    const wrongTypes = await envelopeOf(await client.json("/api/account/token", "POST", { email: 42, password: "x" }), 400, "BR025");
    expect(wrongTypes.errorStatuses).toEqual([{ responseCode: "BR025", data: { field: "email" } }]);
    await envelopeOf(await client.get("/api/account/token"), 405, "BR025");
    expect(t.app.serverErrors).not.toMatch(/unexpected error/);
  });

  it("DELETE revokes the bearer token used, and only that one", async () => {
    const account = await createAccount(t.app.db);
    const a = await (await token(t.app.client(), account.email, account.password)).json();
    const b = await (await token(t.app.client(), account.email, account.password)).json();
    const client = t.app.client();
    const del = await client.json("/api/account/token", "DELETE", undefined, { Authorization: `Bearer ${a.accessToken}` });
    expect(del.status).toBe(204);
    expect(del.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
    await envelopeOf(await client.get("/api/feed", { Authorization: `Bearer ${a.accessToken}` }), 401, "UA001");
    expect((await client.get("/api/feed", { Authorization: `Bearer ${b.accessToken}` })).status).toBe(200);
    await envelopeOf(await client.json("/api/account/token", "DELETE", undefined, {}), 401, "UA002");
  });

  it("DELETE with the cookie ends that web session and clears the cookie", async () => {
    const account = await createAccount(t.app.db);
    const browser = t.app.client();
    await browser.login(account.email, account.password);
    const del = await browser.json("/api/account/token", "DELETE");
    expect(del.status).toBe(204);
    expect(clearsSessionCookie(del)).toBe(true);
    expect((await browser.get("/")).status).toBe(302);
  });
});

describe("/api/account/token rate limit", () => {
  const t = useTestApp();

  it("answers 429 after 30 token requests from one address in 5 minutes", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await token(client, `nobody${i}@example.test`, "Wrong-pass-1")).status);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const limited = await token(client, account.email, account.password);
    const body = await envelopeOf(limited, 429, "UA004");
    expect(limited.headers.get("retry-after")).toBe("300");
    expect(body.accessToken).toBeUndefined();
  });
});
