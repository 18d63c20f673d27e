// Group pages over HTTP: create list and smart groups, edit members, the smart editor's no-JS buttons
// (add/remove/count), bad input kept with a translated error (never a 500), deletion with the pending
// warning, and tenant isolation on every route that takes an id.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { pageText, useTestApp, type TestClient } from "../support/server";
import { seedMembers } from "../support/pipeline";

describe("group pages", () => {
  const t = useTestApp();
  let account: Awaited<ReturnType<typeof createAccount>>;
  let client: TestClient;
  let members: Array<{ id: number; phone: string }>;

  beforeAll(async () => {
    account = await createAccount(t.app.db, { messageAllowance: 1000 });
    client = t.app.client();
    await client.login(account.email, account.password);
    members = await seedMembers(t.app.db, account.businessId, 3, { firstName: (i) => ["Priya", "Quentin", "Rosa"][i] });
  });

  it("lists groups with All subscribers and makes a list group, then adds, finds and removes members", async () => {
    const page = await client.get("/groups");
    expect(page.status).toBe(200);
    expect(pageText(await page.text())).toMatch(/All subscribers\s*Everyone subscribed\s*3 members/);
    const made = await client.post("/groups", { name: "Regulars", type: "LIST" });
    expect(made.status).toBe(302);
    const loc = made.headers.get("location")!;
    expect(loc).toMatch(/^\/contactgroup\/\d+$/);
    const search = pageText(await (await client.get(`${loc}?q=quen`)).text());
    expect(search).toContain("Quentin");
    expect(search).not.toContain("Priya");
    expect((await client.post(loc, { intent: "add", memberId: String(members[1].id), q: "quen" })).status).toBe(302);
    expect(pageText(await (await client.get(loc)).text())).toMatch(/1 subscribed member\./);
    expect((await client.post(loc, { intent: "remove", memberId: String(members[1].id) })).status).toBe(302);
    expect(pageText(await (await client.get(loc)).text())).toContain("No members in this group");
  });

  it("keeps bad group names with a translated error and never a 500", async () => {
    for (const name of ["", "x".repeat(41), "<script>alert(1)</script>", "a\u0007b"]) {
      const res = await client.post("/groups", { name, type: "LIST" });
      expect(res.status).toBe(400);
      const text = pageText(await res.text());
      expect(text).toMatch(/is required|40 characters or fewer|can only use letters|characters that cannot be used/i);
    }
    expect((await client.post("/groups", { name: "Fine", type: "DROP TABLE" })).status).toBe(400);
  });

  it("builds a smart group without JavaScript: add a filter, count, save, and a non-number for a number comparison is refused", async () => {
    const start = await client.post("/groups", { name: "Q people", type: "SMART" });
    expect(start.headers.get("location")).toBe("/smartgroup/new?name=Q%20people");
    const editor = await client.get("/smartgroup/new?name=Q%20people");
    expect(editor.status).toBe(200);
    const base = { name: "Q people", match: "ALL", "conditions[0].field": "firstName", "conditions[0].op": "contains", "conditions[0].value": "quen" };
    const added = await client.post("/smartgroup/new", { ...base, intent: "add" });
    expect(added.status).toBe(200);
    const addedHtml = await added.text();
    expect(addedHtml).toContain('name="conditions[1].field"');
    expect(addedHtml).toContain('value="quen"');
    const counted = await client.post("/smartgroup/new", { ...base, intent: "count" });
    expect(pageText(await counted.text())).toContain("1 subscribed member matches.");
    const attr = await t.app.db
      .insertInto("attributes")
      .values({ business_id: account.businessId, key: "visits", name: "Visits", type: "NUMBER", created_at: new Date().toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    const bad = await client.post("/smartgroup/new", { ...base, "conditions[1].field": `attr:${attr.id}`, "conditions[1].op": "gt", "conditions[1].value": "lots", intent: "save" });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(pageText(badHtml)).toContain("Value must be a number.");
    expect(badHtml).toContain('value="lots"');
    const saved = await client.post("/smartgroup/new", { ...base, intent: "save" });
    expect(saved.status).toBe(302);
    const loc = saved.headers.get("location")!;
    expect(loc).toMatch(/^\/smartgroup\/\d+$/);
    expect(pageText(await (await client.get(loc)).text())).toContain("1 subscribed member matches.");
    expect(pageText(await (await client.get("/groups")).text())).toMatch(/Q people\s*Smart group\s*1 member/);
    // Injection attempts are plain values.
    const sqlish = await client.post(loc, { ...base, "conditions[0].value": "' OR 1=1 --", intent: "count" });
    expect(sqlish.status).toBe(200);
    expect(pageText(await sqlish.text())).toContain("0 subscribed members match.");
    const unknownField = await client.post(loc, { ...base, "conditions[0].field": "members.id; --", intent: "count" });
    expect(unknownField.status).toBe(400);
  });

  it("warns before deleting a group with a pending message, then deletes both", async () => {
    const made = await client.post("/groups", { name: "Soon", type: "LIST" });
    const loc = made.headers.get("location")!;
    const id = Number(loc.split("/").pop());
    await client.post(loc, { intent: "add", memberId: String(members[0].id) });
    const now = new Date().toISOString();
    const msg = await t.app.db
      .insertInto("messages")
      .values({ business_id: account.businessId, kind: "GROUP", body: "Hi", group_id: id, status: "SCHEDULED", send_at: new Date(Date.now() + 86_400_000).toISOString(), editable_until: new Date(Date.now() + 86_400_000).toISOString(), created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The delete step (a page of its own without JavaScript) says what deleting does before anything goes.
    const page = pageText(await (await client.get(`${loc}?confirm=delete-group`)).text());
    expect(page).toContain("1 message to this group has not been sent yet.");
    const unconfirmed = await client.post(loc, { intent: "delete" });
    expect(unconfirmed.status).toBe(200);
    expect(await t.app.db.selectFrom("groups").select("id").where("id", "=", id).execute()).toHaveLength(1);
    const confirmed = await client.post(loc, { intent: "delete", confirm: "yes" });
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe("/groups");
    expect(await t.app.db.selectFrom("groups").select("id").where("id", "=", id).execute()).toHaveLength(0);
    expect(await t.app.db.selectFrom("messages").select("id").where("id", "=", msg.id).execute()).toHaveLength(0);
  });

  it("another business's groups are 404 on every route and action", async () => {
    const other = await createAccount(t.app.db);
    const otherClient = t.app.client();
    await otherClient.login(other.email, other.password);
    const list = (await client.post("/groups", { name: "Mine", type: "LIST" })).headers.get("location")!;
    const smart = (await client.post("/smartgroup/new", { name: "Mine smart", match: "ALL", intent: "save" })).headers.get("location")!;
    for (const path of [list, smart]) {
      expect((await otherClient.get(path)).status).toBe(404);
      expect((await otherClient.post(path, { intent: "delete", confirm: "yes" })).status).toBe(404);
    }
    expect((await otherClient.post(list, { intent: "add", memberId: String(members[0].id) })).status).toBe(404);
    expect((await otherClient.post(smart, { name: "x", match: "ALL", intent: "count" })).status).toBe(404);
    expect((await client.get("/contactgroup/abc")).status).toBe(404);
    expect((await client.get("/smartgroup/99999999")).status).toBe(404);
    expect(await t.app.db.selectFrom("groups").select("id").where("business_id", "=", account.businessId).where("name", "like", "Mine%").execute()).toHaveLength(2);
  });
});
