// Starts the built app (build/server/index.js, built by tests/support/global-setup.ts) in a child
// process on an ephemeral port, on its own database, and gives tests a browser-like client: a cookie jar, the
// CSRF field added to form posts, redirects not followed (tests assert them).
import { spawn } from "node:child_process";
import { afterAll, beforeAll, inject } from "vitest";
import type { Database, Dialect } from "#db/index";
import { createTestDb, type TestDb } from "./db";

export interface TestApp {
  url: string;
  db: Database;
  testDb: TestDb;
  /** What the server wrote to stderr (unexpected errors are logged there). */
  readonly serverErrors: string;
  client(): TestClient;
  close(): Promise<void>;
}

export async function startTestApp(options: { dialect?: Dialect; env?: Record<string, string> } = {}): Promise<TestApp> {
  const buildError = inject("buildError");
  if (buildError) throw new Error(buildError);
  const testDb = await createTestDb(options.dialect ?? "sqlite");
  const dbUrl = testDb.schema ? `${testDb.url}${testDb.url.includes("?") ? "&" : "?"}options=-c%20search_path%3D${testDb.schema}` : testDb.url;
  // A child process, as in production: the build must not share module instances with vitest's runner.
  const child = spawn(process.execPath, ["tests/support/serve-test.mjs"], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "test",
      DATABASE_URL: dbUrl,
      SESSION_SECRET: "test-secret-test-secret-test-secret-123",
      SEED_DEMO: "false",
      RUN_WORKER: "false",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const port = await new Promise<number>((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = /PORT=(\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on("exit", (code) => reject(new Error(`test server exited with ${code}: ${stderr}`)));
  });
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    db: testDb.db,
    testDb,
    get serverErrors() {
      return stderr;
    },
    client: () => new TestClient(url),
    async close() {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
      await testDb.dispose();
    },
  };
}

/** One app for the enclosing describe block. */
export function useTestApp(options: Parameters<typeof startTestApp>[0] = {}): { readonly app: TestApp } {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
  }, 60_000);
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error("test app not started");
      return app;
    },
  };
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  private store(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = attrs.some((a) => /max-age=0/i.test(a.trim())) || value === "";
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async request(pathname: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size && !headers.has("Cookie")) headers.set("Cookie", this.cookieHeader());
    const res = await fetch(this.base + pathname, { ...init, headers, redirect: "manual" });
    this.store(res);
    return res;
  }

  get(pathname: string, headers?: HeadersInit) {
    return this.request(pathname, { headers });
  }

  /** Loads a page first when needed so the CSRF cookie exists, then posts the form with its token. */
  async post(pathname: string, fields: Record<string, string | string[]>, options: { csrf?: boolean } = {}) {
    if (options.csrf !== false && !this.cookies.has("tc_csrf")) await this.get("/login");
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
    if (options.csrf !== false) body.set("_csrf", this.cookies.get("tc_csrf") ?? "");
    return this.request(pathname, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  }

  json(pathname: string, method: string, payload?: unknown, headers: HeadersInit = {}) {
    return this.request(pathname, {
      method,
      body: payload === undefined ? undefined : typeof payload === "string" ? payload : JSON.stringify(payload),
      headers: { "Content-Type": "application/json", ...headers },
    });
  }

  async login(email: string, password: string): Promise<void> {
    const res = await this.post("/login", { email, password });
    if (res.status !== 302) throw new Error(`login failed with ${res.status}: ${(await res.text()).slice(0, 300)}`);
  }
}

/** The text content of an HTML page, tags stripped: for asserting what a person reads. */
export function pageText(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/\s+/g, " ");
}
