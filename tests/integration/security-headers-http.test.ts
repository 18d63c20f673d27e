// Security properties of every answer: a Content-Security-Policy that every page passes (scripts only from
// this site or with the page's nonce), nosniff on the JSON API, a CSRF token tied to the session, Secure on
// every cookie in production, and a token endpoint that answers alike for emails with and without accounts.
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { createAccount } from "../support/factories";
import { useTestApp, type TestClient } from "../support/server";

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** Page paths of the route config (not the JSON API, webhooks, or the simulator's JSON). */
function pagePaths(entries: RouteEntry[], parent = ""): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const here = e.path ? `${parent}/${e.path}` : parent;
    if (e.index || (e.path !== undefined && !e.children)) out.push(here || "/");
    if (e.children) out.push(...pagePaths(e.children, here));
  }
  return [...new Set(out.map((p) => p.replace(/:[A-Za-z0-9_]+\??/g, "1").replace(/\*$/, "no-such-page") || "/"))].filter(
    (p) => !/^\/(api|webhooks|simulator\/api|locales)(\/|$)/.test(p) && p !== "/logout" && !p.endsWith("/export"),
  );
}

const PAGES = pagePaths(routes as RouteEntry[]);

function policyOf(res: Response): Map<string, string[]> {
  const header = res.headers.get("content-security-policy") ?? "";
  return new Map(header.split(";").map((d) => d.trim().split(/\s+/)).filter((p) => p[0]).map(([name, ...values]) => [name, values]));
}

