// Odd requests never get a 5xx. Walks every route in app/routes.ts (read from the route config itself,
// so a new route is covered without touching this file), signed in and signed out, with methods the app
// does not serve, malformed form bodies, ~1 MB fields, control characters and invalid JSON for /api/,
// plus paths no route matches (unknown webhook and simulator API paths, encoded newlines).
import http from "node:http";
import { describe, expect, it } from "vitest";
import routes from "~/routes";
import { createAccount } from "../support/factories";
import { useTestApp, type TestClient } from "../support/server";

interface RouteEntry {
  path?: string;
  index?: boolean;
  children?: RouteEntry[];
}

/** Every URL path in the route config, with sample values for its parameters and splats. */
function routePaths(entries: RouteEntry[], parent = ""): string[] {
  const out: string[] = [];
  for (const e of entries) {
    const here = e.path ? `${parent}/${e.path}` : parent;
    if (e.index || (e.path !== undefined && !e.children)) out.push(here || "/");
    if (e.children) out.push(...routePaths(e.children, here));
  }
  return [...new Set(out.map((p) => p.replace(/:[A-Za-z0-9_]+\??/g, "1").replace(/\*$/, "no-such-thing") || "/"))];
}

const PATHS = routePaths(routes as RouteEntry[]);
const EXTRA_PATHS = [
  "/webhooks/no-such-thing",
  "/webhooks",
  "/webhooks/twilio",
  "/simulator/api/no-such-thing",
  "/simulator/api/phones/1",
  "/simulator/api",
  "/no-such-page%0a",
  "/no-such-page%0d",
  "/%0d%0aSet-Cookie:%20x=1",
  "/api/feed%0a",
  "/api/no-such-thing%0d",
  "/groups%00",
  "/%E0%A4%A",
  "/login%0a?redirectTo=/",
];
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "PROPFIND", "TRACE", "MKCOL", "PURGE", "LOCK"];
const MB = 1024 * 1024;

interface Answer {
  status: number;
  contentType: string;
  allow: string | undefined;
}

/** A raw HTTP request (fetch refuses methods such as TRACE and paths with raw control characters). */
function raw(base: string, method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve) => {
    let answered: Answer | null = null;
    const req = http.request({ agent: false, host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body !== undefined ? { "Content-Length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      answered = { status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), allow: res.headers.allow };
      res.resume();
      res.on("end", () => resolve(answered!));
      res.on("error", () => resolve(answered!));
      res.on("close", () => resolve(answered!));
    });
    // A server may answer before it has read a large body and then close the connection; the answer is
    // what counts. No answer at all is a failure (status 0).
    req.on("error", (error) => resolve(answered ?? { status: 0, contentType: error.message, allow: undefined }));
    req.setTimeout(15_000, () => {
      resolve(answered ?? { status: 0, contentType: "no answer in 15 s", allow: undefined });
      req.destroy();
    });
    req.end(body);
  });
}

/** Runs the jobs a few at a time. */
async function pool<T>(items: T[], size: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: size }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

