// The public API (/api/v1/) on both databases: API keys (shape, checksum, hash-only storage, disabled and deleted
// keys refused at once, rolling with a grace period), scopes (FB001), tenancy (another business's ids are 404),
// strict bodies (UA002 naming the field), the per-key rate limit (429 with its headers, other keys unaffected),
// idempotent POSTs (one member, one text), and the "done when" walk: a client that knows only the OpenAPI
// document adds a member, texts them and reads their reply from the SMS simulator.
import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount, ukMobile } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { useTestApp, type TestApp } from "../support/server";
import { createApiKey, deleteApiKey, rollApiKey, setApiKeyEnabled, type ApiKeyInput } from "~/domain/apikeys/keys.server";
import { hashApiKey } from "~/domain/apikeys/format.server";
import { purgeIdempotency } from "~/domain/apikeys/idempotency.server";

const FULL: ApiKeyInput = { name: "Till system", enabled: true, memberPermission: "WRITE", messagingPermission: "WRITE" };

interface Client {
  businessId: number;
  keyId: number;
  key: string;
  call(path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }): Promise<Response>;
}

async function apiClient(app: TestApp, input: Partial<ApiKeyInput> = {}, businessId?: number): Promise<Client> {
  const business = businessId ?? (await createAccount(app.db, { trialCredits: 500 })).businessId;
  const { id, key } = await createApiKey(app.db, business, { ...FULL, ...input }, null, new Date());
  return {
    businessId: business,
    keyId: id,
    key,
    call: (path, init = {}) =>
      fetch(app.url + path, {
        method: init.method ?? "GET",
        headers: { Authorization: `Bearer ${key}`, ...(init.body !== undefined ? { "Content-Type": "application/json" } : {}), ...init.headers },
        body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
      }),
  };
}

async function expectError(res: Response, status: number, code: string): Promise<{ responseCode: string; errorStatuses: Array<{ responseCode: string; data?: Record<string, string> }> }> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${text.slice(0, 400)}`);
  const body = JSON.parse(text);
  expect(body.responseCode).toBe(code);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  return body;
}

async function json(res: Response, status = 200): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 400)}`);
  return text ? JSON.parse(text) : null;
}

const addBody = (phone: string, extra: Record<string, unknown> = {}) => ({ phone, firstName: "Ann", consent: { source: "PRIOR_CONSENT", evidence: "Signed the paper form at the till" }, ...extra });

