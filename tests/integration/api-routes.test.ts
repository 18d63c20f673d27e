// The /api/ routes: the values they answer, tenancy between businesses, and bad input to every
// route (wrong method, junk query, malformed JSON, wrong types, 1 MB bodies, markup, SQL, control
// characters) always answered with a 4xx error envelope, never a 500; X-App-Version on every answer.
import { describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { insertMember } from "~/domain/members/core.server";
import { addSupportMessage } from "~/domain/support/support.server";
import { STAT_TYPES } from "~/domain/stats/stats.server";
import { APP_VERSION_CLIENT } from "~/lib/version";
import { createAccount, ukMobile } from "../support/factories";
import { useTestApp, type TestApp } from "../support/server";

const MONITOR_ENV = {
  GA_ID: "G-TEST12345",
  META_PIXEL_ID: "1234567890",
  RUM_ACCOUNT_ID: "acc-1",
  RUM_APPLICATION_ID: "app-2",
  RUM_LICENCE_KEY: "lic-3",
  RUM_AGENT_ID: "agent-4",
};

interface Caller {
  businessId: number;
  userId: number;
  headers: Record<string, string>;
}

async function caller(app: TestApp, overrides: Parameters<typeof createAccount>[1] = {}): Promise<Caller> {
  const account = await createAccount(app.db, overrides);
  const { token } = await createSession(app.db, account.id, "API", new Date());
  return { businessId: account.businessId, userId: account.id, headers: { Authorization: `Bearer ${token}` } };
}

async function ok(res: Response, status = 200): Promise<any> {
  expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${await res.text()}`);
  return status === 204 ? null : res.json();
}

async function envelope(res: Response, status: number, code: string): Promise<any> {
  expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${text.slice(0, 300)}`);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = JSON.parse(text);
  expect(body.responseCode).toBe(code);
  expect(body).toHaveProperty("data");
  expect(body.errorStatuses.length).toBeGreaterThan(0);
  for (const s of body.errorStatuses) expect(s.responseCode).toBe(code);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  return body;
}

