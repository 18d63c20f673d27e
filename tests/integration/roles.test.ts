// Roles on both databases: the permission table itself; a team member refused with FB001 (403) on
// an Administrator page, form post and API call, and free to use the member, attribute and DM screens;
// and a walk over every route in app/routes.ts as each role, checking each answers normally or with
// FB001 exactly as the routes' declared permissions say (and never a 500).
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser, ukMobile } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import routes from "~/routes";
import { can, PERMISSION_ROLES, PERMISSIONS, permissionsFor, requirePermission, type Permission, type PermissionHandle } from "~/domain/accounts/permissions";
import { createSession } from "~/domain/accounts/sessions.server";
import { AppError } from "~/lib/errors";

const FORBIDDEN_EN = "Only your account administrator can do this";
const FORBIDDEN_FR = "Seul l’administrateur du compte peut faire cela";

describe("the permission table", () => {
  it("gives the Administrator everything and a team member only replies, campaigns, members and attributes", () => {
    expect(PERMISSIONS.filter((p) => can({ role: "ADMIN" }, p))).toEqual(PERMISSIONS);
    expect(PERMISSIONS.filter((p) => can({ role: "TEAM" }, p)).sort()).toEqual(["attributes:manage", "campaigns:manage", "members:manage", "messages:reply"]);
    for (const p of ["team:manage", "subscription:change", "apikeys:manage", "integrations:manage", "settings:manage"] as Permission[]) {
      expect(PERMISSION_ROLES[p]).toEqual(["ADMIN"]);
    }
    expect(can(null, "messages:reply")).toBe(false);
    expect(can({ role: "SOMEONE" }, "messages:reply")).toBe(false);
  });

  it("refuses with FB001 and 403", () => {
    let error: unknown;
    try {
      requirePermission({ role: "TEAM" }, "subscription:change");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "FB001", status: 403 });
    expect(() => requirePermission({ role: "ADMIN" }, "subscription:change")).not.toThrow();
  });

  it("asks a page's permission on every method and its action permission on posts only", () => {
    const handles: PermissionHandle[] = [{ actionPermission: "settings:manage" }, { permission: "members:manage" }];
    expect(permissionsFor(handles, "GET")).toEqual(["members:manage"]);
    expect(permissionsFor(handles, "HEAD")).toEqual(["members:manage"]);
    expect(permissionsFor(handles, "POST").sort()).toEqual(["members:manage", "settings:manage"]);
    expect(permissionsFor([{ permission: "nonsense" as Permission }, null], "POST")).toEqual([]);
  });
});

interface WalkRoute {
  path: string;
  file: string;
}