describe.each(DIALECTS)("public API v1 (%s)", (dialect) => {
  // A generous limit here; the rate-limit block below starts its own app with a small one.
  const t = useTestApp({ dialect, env: { API_RATE_BURST: "1000", API_RATE_PER_SECOND: "1000" } });

  it("stores only a hash of each key and refuses a malformed or mistyped key before any lookup", async () => {
    const c = await apiClient(t.app);
    expect(c.key).toMatch(/^tc_live_[0-9A-Za-z]{38}$/);
    const rows = await t.app.db.selectFrom("api_key_secrets").selectAll().where("api_key_id", "=", c.keyId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0].secret_hash).toBe(hashApiKey(c.key));
    expect(JSON.stringify(await t.app.db.selectFrom("api_keys").selectAll().where("id", "=", c.keyId).execute())).not.toContain(c.key.slice(8, 30));
    expect(rows[0].last_four).toBe(c.key.slice(-4));

    expect((await json(await c.call("/api/v1/members"))).items).toEqual([]);
    const typo = c.key.slice(0, 20) + (c.key[20] === "a" ? "b" : "a") + c.key.slice(21);
    for (const header of [undefined, "Bearer", `Bearer ${typo}`, `Bearer ${c.key}x`, `Basic ${c.key}`, `Bearer tc_test_${c.key.slice(8)}`]) {
      const res = await fetch(`${t.app.url}/api/v1/members`, { headers: header ? { Authorization: header } : {} });
      await expectError(res, 401, "UA001");
      expect(res.headers.get("www-authenticate")).toContain("Bearer");
    }
  });

  it("refuses a disabled key and a deleted key on their very next call, and takes a re-enabled key back", async () => {
    const c = await apiClient(t.app);
    await json(await c.call("/api/v1/groups"));
    await setApiKeyEnabled(t.app.db, c.businessId, c.keyId, false, new Date());
    await expectError(await c.call("/api/v1/groups"), 401, "UA001");
    await setApiKeyEnabled(t.app.db, c.businessId, c.keyId, true, new Date());
    await json(await c.call("/api/v1/groups"));
    await deleteApiKey(t.app.db, c.businessId, c.keyId);
    await expectError(await c.call("/api/v1/groups"), 401, "UA001");
    expect(await t.app.db.selectFrom("api_key_secrets").select("id").where("api_key_id", "=", c.keyId).execute()).toEqual([]);
  });

  it("refuses every key of a business an operator suspended or disabled (403 UA005), and takes them back once lifted", async () => {
    const c = await apiClient(t.app);
    await json(await c.call("/api/v1/groups"));
    const before = (await t.app.db.selectFrom("businesses").select("status").where("id", "=", c.businessId).executeTakeFirstOrThrow()).status;
    for (const status of ["SUSPENDED", "DISABLED"] as const) {
      await t.app.db.updateTable("businesses").set({ status }).where("id", "=", c.businessId).execute();
      await expectError(await c.call("/api/v1/groups"), 403, "UA005");
      await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody("07700 900461") }), 403, "UA005");
    }
    expect(await t.app.db.selectFrom("members").select("id").where("business_id", "=", c.businessId).execute()).toEqual([]);
    await t.app.db.updateTable("businesses").set({ status: before }).where("id", "=", c.businessId).execute();
    await json(await c.call("/api/v1/groups"));
  });

  it("rolls a key: the new secret works at once, the old one until its grace period ends (or not at all with none)", async () => {
    const c = await apiClient(t.app);
    const rolled = await rollApiKey(t.app.db, c.businessId, c.keyId, 3600, new Date());
    expect(rolled.key).not.toBe(c.key);
    const next = (path: string) => fetch(t.app.url + path, { headers: { Authorization: `Bearer ${rolled.key}` } });
    await json(await next("/api/v1/groups"));
    await json(await c.call("/api/v1/groups")); // still inside its hour
    // The hour passes (the grace is stored as an instant: move it into the past).
    await t.app.db.updateTable("api_key_secrets").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("secret_hash", "=", hashApiKey(c.key)).execute();
    await expectError(await c.call("/api/v1/groups"), 401, "UA001");
    await json(await next("/api/v1/groups"));

    const again = await rollApiKey(t.app.db, c.businessId, c.keyId, 0, new Date());
    await expectError(await next("/api/v1/groups"), 401, "UA001");
    expect((await fetch(`${t.app.url}/api/v1/groups`, { headers: { Authorization: `Bearer ${again.key}` } })).status).toBe(200);
  });

  it("maps permissions to scopes exactly: a read key calling a write operation is 403 FB001 and nothing changes", async () => {
    const readMembers = await apiClient(t.app, { memberPermission: "READ", messagingPermission: "NONE" });
    await json(await readMembers.call("/api/v1/members"));
    await json(await readMembers.call("/api/v1/groups"));
    const phone = ukMobile();
    await expectError(await readMembers.call("/api/v1/members", { method: "POST", body: addBody(phone) }), 403, "FB001");
    expect(await t.app.db.selectFrom("members").select("id").where("phone", "=", phone).execute()).toEqual([]);
    await expectError(await readMembers.call("/api/v1/groupmessages"), 403, "FB001");
    await expectError(await readMembers.call("/api/v1/campaigns"), 403, "FB001");

    const [m] = await seedMembers(t.app.db, readMembers.businessId, 1);
    const messagingRead = await apiClient(t.app, { memberPermission: "NONE", messagingPermission: "READ" }, readMembers.businessId);
    await json(await messagingRead.call(`/api/v1/members/${m.id}/messages`));
    await expectError(await messagingRead.call(`/api/v1/members/${m.id}`), 403, "FB001");
    await expectError(await messagingRead.call(`/api/v1/members/${m.id}/messages`, { method: "POST", body: { text: "Hello" } }), 403, "FB001");
    await expectError(await messagingRead.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: -1, text: "Hello" } }), 403, "FB001");
    const messagingWrite = await apiClient(t.app, { memberPermission: "NONE", messagingPermission: "WRITE" }, readMembers.businessId);
    await json(await messagingWrite.call(`/api/v1/members/${m.id}/messages`, { method: "POST", body: { text: "Hello" } }), 201);
    await expectError(await messagingWrite.call(`/api/v1/members/${m.id}/optout`, { method: "POST" }), 403, "FB001");
    const outbound = await t.app.db.selectFrom("messages").select("id").where("business_id", "=", readMembers.businessId).where("kind", "=", "DM").execute();
    expect(outbound).toHaveLength(1);
  });

  it("keeps each business to its own data: another business's ids are 404 NF001", async () => {
    const a = await apiClient(t.app);
    const b = await apiClient(t.app);
    const [theirs] = await seedMembers(t.app.db, b.businessId, 1);
    for (const path of [`/api/v1/members/${theirs.id}`, `/api/v1/members/${theirs.id}/messages`]) await expectError(await a.call(path), 404, "NF001");
    await expectError(await a.call(`/api/v1/members/${theirs.id}`, { method: "PATCH", body: { firstName: "Mallory" } }), 404, "NF001");
    await expectError(await a.call(`/api/v1/members/${theirs.id}/optout`, { method: "POST" }), 404, "NF001");
    await expectError(await a.call(`/api/v1/members/${theirs.id}/messages`, { method: "POST", body: { text: "Hi" } }), 404, "NF001");
    const member = await t.app.db.selectFrom("members").select(["first_name", "status"]).where("id", "=", theirs.id).executeTakeFirstOrThrow();
    expect(member).toEqual({ first_name: "Member0", status: "SUBSCRIBED" });
    expect((await json(await a.call("/api/v1/members"))).items).toEqual([]);
    expect((await json(await b.call("/api/v1/members"))).items.map((m: { id: number }) => m.id)).toEqual([theirs.id]);
    // A group message of B.
    const gm = await json(await b.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: -1, text: "For B's members", sendAt: new Date(Date.now() + 86_400_000).toISOString() } }), 201);
    await expectError(await a.call(`/api/v1/groupmessages/${gm.id}`), 404, "NF001");
    await expectError(await a.call(`/api/v1/groupmessages/${gm.id}`, { method: "DELETE" }), 404, "NF001");
    await json(await b.call(`/api/v1/groupmessages/${gm.id}`));
    await expectError(await a.call("/api/v1/groups/999999999/members"), 404, "NF001");
    for (const path of ["/api/v1/members/abc", "/api/v1/members/0", "/api/v1/members/-3"]) await expectError(await a.call(path), 404, "NF001");
  });

  it("refuses unknown fields and wrong types with UA002 naming the field, saving nothing", async () => {
    const c = await apiClient(t.app);
    const phone = ukMobile();
    const cases: Array<[unknown, string]> = [
      [{ ...addBody(phone), nickname: "Annie" }, "nickname"],
      [{ ...addBody(phone), firstName: 42 }, "firstName"],
      [{ ...addBody(phone), consent: { source: "PRIOR_CONSENT", evidence: "Signed form", extra: 1 } }, "consent.extra"],
      [{ ...addBody(phone), consent: { source: "BECAUSE" } }, "consent.source"],
      [{ phone }, "consent"],
      [{ ...addBody(phone), attributes: { drink: { nested: true } } }, "attributes.drink"],
      [{ ...addBody(phone), phone: 7700900123 }, "phone"],
    ];
    for (const [body, field] of cases) {
      const err = await expectError(await c.call("/api/v1/members", { method: "POST", body }), 400, "UA002");
      expect(err.errorStatuses.map((s) => s.data?.field), JSON.stringify(body)).toContain(field);
    }
    for (const raw of ["{not json", "[]", "null"]) {
      const res = await c.call("/api/v1/members", { method: "POST", body: raw });
      expect(res.status).toBe(400);
    }
    const wrongType = await fetch(`${t.app.url}/api/v1/members`, { method: "POST", headers: { Authorization: `Bearer ${c.key}`, "Content-Type": "text/plain" }, body: JSON.stringify(addBody(phone)) });
    await expectError(wrongType, 400, "UA002");
    const q = await expectError(await c.call("/api/v1/members?colour=red"), 400, "UA002");
    expect(q.errorStatuses[0].data?.field).toBe("colour");
    await expectError(await c.call("/api/v1/members?limit=1000"), 400, "UA002");
    await expectError(await c.call(`/api/v1/members/1/messages`, { method: "POST", body: { text: "" } }), 400, "UA002");
    expect(await t.app.db.selectFrom("members").select("id").where("phone", "=", phone).execute()).toEqual([]);
    // An unknown attribute key is named too.
    const attr = await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(phone, { attributes: { noSuchThing: "x" } }) }), 400, "UA002");
    expect(attr.errorStatuses[0].data?.field).toBe("attributes.noSuchThing");
    expect(t.app.serverErrors).not.toMatch(/unexpected error/);
  });

  it("adds members through the consent service: BR021, BR039, BR050, double opt-in, search and keyset paging", async () => {
    const c = await apiClient(t.app);
    const phone = ukMobile();
    const added = await json(await c.call("/api/v1/members", { method: "POST", body: addBody(phone.replace("+44", "0"), { fullName: "Ann Lee", birthday: "21/03" }) }), 201);
    expect(added).toMatchObject({ phone, firstName: "Ann", fullName: "Ann Lee", status: "SUBSCRIBED", birthday: "21/03" });
    const log = await t.app.db.selectFrom("consent_log").select(["action", "channel", "evidence"]).where("phone", "=", phone).execute();
    expect(log).toEqual([{ action: "OPTED_IN", channel: "API", evidence: expect.stringContaining("Signed the paper form at the till") }]);
    await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(phone) }), 409, "BR021");
    await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody("01632 960000") }), 400, "BR050");

    // Opt out, then the business may not add them back: only the person can.
    const out = await json(await c.call(`/api/v1/members/${added.id}/optout`, { method: "POST" }));
    expect(out.status).toBe("OPTED_OUT");
    await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(phone) }), 400, "BR039");
    await expectError(await c.call("/api/v1/members", { method: "POST", body: { phone, consent: { source: "DOUBLE_OPT_IN" } } }), 400, "BR039");

    const invited = ukMobile();
    const pending = await json(await c.call("/api/v1/members", { method: "POST", body: { phone: invited, fullName: "Bob Stone", consent: { source: "DOUBLE_OPT_IN" } } }), 201);
    expect(pending.status).toBe("PENDING");
    const optInText = await t.app.db.selectFrom("outbound").select("body").where("to_phone", "=", invited).execute();
    expect(optInText).toHaveLength(1);
    // BR027: no direct message before they confirm.
    await expectError(await c.call(`/api/v1/members/${pending.id}/messages`, { method: "POST", body: { text: "Hello Bob" } }), 400, "BR027");

    // Update and read back.
    const updated = await json(await c.call(`/api/v1/members/${pending.id}`, { method: "PATCH", body: { firstName: "Bobby", note: "Likes window seats" } }));
    expect(updated).toMatchObject({ firstName: "Bobby", fullName: "Bob Stone", note: "Likes window seats" });

    // Search and paging.
    await seedMembers(t.app.db, c.businessId, 5);
    const found = await json(await c.call("/api/v1/members?q=Bob"));
    expect(found.items.map((m: { id: number }) => m.id)).toEqual([pending.id]);
    const first = await json(await c.call("/api/v1/members?limit=3"));
    expect(first.items).toHaveLength(3);
    const second = await json(await c.call(`/api/v1/members?limit=3&after=${first.nextCursor}`));
    const third = await json(await c.call(`/api/v1/members?limit=3&after=${second.nextCursor}`));
    const ids = [...first.items, ...second.items, ...third.items].map((m: { id: number }) => m.id);
    expect(new Set(ids).size).toBe(7);
    expect(third.nextCursor).toBeNull();
  });

  it("BR049: a mandatory attribute must be given, and attributes are read and written by key", async () => {
    const c = await apiClient(t.app);
    const at = new Date().toISOString();
    await t.app.db.insertInto("attributes").values({ business_id: c.businessId, key: "drink", name: "Drink", type: "TEXT", show_on_form: 1, member_can_edit: 0, mandatory: 1, position: 0, created_at: at }).execute();
    const phone = ukMobile();
    const missing = await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(phone) }), 400, "BR049");
    expect(missing.errorStatuses[0].data?.field).toBe("attributes.drink");
    const added = await json(await c.call("/api/v1/members", { method: "POST", body: addBody(phone, { attributes: { drink: "Latte" } }) }), 201);
    expect(added.attributes).toEqual({ drink: "Latte" });
    const changed = await json(await c.call(`/api/v1/members/${added.id}`, { method: "PATCH", body: { attributes: { drink: "Tea" } } }));
    expect(changed.attributes).toEqual({ drink: "Tea" });
  });

  it("an idempotent POST creates one member and sends one text however often it is retried; another body with the same key is 422", async () => {
    const c = await apiClient(t.app);
    const phone = ukMobile();
    const headers = { "Idempotency-Key": "0f8c7a52-4c1e-4a43-9d0e-6f1f2b3c4d5e" };
    const [r1, r2] = await Promise.all([
      c.call("/api/v1/members", { method: "POST", body: addBody(phone), headers }),
      c.call("/api/v1/members", { method: "POST", body: addBody(phone), headers }),
    ]);
    // Two at once: one creates, the other is told the first is still running (or, if it lost the race late, replays).
    const statuses = [r1.status, r2.status].sort();
    expect([[201, 201], [201, 409]]).toContainEqual(statuses);
    const r3 = await c.call("/api/v1/members", { method: "POST", body: addBody(phone), headers });
    const replay = await json(r3, 201);
    expect(r3.headers.get("idempotent-replayed")).toBe("true");
    expect(r3.headers.get("location")).toBe(`/api/v1/members/${replay.id}`);
    expect(await t.app.db.selectFrom("members").select("id").where("phone", "=", phone).execute()).toHaveLength(1);
    await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(phone, { firstName: "Someone else" }), headers }), 422, "ID001");
    // Keys belong to the business: another business may use the same key for its own request.
    const other = await apiClient(t.app);
    await json(await other.call("/api/v1/members", { method: "POST", body: addBody(phone), headers }), 201);

    const dmKey = { "Idempotency-Key": "dm-order-1234" };
    const send = () => c.call(`/api/v1/members/${replay.id}/messages`, { method: "POST", body: { text: "Your order is ready" }, headers: dmKey });
    const first = await json(await send(), 201);
    const second = await json(await send(), 201);
    expect(second).toEqual(first);
    const texts = await t.app.db.selectFrom("outbound").select("id").where("business_id", "=", c.businessId).where("member_id", "=", replay.id).execute();
    expect(texts).toHaveLength(1);
    // A failed request leaves no record: after a bad body, the key is still free.
    await expectError(await c.call(`/api/v1/members/${replay.id}/messages`, { method: "POST", body: { text: "" }, headers: { "Idempotency-Key": "free-after-400" } }), 400, "UA002");
    await json(await c.call(`/api/v1/members/${replay.id}/messages`, { method: "POST", body: { text: "Second note" }, headers: { "Idempotency-Key": "free-after-400" } }), 201);
    await expectError(await c.call("/api/v1/members", { method: "POST", body: addBody(ukMobile()), headers: { "Idempotency-Key": "bad key with spaces" } }), 400, "UA002");
  });

  it("keeps idempotency records 24 hours: an older key is free again, and the worker round purges old records", async () => {
    const c = await apiClient(t.app);
    const headers = { "Idempotency-Key": "order-2026-11-24-001" };
    const first = await json(await c.call("/api/v1/members", { method: "POST", body: addBody(ukMobile()), headers }), 201);
    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 60_000).toISOString();
    await t.app.db.updateTable("api_idempotency").set({ created_at: dayAgo }).where("business_id", "=", c.businessId).execute();
    // Past 24 hours the key no longer holds: a different request with it is served, not refused.
    const second = await json(await c.call("/api/v1/members", { method: "POST", body: addBody(ukMobile()), headers }), 201);
    expect(second.id).not.toBe(first.id);
    await t.app.db
      .insertInto("api_idempotency")
      .values({ business_id: c.businessId, idem_key: "stale", request_hash: "x", status: 201, response_body: "{}", location: null, created_at: dayAgo })
      .execute();
    // A request that died before storing its answer holds its key for a minute, then a retry takes it over; the
    // DM it may have sent is found by the same key, so the retry sends nothing new.
    const [m] = await seedMembers(t.app.db, c.businessId, 1);
    const dmHeaders = { "Idempotency-Key": "dm-crashed-1" };
    const sent = await json(await c.call(`/api/v1/members/${m.id}/messages`, { method: "POST", body: { text: "Your order is ready" }, headers: dmHeaders }), 201);
    await t.app.db.updateTable("api_idempotency").set({ status: null, response_body: null }).where("business_id", "=", c.businessId).where("idem_key", "=", "dm-crashed-1").execute();
    await expectError(await c.call(`/api/v1/members/${m.id}/messages`, { method: "POST", body: { text: "Your order is ready" }, headers: dmHeaders }), 409, "ID002");
    await t.app.db.updateTable("api_idempotency").set({ created_at: new Date(Date.now() - 61_000).toISOString() }).where("business_id", "=", c.businessId).where("idem_key", "=", "dm-crashed-1").execute();
    const retried = await json(await c.call(`/api/v1/members/${m.id}/messages`, { method: "POST", body: { text: "Your order is ready" }, headers: dmHeaders }), 201);
    expect(retried.messageId).toBe(sent.messageId);
    expect(await t.app.db.selectFrom("outbound").select("id").where("member_id", "=", m.id).execute()).toHaveLength(1);

    const purged = await purgeIdempotency(t.app.db, new Date());
    expect(purged).toBeGreaterThanOrEqual(1);
    const left = await t.app.db.selectFrom("api_idempotency").select("idem_key").where("business_id", "=", c.businessId).execute();
    expect(left.map((r) => r.idem_key).sort()).toEqual(["dm-crashed-1", "order-2026-11-24-001"]);
  });

  it("creates, schedules, lists and deletes group messages until they are issued, charging and refunding credits", async () => {
    const c = await apiClient(t.app);
    await seedMembers(t.app.db, c.businessId, 3);
    const credits = async () => Number((await t.app.db.selectFrom("businesses").select("trial_credits").where("id", "=", c.businessId).executeTakeFirstOrThrow()).trial_credits);
    const before = await credits();
    const sendAt = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const gm = await json(await c.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: -1, text: "Late opening on Friday", sendAt } }), 201);
    expect(gm).toMatchObject({ contactGroupId: -1, status: "SCHEDULED", recipients: 3, deletable: true });
    expect(gm.text).toContain("Late opening on Friday");
    expect(await credits()).toBe(before - gm.credits);
    const listed = await json(await c.call("/api/v1/groupmessages"));
    expect(listed.items.map((m: { id: number }) => m.id)).toEqual([gm.id]);
    await expectError(await c.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: -1, text: "Past", sendAt: "2020-01-01T00:00:00.000Z" } }), 400, "BR013");
    await expectError(await c.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: 424242, text: "No group" } }), 404, "NF001");
    expect((await c.call(`/api/v1/groupmessages/${gm.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await credits()).toBe(before);
    await expectError(await c.call(`/api/v1/groupmessages/${gm.id}`), 404, "NF001");
    // Once issued it cannot be deleted.
    const now = await json(await c.call("/api/v1/groupmessages", { method: "POST", body: { contactGroupId: -1, text: "Now" } }), 201);
    await t.app.db.updateTable("messages").set({ status: "SENDING", editable_until: new Date(Date.now() - 1000).toISOString() }).where("id", "=", now.id).execute();
    await expectError(await c.call(`/api/v1/groupmessages/${now.id}`, { method: "DELETE" }), 400, "BR015");
    const groups = await json(await c.call("/api/v1/groups"));
    expect(groups.items[0]).toEqual({ id: -1, name: null, type: "ALL", subscribed: 3 });
    const everyone = await json(await c.call("/api/v1/groups/-1/members?limit=2"));
    expect(everyone.items).toHaveLength(2);
    expect(everyone.nextCursor).not.toBeNull();
    expect((await json(await c.call("/api/v1/campaigns"))).items).toEqual([]);
    await expectError(await c.call("/api/v1/campaigns/99999999"), 404, "NF001");
  });
});

describe("public API v1 rate limit", () => {
  const t = useTestApp({ env: { API_RATE_BURST: "5", API_RATE_PER_SECOND: "5" } });

  it("answers 429 with RateLimit headers and Retry-After past a key's burst, and other keys are not slowed", async () => {
    const flood = await apiClient(t.app);
    const calm = await apiClient(t.app);
    const first = await flood.call("/api/v1/groups");
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"default";q=5;w=1');
    expect(first.headers.get("ratelimit")).toMatch(/^"default";r=4;t=\d+$/);
    // 1,000 requests as fast as the client can send them.
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 1000 }, () => flood.call("/api/v1/groups").then(async (r) => ({ status: r.status, retry: r.headers.get("retry-after"), rl: r.headers.get("ratelimit"), body: await r.text() }))));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(900);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    expect(Number(limited[0].retry)).toBeGreaterThanOrEqual(1);
    expect(limited[0].rl).toMatch(/^"default";r=0;t=\d+$/);
    expect(JSON.parse(limited[0].body).responseCode).toBe("RL001");
    const floodMs = Date.now() - started;
    // The calm key is unaffected: all of its requests succeed, quickly.
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) expect((await calm.call("/api/v1/groups")).status).toBe(200);
    const calmMs = Date.now() - t0;
    expect(calmMs).toBeLessThan(2000);
    console.log(`[rate limit] 1000 requests on one key answered in ${floodMs} ms (${limited.length} refused); 5 calls on another key took ${calmMs} ms`);
  }, 60_000);
});

describe("public API v1: done when (a client that knows only the OpenAPI document)", () => {
  const t = useTestApp({ env: { RUN_WORKER: "true", DM_SEND_DELAY_SECONDS: "0", WORKER_POLL_MS: "50", API_RATE_BURST: "100" } });

  it("scripts/api-v1-demo.mjs adds a member, sends them a text and reads their reply from the SMS simulator", async () => {
    const account = await createAccount(t.app.db, { trialCredits: 100 });
    const business = await t.app.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    await t.app.db.insertInto("sim_numbers").values({ number: business.phone_number!, assigned_at: new Date().toISOString() }).execute();
    const { key } = await createApiKey(t.app.db, account.businessId, FULL, null, new Date());
    const phone = ukMobile();
    const { stdout, code } = await new Promise<{ stdout: string; code: number | null }>((resolve) => {
      const child = spawn(process.execPath, ["scripts/api-v1-demo.mjs", "--url", t.app.url, "--key", key, "--phone", `0${phone.slice(3)}`, "--reply", "Two minutes away!"], { stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.on("data", (d) => (out += d));
      child.stderr.on("data", (d) => (out += d));
      child.on("exit", (c) => resolve({ stdout: out, code: c }));
    });
    expect(stdout).toContain(`reply from ${phone}: Two minutes away!`);
    expect(code).toBe(0);
    // What the script did, seen from the database: one member, subscribed with the API's consent entry, one DM delivered.
    const member = await t.app.db.selectFrom("members").select(["id", "status"]).where("business_id", "=", account.businessId).where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(member.status).toBe("SUBSCRIBED");
    const dms = await t.app.db.selectFrom("outbound").select("status").where("member_id", "=", member.id).execute();
    expect(dms).toHaveLength(1);
    expect(["SENT", "DELIVERED"]).toContain(dms[0].status);
  }, 40_000);
});