describe("/api/ routes", () => {
  const t = useTestApp({ env: MONITOR_ENV });
  const get = (path: string, c: Caller) => t.app.client().get(path, c.headers);
  const post = (path: string, c: Caller, payload: unknown) => t.app.client().json(path, "POST", payload, c.headers);

  describe("GET account/status", () => {
    it("answers the business's status and the caller's viewed help sections", async () => {
      const a = await caller(t.app, { trialDays: 5 });
      expect(await ok(await get("/api/account/status", a))).toEqual({
        onboarding: "COMPLETE",
        acceptTermsAndConditions: false,
        helpSectionsViewed: [],
        locale: "en-GB",
        displayNotification: "7DAYSORLESS",
      });
      const b = await caller(t.app, { onboarding: "NUMBER_REQUESTED", termsVersion: null, trialDays: 30 });
      const sb = await ok(await get("/api/account/status", b));
      expect(sb.onboarding).toBe("NUMBER_REQUESTED");
      expect(sb.acceptTermsAndConditions).toBe(true);
      expect(sb.displayNotification).toBeNull();
    });
  });

  describe("GET account/users/current", () => {
    it("answers the caller's name and company", async () => {
      const a = await caller(t.app, { name: "Hill & Dale Bakery" });
      expect(await ok(await get("/api/account/users/current", a))).toEqual({ name: "Sam Tester", companyName: "Hill & Dale Bakery" });
    });
  });

  describe("GET account/messageallowance", () => {
    it("reflects a trial's days left and a monthly plan's allowance", async () => {
      const trial = await caller(t.app, { trialDays: 12 });
      expect(await ok(await get("/api/account/messageallowance", trial))).toEqual({ messageAllowance: 0, daysLeftOfTrial: 12 });
      const monthly = await caller(t.app, { status: "SUBSCRIBED", messageAllowance: 750, allowanceUsed: 20, trialDays: -3 });
      expect(await ok(await get("/api/account/messageallowance", monthly))).toEqual({ messageAllowance: 750, daysLeftOfTrial: 0 });
    });
  });

  describe("GET stats", () => {
    it("answers credits remaining and used from the plan", async () => {
      const trial = await caller(t.app, { trialCredits: 37 });
      expect(await ok(await get("/api/stats?type=MESSAGECREDITSREMAINING", trial))).toEqual({ total: 37 });
      expect(await ok(await get("/api/stats?type=MESSAGECREDITSUSED", trial))).toEqual({ total: 13 });
      const monthly = await caller(t.app, { status: "SUBSCRIBED", messageAllowance: 500, allowanceUsed: 120 });
      expect(await ok(await get("/api/stats?type=MESSAGECREDITSREMAINING", monthly))).toEqual({ total: 380 });
      expect(await ok(await get("/api/stats?type=MESSAGECREDITSUSED", monthly))).toEqual({ total: 120 });
    });

    it("answers every stat type with a number, given the parameters it needs", async () => {
      const a = await caller(t.app);
      const member = await insertMember(t.app.db, { businessId: a.businessId, phone: ukMobile(), status: "SUBSCRIBED", now: new Date() });
      for (const type of STAT_TYPES) {
        const extra = type === "UNREADMESSAGESSUBSCRIBERTOTAL" || type === "CONTACTCAMPAIGNINTERACTIONTOTAL" ? `&contactId=${member.id}` : "";
        const body = await ok(await get(`/api/stats?type=${type}${extra}`, a));
        expect(Object.keys(body)).toEqual(["total"]);
        expect(Number.isInteger(body.total)).toBe(true);
      }
      expect(await ok(await get("/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL&contactGroupId=3", a))).toEqual({ total: 0 });
      expect(await ok(await get("/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL&contactGroupId=-1", a))).toEqual({ total: 0 });
    });

    it("answers 404 NF001 for another business's member or a member that does not exist", async () => {
      const a = await caller(t.app);
      const b = await caller(t.app);
      const theirs = await insertMember(t.app.db, { businessId: b.businessId, phone: ukMobile(), status: "SUBSCRIBED", now: new Date() });
      for (const type of ["UNREADMESSAGESSUBSCRIBERTOTAL", "CONTACTCAMPAIGNINTERACTIONTOTAL"]) {
        await envelope(await get(`/api/stats?type=${type}&contactId=${theirs.id}`, a), 404, "NF001");
        await envelope(await get(`/api/stats?type=${type}&contactId=${theirs.id + 100000}`, a), 404, "NF001");
        expect(await ok(await get(`/api/stats?type=${type}&contactId=${theirs.id}`, b))).toEqual({ total: 0 });
      }
    });

    it("refuses unknown types and bad ids with 400 BR025 naming the parameter", async () => {
      const a = await caller(t.app);
      const bad: [string, string][] = [
        ["/api/stats", "type"],
        ["/api/stats?type=", "type"],
        ["/api/stats?type=messagecreditsused", "type"],
        ["/api/stats?type=NOPE", "type"],
        ["/api/stats?type=SUBSCRIBERSTOTAL'%20OR%201=1--", "type"],
        ["/api/stats?type=%3Cscript%3E", "type"],
        ["/api/stats?type=SUBSCRIBERSTOTAL%00", "type"],
        ["/api/stats?type=SUBSCRIBERSTOTAL&type=CAMPAIGNSTOTAL", "type"],
        ["/api/stats?type=UNREADMESSAGESSUBSCRIBERTOTAL", "contactId"],
        ["/api/stats?type=CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=abc", "contactId"],
        ["/api/stats?type=CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=0", "contactId"],
        ["/api/stats?type=CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=-4", "contactId"],
        ["/api/stats?type=CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=1e3", "contactId"],
        ["/api/stats?type=CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=99999999999999999999", "contactId"],
        ["/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL&contactGroupId=0", "contactGroupId"],
        ["/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL&contactGroupId=-2", "contactGroupId"],
        ["/api/stats?type=CONTACTGROUPPENDINGMESSAGESTOTAL&contactGroupId=" + "9".repeat(3000), "contactGroupId"],
      ];
      for (const [path, field] of bad) {
        const body = await envelope(await get(path, a), 400, "BR025");
        expect(body.errorStatuses.map((s: { data?: { field: string } }) => s.data?.field)).toContain(field);
      }
    });
  });

  describe("GET feed and POST account/helpsectionsviewed", () => {
    it("shows the quick-start item until the caller marks it viewed, and only the caller's notices", async () => {
      const a = await caller(t.app);
      const b = await caller(t.app);
      await t.app.db
        .insertInto("notices")
        .values([
          { business_id: a.businessId, kind: "INFO", title: "For A only", body: "Hello A", created_at: new Date().toISOString() },
          { business_id: b.businessId, kind: "INFO", title: "For B only", body: "Hello B", created_at: new Date().toISOString() },
        ])
        .execute();
      const before = await ok(await get("/api/feed", a));
      expect(before.map((i: { type: string }) => i.type)).toEqual(["HELPCENTRE", "INFO"]);
      expect(before[1]).toMatchObject({ name: "For A only", messageText: "Hello A" });
      expect(JSON.stringify(before)).not.toContain("For B only");

      await ok(await post("/api/account/helpsectionsviewed", a, { helpSectionViewed: "quickStart" }), 204);
      await ok(await post("/api/account/helpsectionsviewed", a, { helpSectionViewed: "quickStart" }), 204);
      const after = await ok(await get("/api/feed", a));
      expect(after.map((i: { type: string }) => i.type)).toEqual(["INFO"]);
      expect((await ok(await get("/api/account/status", a))).helpSectionsViewed).toEqual(["quickStart"]);

      // B's own quick-start item and status are untouched by A.
      expect((await ok(await get("/api/feed", b)))[0].type).toBe("HELPCENTRE");
      expect((await ok(await get("/api/account/status", b))).helpSectionsViewed).toEqual([]);
    });

    it("refuses bad help section names and bodies with 400 BR025, saving nothing", async () => {
      const a = await caller(t.app);
      const payloads: unknown[] = [
        { helpSectionViewed: "" },
        { helpSectionViewed: "a".repeat(41) },
        { helpSectionViewed: "<b>quickStart</b>" },
        { helpSectionViewed: "quickStart'; DROP TABLE users; --" },
        { helpSectionViewed: "quick\u0000Start" },
        { helpSectionViewed: "quick Start" },
        { helpSectionViewed: 12 },
        { helpSectionViewed: ["quickStart"] },
        { helpSectionViewed: null },
        {},
        [],
        "quickStart",
        "{not json",
        JSON.stringify({ helpSectionViewed: "x".repeat(1024 * 1024) }),
      ];
      for (const p of payloads) await envelope(await post("/api/account/helpsectionsviewed", a, p), 400, "BR025");
      const rows = await t.app.db.selectFrom("help_sections_viewed").select("section").where("user_id", "=", a.userId).execute();
      expect(rows).toEqual([]);
    });
  });

  describe("GET directmessages", () => {
    it("answers the unread list (empty until direct messages arrive) and refuses other filters", async () => {
      const a = await caller(t.app);
      expect(await ok(await get("/api/directmessages?filter=UNREAD", a))).toEqual([]);
      for (const q of ["", "?filter=", "?filter=READ", "?filter=unread", "?filter=UNREAD%27--", "?filter=UNREAD&filter=UNREAD", "?filter=%3Cscript%3E"]) {
        const body = await envelope(await get(`/api/directmessages${q}`, a), 400, "BR025");
        expect(body.errorStatuses[0].data).toEqual({ field: "filter" });
      }
    });
  });

  describe("support", () => {
    it("gives each caller their own stable chat session, belonging to their business", async () => {
      const a = await caller(t.app);
      const b = await caller(t.app);
      const first = await ok(await get("/api/support/session", a));
      const again = await ok(await get("/api/support/session", a));
      const other = await ok(await get("/api/support/session", b));
      expect(Number.isInteger(first.chatSessionId)).toBe(true);
      expect(again.chatSessionId).toBe(first.chatSessionId);
      expect(other.chatSessionId).not.toBe(first.chatSessionId);
      const rows = await t.app.db.selectFrom("support_sessions").select(["id", "business_id", "user_id"]).where("id", "in", [first.chatSessionId, other.chatSessionId]).orderBy("id").execute();
      expect(rows).toEqual(
        [
          { id: first.chatSessionId, business_id: a.businessId, user_id: a.userId },
          { id: other.chatSessionId, business_id: b.businessId, user_id: b.userId },
        ].sort((x, y) => x.id - y.id),
      );
    });

    it("answers the latest messages of the caller's session, newest first, never another's", async () => {
      const a = await caller(t.app);
      const b = await caller(t.app);
      expect(await ok(await get("/api/support/messages?limit=1", a))).toEqual({ messages: [] });
      const { chatSessionId } = await ok(await get("/api/support/session", a));
      const bSession = (await ok(await get("/api/support/session", b))).chatSessionId;
      const base = Date.now();
      const me = { userId: a.userId, businessId: a.businessId };
      await addSupportMessage(t.app.db, me, chatSessionId, "USER", "Hello, can you help?", new Date(base));
      await addSupportMessage(t.app.db, me, chatSessionId, "AGENT", "Of course: what do you need?", new Date(base + 1000));
      await addSupportMessage(t.app.db, { userId: b.userId, businessId: b.businessId }, bSession, "AGENT", "B's secret", new Date(base + 2000));

      const one = await ok(await get("/api/support/messages?limit=1", a));
      expect(one).toEqual({ messages: [{ text: "Of course: what do you need?", sender: "AGENT", createdAt: new Date(base + 1000).toISOString() }] });
      const two = await ok(await get("/api/support/messages?limit=50", a));
      expect(two.messages.map((m: { text: string }) => m.text)).toEqual(["Of course: what do you need?", "Hello, can you help?"]);
      expect((await ok(await get("/api/support/messages", a))).messages).toHaveLength(1);
      expect(JSON.stringify(two)).not.toContain("B's secret");
    });

    it("refuses a limit outside 1 to 50", async () => {
      const a = await caller(t.app);
      for (const q of ["0", "51", "-1", "abc", "1.5", "1;DROP TABLE support_messages", "%0A", "9".repeat(500)]) {
        const body = await envelope(await get(`/api/support/messages?limit=${q}`, a), 400, "BR025");
        expect(body.errorStatuses[0].data).toEqual({ field: "limit" });
      }
    });
  });

  describe("GET application/monitor", () => {
    it("answers the configured analytics identifiers to a signed-in caller", async () => {
      const a = await caller(t.app);
      expect(await ok(await get("/api/application/monitor", a))).toEqual({
        gaId: "G-TEST12345",
        metaPixelId: "1234567890",
        rumScript: { accountId: "acc-1", applicationId: "app-2", licenceKey: "lic-3", agentId: "agent-4" },
      });
      await envelope(await t.app.client().get("/api/application/monitor"), 401, "UA002");
    });
  });

  describe("POST track", () => {
    it("stores the action against the caller's business and user", async () => {
      const a = await caller(t.app);
      const b = await caller(t.app);
      for (const action of ["view:Home", "start_trial", "purchase_subscription", "view:Member's info & notes", "clicked \"Send\" ' OR 1=1 --"]) {
        await ok(await post("/api/track", a, { action }), 204);
      }
      await ok(await post("/api/track", b, { action: "view:Groups" }), 204);
      const rows = await t.app.db.selectFrom("track_events").select(["business_id", "user_id", "action"]).where("business_id", "in", [a.businessId, b.businessId]).orderBy("id").execute();
      expect(rows).toEqual([
        { business_id: a.businessId, user_id: a.userId, action: "view:Home" },
        { business_id: a.businessId, user_id: a.userId, action: "start_trial" },
        { business_id: a.businessId, user_id: a.userId, action: "purchase_subscription" },
        { business_id: a.businessId, user_id: a.userId, action: "view:Member's info & notes" },
        { business_id: a.businessId, user_id: a.userId, action: "clicked \"Send\" ' OR 1=1 --" },
        { business_id: b.businessId, user_id: b.userId, action: "view:Groups" },
      ]);
    });

    it("accepts the cookie session the browser sends", async () => {
      const account = await createAccount(t.app.db);
      const browser = t.app.client();
      await browser.login(account.email, account.password);
      await ok(await browser.json("/api/track", "POST", { action: "view:Home" }), 204);
      const rows = await t.app.db.selectFrom("track_events").select("action").where("business_id", "=", account.businessId).execute();
      expect(rows).toEqual([{ action: "view:Home" }]);
    });

    it("refuses bad actions and bodies with 400 BR025, storing nothing", async () => {
      const a = await caller(t.app);
      const payloads: unknown[] = [
        { action: "" },
        { action: "   " },
        { action: "a".repeat(201) },
        { action: "<img src=x onerror=alert(1)>" },
        { action: "view:Home\u0000" },
        { action: "view:\nHome" },
        { action: "view:Home\u001b[31m" },
        { action: 5 },
        { action: { $gt: "" } },
        { actions: "view:Home" },
        null,
        "{\"action\": \"view:Home\"",
        "\u00ff\u00fe",
        JSON.stringify({ action: "a".repeat(1024 * 1024) }),
      ];
      for (const p of payloads) {
        const body = await envelope(await post("/api/track", a, p), 400, "BR025");
        expect(body.data).toBeNull();
      }
      const wrongType = await t.app.client().request("/api/track", { method: "POST", body: "action=view%3AHome", headers: { ...a.headers, "Content-Type": "text/plain" } });
      await envelope(wrongType, 400, "BR025");
      const rows = await t.app.db.selectFrom("track_events").select("id").where("business_id", "=", a.businessId).execute();
      expect(rows).toEqual([]);
    });
  });

  describe("every route", () => {
    const GETS = [
      "/api/account/status",
      "/api/account/users/current",
      "/api/account/messageallowance",
      "/api/stats?type=SUBSCRIBERSTOTAL",
      "/api/feed",
      "/api/directmessages?filter=UNREAD",
      "/api/support/session",
      "/api/support/messages?limit=1",
      "/api/application/monitor",
    ];
    const POSTS = ["/api/account/helpsectionsviewed", "/api/track"];

    it("asks for credentials (401 UA002) and refuses a bad token (401 UA001)", async () => {
      for (const path of [...GETS, ...POSTS]) {
        const method = POSTS.includes(path) ? "POST" : "GET";
        await envelope(await t.app.client().json(path, method, method === "POST" ? {} : undefined), 401, "UA002");
        await envelope(await t.app.client().json(path, method, method === "POST" ? {} : undefined, { Authorization: "Bearer not-a-real-token-at-all" }), 401, "UA001");
      }
    });

    it("answers a wrong method with 405 and an Allow header", async () => {
      const a = await caller(t.app);
      for (const path of GETS) {
        for (const method of ["POST", "PUT", "PATCH", "DELETE"]) {
          const res = await t.app.client().json(path, method, { action: "x" }, a.headers);
          const body = await envelope(res, 405, "BR025");
          expect(body.data).toEqual({ method });
          expect(res.headers.get("allow")).toBe("GET, HEAD");
        }
      }
      for (const path of POSTS) {
        for (const method of ["GET", "PUT", "DELETE"]) {
          const res = await t.app.client().json(path, method, method === "GET" ? undefined : {}, a.headers);
          await envelope(res, 405, "BR025");
          expect(res.headers.get("allow")).toBe("POST");
        }
      }
    });

    it("serves HEAD like GET without a body", async () => {
      const a = await caller(t.app);
      const res = await t.app.client().request("/api/feed", { method: "HEAD", headers: a.headers });
      expect(res.status).toBe(200);
      expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
      expect(await res.text()).toBe("");
    });

    it("never answers with a 500 or logs an unexpected error for any of the hostile input above", async () => {
      expect(t.app.serverErrors).not.toMatch(/unexpected error|Error:/);
    });
  });

  describe("unknown /api/ paths", () => {
    it("answer 404 NF001 as JSON for every method, signed in or not", async () => {
      const a = await caller(t.app);
      for (const path of ["/api/nope", "/api/feed/extra", "/api/account", "/api/account/status/more", "/api/%3Cscript%3E", "/api/x%00y"]) {
        for (const method of ["GET", "POST", "PUT", "DELETE"]) {
          const res = await t.app.client().json(path, method, method === "GET" ? undefined : { a: 1 }, a.headers);
          const body = await envelope(res, 404, "NF001");
          expect(body).toEqual({ responseCode: "NF001", data: null, errorStatuses: [{ responseCode: "NF001" }] });
        }
      }
      await envelope(await t.app.client().get("/api", a.headers), 404, "NF001");
      const anon = await t.app.client().get("/api/does/not/exist");
      await envelope(anon, 404, "NF001");
      // The page catch-all still answers HTML for everything else.
      const page = await t.app.client().get("/no-such-page");
      expect(page.status).toBe(404);
      expect(page.headers.get("content-type")).toMatch(/text\/html/);
    });
  });
});