/** Everything in a page that the policy would block, or that would need 'unsafe-inline' for scripts. */
function violations(html: string, nonce: string): string[] {
  const found: string[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    const attrs = m[1];
    const src = /\bsrc="([^"]*)"/.exec(attrs)?.[1];
    const n = /\bnonce="([^"]*)"/.exec(attrs)?.[1];
    if (src && /^(https?:)?\/\//i.test(src)) found.push(`script from elsewhere: ${src}`);
    if (!src && n !== nonce) found.push(`inline script without the nonce: ${m[0].slice(0, 80)}`);
  }
  for (const m of html.matchAll(/<[a-z][^>]*\son[a-z]+\s*=/gi)) found.push(`inline event handler: ${m[0].slice(0, 80)}`);
  for (const m of html.matchAll(/(?:href|src|action)\s*=\s*"\s*javascript:/gi)) found.push(`javascript: URL: ${m[0]}`);
  for (const m of html.matchAll(/<style\b/gi)) found.push(`style element: ${m[0]}`);
  for (const m of html.matchAll(/<link\b[^>]*rel="(?:stylesheet|modulepreload)"[^>]*href="(https?:)?\/\/[^"]*"/gi)) found.push(`asset from elsewhere: ${m[0]}`);
  for (const m of html.matchAll(/<(?:form)\b[^>]*action="(https?:)?\/\/[^"]*"/gi)) found.push(`form posting elsewhere: ${m[0]}`);
  return found;
}

describe("Content-Security-Policy", () => {
  const t = useTestApp();
  let signedIn: TestClient;

  it("is strict: no inline scripts without the nonce, no framing, forms post home", async () => {
    const res = await t.app.client().get("/login");
    const p = policyOf(res);
    expect(p.get("script-src")).toContain("'self'");
    expect(p.get("script-src")?.some((v) => /^'nonce-[A-Za-z0-9_-]{16,}'$/.test(v))).toBe(true);
    expect(p.get("script-src")).not.toContain("'unsafe-inline'");
    expect(p.get("script-src")).not.toContain("'unsafe-eval'");
    expect(p.get("script-src-attr")).toEqual(["'none'"]);
    expect(p.get("object-src")).toEqual(["'none'"]);
    expect(p.get("frame-ancestors")).toEqual(["'none'"]);
    expect(p.get("form-action")).toEqual(["'self'"]);
    expect(p.get("base-uri")).toEqual(["'self'"]);
  });

  it("uses a new nonce for every request", async () => {
    const client = t.app.client();
    const a = (await client.get("/login")).headers.get("content-security-policy");
    const b = (await client.get("/login")).headers.get("content-security-policy");
    expect(a).toBeTruthy();
    expect(a).not.toBe(b);
  });

  it("is passed by every page of the route config, signed in and out", { timeout: 60_000 }, async () => {
    const account = await createAccount(t.app.db);
    signedIn = t.app.client();
    await signedIn.login(account.email, account.password);
    const signedOut = t.app.client();
    const problems: string[] = [];
    let checked = 0;
    for (const [who, client] of [["signed in", signedIn], ["signed out", signedOut]] as const) {
      for (const path of PAGES) {
        const res = await client.get(path);
        if (!(res.headers.get("content-type") ?? "").includes("text/html")) continue;
        const html = await res.text();
        const policy = policyOf(res);
        const nonce = policy.get("script-src")?.find((v) => v.startsWith("'nonce-"))?.slice(7, -1);
        if (!nonce) {
          problems.push(`${who} ${path} (${res.status}): no nonce in the policy`);
          continue;
        }
        checked++;
        // React Router's own inline scripts are there and carry the nonce.
        if (res.status === 200 && !html.includes(`nonce="${nonce}"`)) problems.push(`${who} ${path}: no script carries the nonce`);
        for (const v of violations(html, nonce)) problems.push(`${who} ${path}: ${v}`);
      }
    }
    expect(problems).toEqual([]);
    // Most pages answer HTML (the rest redirect, e.g. signed-out visits to signed-in pages).
    expect(checked).toBeGreaterThan(PAGES.length / 2);
  });
});

describe("JSON API headers", () => {
  const t = useTestApp();

  it.each(["/api/account/status", "/api/no-such-thing", "/simulator/api/no-such-thing"])("answers %s with nosniff", async (path) => {
    const res = await t.app.client().get(path);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers the token endpoint alike for an email with and without an account", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const post = (email: string, ip: string) =>
      client.json("/api/account/token", "POST", { email, password: "Wrong-pass-1" }, { "X-Forwarded-For": ip }).then(async (r) => ({ status: r.status, body: await r.json() }));
    for (let i = 0; i < 6; i++) {
      const real = await post(account.email, `198.51.100.${i + 1}`);
      const unknown = await post(`nobody-${account.id}@example.test`, `198.51.100.${i + 101}`);
      expect(unknown).toEqual(real);
    }
  });
});

describe("CSRF token tied to the session", () => {
  const t = useTestApp();

  it("is signed: a token the server did not make is refused and replaced", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const forged = "A".repeat(32) + "." + "B".repeat(43);
    client.cookies.set("tc_csrf", forged);
    const res = await client.post("/login", { email: account.email, password: account.password });
    expect(res.status).toBe(403);
    await client.get("/login");
    expect(client.cookies.get("tc_csrf")).not.toBe(forged);
    // With the token the server just set, signed-out forms work.
    expect((await client.post("/login", { email: account.email, password: account.password })).status).toBe(302);
  });

  it("changes at sign-in, and a signed-out token does not work in the session", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    await client.get("/login");
    const before = client.cookies.get("tc_csrf")!;
    await client.login(account.email, account.password);
    const after = client.cookies.get("tc_csrf")!;
    expect(after).not.toBe(before);
    // The old token, planted back, is refused for the signed-in session.
    const stale = await client.request("/myaccount", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `tc_session=${client.cookies.get("tc_session")}; tc_csrf=${before}` },
      body: new URLSearchParams({ _csrf: before, intent: "x" }),
    });
    expect(stale.status).toBe(403);
    // Another session's token is refused too.
    const other = t.app.client();
    const otherAccount = await createAccount(t.app.db);
    await other.login(otherAccount.email, otherAccount.password);
    const theirs = other.cookies.get("tc_csrf")!;
    const crossed = await client.request("/logout", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: `tc_session=${client.cookies.get("tc_session")}; tc_csrf=${theirs}` },
      body: new URLSearchParams({ _csrf: theirs }),
    });
    expect(crossed.status).toBe(403);
    // The session's own token works.
    expect((await client.post("/logout", {})).status).toBe(302);
    expect(client.cookies.has("tc_session")).toBe(false);
    // After sign-out a signed-out token is set again and the login form works.
    expect(client.cookies.get("tc_csrf")).not.toBe(after);
    expect((await client.post("/login", { email: account.email, password: account.password })).status).toBe(302);
  });
});

describe("cookies in production", () => {
  const t = useTestApp({ env: { NODE_ENV: "production" } });

  it("are all Secure", async () => {
    const account = await createAccount(t.app.db);
    const client = t.app.client();
    const seen: string[] = [];
    const keep = (res: Response) => seen.push(...res.headers.getSetCookie());
    keep(await client.get("/login?lng=fr"));
    keep(await client.post("/login", { email: account.email, password: account.password }));
    keep(await client.get("/"));
    keep(await client.post("/logout", {}));
    const names = new Set(seen.map((c) => c.split("=")[0]));
    for (const name of ["tc_csrf", "lng", "tc_session"]) expect(names.has(name), name).toBe(true);
    for (const c of seen) expect(c, c.split("=")[0]).toMatch(/;\s*Secure/i);
  });
});
