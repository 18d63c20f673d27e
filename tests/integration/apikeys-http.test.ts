// The API keys page over HTTP on both databases: the Administrator makes a key and sees its secret once (never
// again, never stored), at least one permission is required, disable/enable, roll and delete act on the
// business's own keys only (another business's key id is 404), and a team member is refused (FB001).
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import { createSession } from "~/domain/accounts/sessions.server";
import { createApiKey } from "~/domain/apikeys/keys.server";
import { hashApiKey } from "~/domain/apikeys/format.server";

async function clientFor(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

const KEY = /tc_live_[0-9A-Za-z]{38}/;
const PAGE = "/manageintegrations/apikeys";

describe.each(DIALECTS)("API keys page (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("makes a key, shows its secret once, and lists it by its last four characters", async () => {
    const account = await createAccount(t.app.db);
    const admin = await clientFor(t.app, account.id);
    const empty = await admin.get(PAGE);
    expect(empty.status).toBe(200);
    expect(pageText(await empty.text())).toContain("You have no API keys yet.");

    const made = await admin.post(PAGE, { intent: "create", name: "Till system", enabled: "on", memberPermission: "WRITE", messagingPermission: "READ" });
    expect(made.status).toBe(200);
    const html = await made.text();
    const secret = KEY.exec(html)?.[0];
    expect(secret).toBeDefined();
    expect(pageText(html)).toContain("this is the only time it is shown");
    expect(made.headers.get("cache-control")).toContain("no-store");

    const row = await t.app.db.selectFrom("api_keys").selectAll().where("business_id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Till system", member_permission: "WRITE", messaging_permission: "READ" });
    expect(Number(row.enabled)).toBe(1);
    const stored = await t.app.db.selectFrom("api_key_secrets").selectAll().where("api_key_id", "=", row.id).executeTakeFirstOrThrow();
    expect(stored.secret_hash).toBe(hashApiKey(secret!));

    // Afterwards: listed, never shown again.
    const later = await (await admin.get(PAGE)).text();
    expect(later).not.toMatch(KEY);
    expect(pageText(later)).toContain(`tc_live_…${secret!.slice(-4)}`);
    expect(pageText(later)).toContain("Till system");
    expect(pageText(later)).toContain("Never"); // not used yet

    // The key works on the API.
    const res = await fetch(`${t.app.url}/api/v1/members`, { headers: { Authorization: `Bearer ${secret}` } });
    expect(res.status).toBe(200);
    expect(pageText(await (await admin.get(PAGE)).text())).not.toContain("Never");
  });

  it("requires a name and at least one permission, saving nothing otherwise", async () => {
    const account = await createAccount(t.app.db);
    const admin = await clientFor(t.app, account.id);
    const none = await admin.post(PAGE, { intent: "create", name: "Nothing", enabled: "on", memberPermission: "NONE", messagingPermission: "NONE" });
    expect(none.status).toBe(400);
    expect(pageText(await none.text())).toContain("Choose at least one permission");
    const noName = await admin.post(PAGE, { intent: "create", name: " ", memberPermission: "READ", messagingPermission: "NONE" });
    expect(noName.status).toBe(400);
    const bad = await admin.post(PAGE, { intent: "create", name: "X", memberPermission: "ADMIN", messagingPermission: "NONE" });
    expect(bad.status).toBe(400);
    expect(await t.app.db.selectFrom("api_keys").select("id").where("business_id", "=", account.businessId).execute()).toEqual([]);
  });

  it("disables, enables, rolls and deletes the business's own keys; another business's key is 404", async () => {
    const account = await createAccount(t.app.db);
    const admin = await clientFor(t.app, account.id);
    const { id, key } = await createApiKey(t.app.db, account.businessId, { name: "Website", enabled: true, memberPermission: "READ", messagingPermission: "NONE" }, account.id, new Date());
    const call = (k: string) => fetch(`${t.app.url}/api/v1/groups`, { headers: { Authorization: `Bearer ${k}` } }).then((r) => r.status);

    expect((await admin.post(PAGE, { intent: "disable", keyId: String(id) })).status).toBe(302);
    expect(await call(key)).toBe(401);
    expect(pageText(await (await admin.get(PAGE)).text())).toContain("Disabled");
    expect((await admin.post(PAGE, { intent: "enable", keyId: String(id) })).status).toBe(302);
    expect(await call(key)).toBe(200);

    const rolled = await admin.post(PAGE, { intent: "roll", keyId: String(id), grace: "3600" });
    expect(rolled.status).toBe(200);
    const fresh = KEY.exec(await rolled.text())?.[0];
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(key);
    expect(await call(fresh!)).toBe(200);
    expect(await call(key)).toBe(200); // inside its hour of grace
    expect(pageText(await (await admin.get(PAGE)).text())).toContain(`ending …${key.slice(-4)} still works until`);
    expect((await admin.post(PAGE, { intent: "roll", keyId: String(id), grace: "12345" })).status).toBe(400);

    const other = await createAccount(t.app.db);
    const theirs = await createApiKey(t.app.db, other.businessId, { name: "Theirs", enabled: true, memberPermission: "READ", messagingPermission: "NONE" }, other.id, new Date());
    for (const intent of ["disable", "enable", "delete"]) expect((await admin.post(PAGE, { intent, keyId: String(theirs.id) })).status).toBe(404);
    expect((await admin.post(PAGE, { intent: "roll", keyId: String(theirs.id), grace: "0" })).status).toBe(404);
    expect(await call(theirs.key)).toBe(200);

    expect((await admin.post(PAGE, { intent: "delete", keyId: String(id) })).status).toBe(302);
    expect(await call(fresh!)).toBe(401);
    expect(await call(key)).toBe(401);
    expect(pageText(await (await admin.get(PAGE)).text())).toContain("You have no API keys yet.");
  });

  it("refuses a team member the page and its actions (FB001), and links to it from My account for the Administrator only", async () => {
    const account = await createAccount(t.app.db);
    const team = await createTeamUser(t.app.db, account.businessId);
    const member = await clientFor(t.app, team.id);
    const admin = await clientFor(t.app, account.id);
    expect((await member.get(PAGE)).status).toBe(403);
    const post = await member.post(PAGE, { intent: "create", name: "Sneaky", enabled: "on", memberPermission: "WRITE", messagingPermission: "WRITE" });
    expect(post.status).toBe(403);
    expect(await t.app.db.selectFrom("api_keys").select("id").where("business_id", "=", account.businessId).execute()).toEqual([]);
    expect(await (await admin.get("/myaccount")).text()).toContain(`href="${PAGE}"`);
    expect(await (await member.get("/myaccount")).text()).not.toContain(`href="${PAGE}"`);
  });

  it("renders the API reference from the OpenAPI document", async () => {
    const account = await createAccount(t.app.db);
    const admin = await clientFor(t.app, account.id);
    const res = await admin.get(`${PAGE}/reference`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const text = pageText(html);
    for (const path of ["/api/v1/members", "/api/v1/members/{id}/messages", "/api/v1/groupmessages/{id}", "/api/v1/campaigns/{id}"]) expect(text).toContain(path);
    expect(text).toContain("members:write");
    expect(text).toContain("PRIOR_CONSENT");
    const doc = await fetch(`${t.app.url}/api/v1/openapi.json`);
    expect(doc.status).toBe(200);
    expect(((await doc.json()) as { openapi: string }).openapi).toBe("3.1.0");
  });
});