function cookieHeader(client: TestClient): string {
  return [...client.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
}

describe("no 5xx for odd requests", () => {
  const t = useTestApp();

  it("finds the routes in the route config", () => {
    expect(PATHS).toContain("/");
    expect(PATHS).toContain("/login");
    expect(PATHS).toContain("/api/account/token");
    expect(PATHS).toContain("/simulator/api/inbound");
    expect(PATHS.length).toBeGreaterThan(40);
  });

  // Every route of the app, twice over: on a shared machine this takes a few minutes at worst (speed is the
  // benchmarks' business, not this test's).
  it("answers every route, signed in and out, with odd methods and malformed bodies, below 500", { timeout: 600_000 }, async () => {
    const account = await createAccount(t.app.db);
    const signedIn = t.app.client();
    await signedIn.login(account.email, account.password);
    await signedIn.get("/");
    const signedOut = t.app.client();
    await signedOut.get("/login");

    const failures: string[] = [];
    const jobs: Array<() => Promise<void>> = [];
    const check = (label: string, a: Answer) => {
      if (a.status >= 500 || a.status === 0) failures.push(`${label} -> ${a.status || a.contentType}`);
    };
    for (const [who, client] of [["signed in", signedIn], ["signed out", signedOut]] as const) {
      for (const path of [...PATHS, ...EXTRA_PATHS]) {
        // Signing out would end the signed-in walk; it is walked signed out.
        if (who === "signed in" && path === "/logout") continue;
        const cookie = () => cookieHeader(client);
        const csrf = () => client.cookies.get("tc_csrf") ?? "";
        for (const method of METHODS) {
          jobs.push(async () => check(`${who} ${method} ${path}`, await raw(client.base, method, path, { Cookie: cookie() })));
        }
        const form = { Cookie: cookie(), "Content-Type": "application/x-www-form-urlencoded" };
        const bodies: Array<[string, Record<string, string>, () => string]> = [
          ["invalid urlencoded", form, () => `%zz=%&a=%E0%A4%A&=&&_csrf=${csrf()}&%`],
          ["a 1 MB field", form, () => `_csrf=${csrf()}&intent=x&name=${"a".repeat(MB)}&email=${"b".repeat(MB / 8)}`],
          ["control characters", form, () => `_csrf=${csrf()}&intent=%00%07&name=%00%1b%0d%0a&email=a%00b%40c.d&body=%7f%c2%85&phone=%0a&id=%00`],
          ["no content type", { Cookie: cookie() }, () => `_csrf=${csrf()}&name=x`],
          ["multipart without a boundary", { Cookie: cookie(), "Content-Type": "multipart/form-data" }, () => "--x\r\n\r\n"],
        ];
        if (path.startsWith("/api/") || path.startsWith("/simulator/api/")) {
          const json = { Cookie: cookie(), "Content-Type": "application/json" };
          bodies.push(
            ["invalid JSON", json, () => '{"email": "a@b.c", "password": '],
            ["JSON of the wrong shape", json, () => '[1, {"__proto__": {"x": 1}}, null]'],
            ["a 1 MB JSON string", json, () => JSON.stringify({ email: "a".repeat(MB), action: "x".repeat(MB / 4) })],
            ["JSON with control characters", json, () => JSON.stringify({ email: "\u0000@\u001b.c", password: "\r\n", action: "\u0007" })],
          );
        }
        for (const [what, headers, body] of bodies) {
          for (const method of ["POST", "PUT"]) {
            if (method === "PUT" && !path.startsWith("/api/")) continue;
            jobs.push(async () => check(`${who} ${method} ${path} with ${what}`, await raw(client.base, method, path, { ...headers, Cookie: cookie() }, body())));
          }
        }
      }
    }
    await pool(jobs, 6, (job) => job());
    expect(failures, `${failures.length} requests answered 5xx:\n${failures.slice(0, 40).join("\n")}\n${t.app.serverErrors.slice(-2000)}`).toEqual([]);
  });

  it.each([
    ["GET", "/webhooks/no-such-thing", 404, /text\/plain/],
    ["POST", "/webhooks/no-such-thing", 404, /text\/plain/],
    ["GET", "/simulator/api/no-such-thing", 404, /application\/json/],
    ["GET", "/no-such-page%0a", 404, /text\/html/],
    ["GET", "/no-such-page%0d", 404, /text\/html/],
    ["GET", "/api/no-such-thing%0a", 404, /application\/json/],
  ])("answers %s %s with %i", async (method, path, status, type) => {
    const a = await raw(t.app.url, method, path);
    expect(a.status).toBe(status);
    expect(a.contentType).toMatch(type);
  });

  it.each(["OPTIONS", "PROPFIND", "TRACE", "MKCOL", "PUT", "DELETE"])("answers %s on a page with 405 and an Allow header", async (method) => {
    for (const path of ["/", "/login", "/groups", "/no-such-page"]) {
      const a = await raw(t.app.url, method, path);
      expect(a.status, `${method} ${path}`).toBe(405);
      expect(a.allow).toBe("GET, HEAD, POST");
      expect(a.contentType).toMatch(/text\/html/);
    }
  });

  it.each(["PROPFIND", "TRACE", "MKCOL"])("answers %s on the JSON API with a 405 envelope and an Allow header", async (method) => {
    const a = await raw(t.app.url, method, "/api/feed");
    expect(a.status).toBe(405);
    expect(a.allow).toBeTruthy();
    expect(a.contentType).toMatch(/application\/json/);
  });

  it("translates the early 404 page", async () => {
    const res = await fetch(`${t.app.url}/no-such-page%0a`, { headers: { "Accept-Language": "fr" } });
    expect(res.status).toBe(404);
    expect(await res.text()).toContain("Page introuvable");
  });
});