/** Every route of app/routes.ts with its full path (layouts flattened). */
function flatten(entries: RouteConfigEntry[], parent = ""): WalkRoute[] {
  return entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}` : parent;
    const own = e.children?.length ? [] : [{ path: path || "/", file: e.file }];
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

const SAMPLE_PARAMS: Record<string, string> = { lng: "en-GB", e164: "%2B447700900123" };
const urlOf = (path: string) => path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => SAMPLE_PARAMS[name] ?? "1").replace(/\*$/, "no-such-page");

interface RouteModule {
  handle?: PermissionHandle;
  loader?: { permissions?: Partial<Record<string, Permission | null>> };
}

/** A browser signed in as this user, with its own fresh session (no password round trip). */
async function clientFor(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

async function isForbiddenPage(res: Response): Promise<boolean> {
  return res.status === 403 && pageText(await res.text()).includes(FORBIDDEN_EN);
}

describe.each(DIALECTS)("roles over HTTP (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  async function team() {
    const account = await createAccount(t.app.db, { trialCredits: 200 });
    const teamUser = await createTeamUser(t.app.db, account.businessId, { name: "Terry Team" });
    const admin = await clientFor(t.app, account.id);
    const member = await clientFor(t.app, teamUser.id);
    return { account, teamUser, admin, member };
  }

  it("refuses a team member the Administrator page with a translated FB001 page (403)", async () => {
    const { admin, member } = await team();
    const refused = await member.get("/manageteam");
    expect(refused.status).toBe(403);
    const text = pageText(await refused.text());
    expect(text).toContain(FORBIDDEN_EN);
    expect(text).not.toContain("terry"); // nothing of the page itself
    const fr = await member.get("/manageteam?lng=fr");
    expect(fr.status).toBe(403);
    expect(pageText(await fr.text())).toContain(FORBIDDEN_FR);

    const ok = await admin.get("/manageteam");
    expect(ok.status).toBe(200);
    const page = pageText(await ok.text());
    expect(page).toContain("Terry Team");
    expect(page).toContain("Team member");
    expect(page).toContain("Account administrator");
    // The settings page links to it for the Administrator only.
    expect(await (await admin.get("/myaccount")).text()).toContain('href="/manageteam"');
    expect(await (await member.get("/myaccount")).text()).not.toContain('href="/manageteam"');
  });

  it("lets a team member read My account but not save the business's default texts (FB001, nothing saved)", async () => {
    const { account, admin, member } = await team();
    const page = await member.get("/myaccount");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(pageText(html)).toContain("Only your account administrator can change these texts.");
    expect(html).not.toContain('name="optIn"');

    const refused = await member.post("/myaccount", { optIn: "{{businessName}} team says hi. Reply YES, or STOP to opt out.", optOut: "" });
    expect(refused.status).toBe(403);
    expect(pageText(await refused.text())).toContain(FORBIDDEN_EN);
    const biz = () => t.app.db.selectFrom("businesses").select(["opt_in_message"]).where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect((await biz()).opt_in_message).toBeNull();

    expect(await (await admin.get("/myaccount")).text()).toContain('name="optIn"');
    expect((await admin.post("/myaccount", { optIn: "{{businessName}} says hi. Reply YES, or STOP to opt out.", optOut: "" })).status).toBe(302);
    expect((await biz()).opt_in_message).toBe("{{businessName}} says hi. Reply YES, or STOP to opt out.");
  });

  it("answers a team member's Administrator API call with the FB001 envelope (cookie or bearer token)", async () => {
    const { teamUser, admin, member } = await team();
    const refused = await member.get("/api/account/team");
    expect(refused.status).toBe(403);
    expect(refused.headers.get("content-type")).toContain("application/json");
    expect(await refused.json()).toEqual({ responseCode: "FB001", data: null, errorStatuses: [{ responseCode: "FB001" }] });

    const anon = t.app.client();
    const login = await anon.json("/api/account/token", "POST", { email: teamUser.email, password: teamUser.password });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const bearer = await anon.request("/api/account/team", { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(bearer.status).toBe(403);
    expect(((await bearer.json()) as { responseCode: string }).responseCode).toBe("FB001");
    // Signed out is still 401, before any permission is looked at.
    expect((await t.app.client().get("/api/account/team")).status).toBe(401);

    const ok = await admin.get("/api/account/team");
    expect(ok.status).toBe(200);
    const list = (await ok.json()) as Array<{ name: string; role: string }>;
    expect(list.map((u) => u.role)).toEqual(["ADMIN", "TEAM"]);
  });

  it("lets a team member use the member, attribute and direct-message screens", async () => {
    const { account, member } = await team();
    for (const path of ["/mycommunity", "/invitemember", "/memberattributes", "/directmessages", "/newdirectmessage", "/groups"]) {
      expect((await member.get(path)).status, path).toBe(200);
    }
    const phone = ukMobile();
    expect((await member.post("/invitemember", { phone })).status).toBe(302);
    expect(await t.app.db.selectFrom("members").select("id").where("phone", "=", phone).executeTakeFirst()).toBeDefined();

    expect((await member.post("/memberattributes", { name: "Team drink", type: "TEXT" })).status).toBe(302);
    expect(pageText(await (await member.get("/memberattributes")).text())).toContain("Team drink");

    const [alice] = await seedMembers(t.app.db, account.businessId, 1);
    const at = new Date().toISOString();
    await t.app.db.insertInto("conversations").values({ business_id: account.businessId, member_id: alice.id, state: "UNREAD", last_message_at: at, unread_count: 1 }).execute();
    expect((await member.get(`/member/messages?id=${alice.id}`)).status).toBe(200);
    const reply = await member.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "Thanks, see you soon", token: "tok_team12345678ab" });
    expect(reply.status).toBe(302);
    const dm = await t.app.db.selectFrom("messages").select("id").where("business_id", "=", account.businessId).where("kind", "=", "DM").executeTakeFirst();
    expect(dm).toBeDefined();
    expect((await member.get("/api/directmessages?filter=UNREAD")).status).toBe(200);
  });

  it("walks every route as each role: normal answers or FB001 exactly as declared, never a 500", async () => {
    const { account, teamUser } = await team();
    const all = flatten(routes);
    expect(all.length).toBeGreaterThan(40);
    const checked: string[] = [];
    for (const [role, userId] of [["TEAM", teamUser.id], ["ADMIN", account.id]] as const) {
      const user = { role };
      for (const route of all) {
        const mod = (await import(/* @vite-ignore */ `../../app/${route.file}`)) as RouteModule;
        const url = urlOf(route.path);
        const where = `${role} ${route.path}`;
        const api = mod.loader?.permissions;
        if (api) {
          for (const [method, permission] of Object.entries(api)) {
            const client = await clientFor(t.app, userId);
            const res = method === "GET" ? await client.get(url) : await client.json(url, method, {});
            expect(res.status, `${where} ${method}`).toBeLessThan(500);
            const body = res.headers.get("content-type")?.includes("json") ? ((await res.json()) as { responseCode?: string } | null) : null;
            const refused = res.status === 403 && body?.responseCode === "FB001";
            expect(refused, `${where} ${method}`).toBe(permission ? !can(user, permission) : false);
            checked.push(`${where} ${method}`);
          }
          continue;
        }
        const client = await clientFor(t.app, userId);
        const needGet = permissionsFor([mod.handle], "GET");
        const res = await client.get(url);
        expect(res.status, where).toBeLessThan(500);
        // The operator console is never reachable with a business's session, whatever the role.
        if (route.path === "/ops" || route.path.startsWith("/ops/")) expect(res.status, where).toBe(404);
        expect(await isForbiddenPage(res), where).toBe(needGet.some((p) => !can(user, p)));
        const needPost = permissionsFor([mod.handle], "POST");
        if (needPost.length) {
          const post = await client.post(url, {});
          expect(post.status, `${where} POST`).toBeLessThan(500);
          expect(await isForbiddenPage(post), `${where} POST`).toBe(needPost.some((p) => !can(user, p)));
        }
        checked.push(where);
      }
    }
    // The walk saw the Administrator-only screens it is meant to.
    expect(checked).toContain("TEAM /manageteam");
    expect(checked).toContain("TEAM /api/account/team GET");
    expect(checked).toContain("ADMIN /ops/businesses/:id");
  }, 120_000);
});
