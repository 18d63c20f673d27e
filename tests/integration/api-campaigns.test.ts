// /api/campaigns over HTTP on both databases: each of the five types created from the spec's field names and read
// back with its results; bad bodies answered with the §8 envelope naming the field, and nothing saved; another
// business's campaign is 404; a team member may use it; a retried POST with the same Idempotency-Key makes one
// campaign; ending and deleting.
import { describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { createGroup } from "~/domain/groups/groups.server";
import { APP_VERSION_CLIENT } from "~/lib/version";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { useTestApp, type TestApp } from "../support/server";

interface Caller {
  businessId: number;
  userId: number;
  headers: Record<string, string>;
}

async function bearer(app: TestApp, userId: number): Promise<Record<string, string>> {
  const { token } = await createSession(app.db, userId, "API", new Date());
  return { Authorization: `Bearer ${token}` };
}

/** An Administrator with credit and `members` subscribed members. */
async function caller(app: TestApp, members = 3): Promise<Caller> {
  const account = await createAccount(app.db, { trialCredits: 50, trialDays: 20 });
  if (members) await seedMembers(app.db, account.businessId, members);
  return { businessId: account.businessId, userId: account.id, headers: await bearer(app, account.id) };
}

async function ok(res: Response, status = 200): Promise<any> {
  expect(res.headers.get("x-app-version")).toBe(APP_VERSION_CLIENT);
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text.slice(0, 400)}`);
  return status === 204 ? null : JSON.parse(text);
}

/** The §8 envelope with this status and code; answers the body. */
async function envelope(res: Response, status: number, code: string): Promise<any> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status} ${code}, got ${res.status}: ${text.slice(0, 400)}`);
  expect(res.headers.get("content-type")).toMatch(/application\/json/);
  const body = JSON.parse(text);
  expect(body.responseCode).toBe(code);
  expect(body).toHaveProperty("data");
  expect(body.errorStatuses.length).toBeGreaterThan(0);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  return body;
}

/** The fields the errorStatuses entries name, by code. */
function fieldsOf(body: any, code?: string): string[] {
  return body.errorStatuses.filter((s: any) => !code || s.responseCode === code).map((s: any) => s.data?.field);
}

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** A valid body of each type, going to every subscriber (-1), issued tomorrow. */
function bodies(tag: string): Record<string, Record<string, unknown>> {
  return {
    BOUNCEBACK: { type: "BOUNCEBACK", name: "Opening hours", keyword: `HOURS${tag}`, messageText: "We open 8am to 6pm, Monday to Saturday." },
    ONEQUESTION: {
      type: "ONEQUESTION",
      name: "Favourite cake",
      contactGroupId: -1,
      messageText: "What cake should we bake on Friday?",
      thankYouText: "Thank you!",
      issueDate: inDays(1),
      closeDate: inDays(3),
    },
    POLL: {
      type: "POLL",
      name: "Saturday opening",
      contactGroupId: -1,
      messageText: "Should we open on Saturdays? 1 Yes 2 No 3 Mornings only",
      thankYouText: "Thanks for voting",
      responseOptions: ["Yes", "No", "Mornings only"],
      issueDate: inDays(1),
      closeDate: inDays(4),
    },
    INVITATION: {
      type: "INVITATION",
      name: "Summer party",
      contactGroupId: -1,
      messageText: "Join us on 1 July at 7pm. Reply YES or NO.",
      acceptText: "See you there!",
      declineText: "Sorry you can't make it.",
      capacity: 40,
      allowPartySize: true,
      issueDate: inDays(1),
      closeDate: inDays(6),
    },
    PICKWINNERS: {
      type: "PICKWINNERS",
      name: "Hamper draw",
      contactGroupId: -1,
      numberWinnersToPick: 2,
      messageText: "You won a hamper!",
      closeDate: inDays(7),
    },
  };
}

async function campaignRows(app: TestApp, businessId: number): Promise<number> {
  const row = await app.db
    .selectFrom("campaigns")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe.each(DIALECTS)("/api/campaigns (%s)", (dialect) => {
  const t = useTestApp({ dialect });
  const get = (path: string, c: Caller) => t.app.client().get(path, c.headers);
  const send = (path: string, method: string, c: Caller, payload?: unknown, headers: Record<string, string> = {}) =>
    t.app.client().json(path, method, payload, { ...c.headers, ...headers });

  it("creates each of the five types and reads each back with its results", async () => {
    const a = await caller(t.app);
    const ids: Record<string, number> = {};
    const sent = bodies("A");
    for (const [type, body] of Object.entries(sent)) {
      const res = await send("/api/campaigns", "POST", a, body);
      const made = await ok(res, 201);
      expect(res.headers.get("location")).toBe(`/api/campaigns/${made.id}`);
      expect(made).toMatchObject({ type, name: body.name, messageText: body.messageText });
      expect(made.errorMessage).toBeNull();
      expect(made.totalSent).toBe(0);
      expect(made.kind).toBe(type === "BOUNCEBACK" ? "ONGOING" : "ONETIME");
      ids[type] = made.id;

      const detail = await ok(await get(`/api/campaigns/${made.id}`, a));
      expect(detail).toMatchObject({ id: made.id, type, name: body.name, totalSent: 0, totalReceived: 0 });
      expect(Array.isArray(detail.responses)).toBe(true);
      expect(detail.replies).toEqual([]);
      expect(detail.repliesTotal).toBe(0);
    }

    const bounce = await ok(await get(`/api/campaigns/${ids.BOUNCEBACK}`, a));
    expect(bounce.keyword).toBe("HOURSA");
    expect(bounce.status).toBe("ONGOING");
    expect(bounce).toMatchObject({ totalToday: 0, totalYesterday: 0, totalMonth: 0 });

    const poll = await ok(await get(`/api/campaigns/${ids.POLL}`, a));
    expect(poll.status).toBe("SCHEDULED");
    expect(poll.contactGroupId).toBe(-1);
    expect(poll.settings.responseOptions).toEqual(["Yes", "No", "Mornings only"]);
    expect(poll.issueDate).toBe(sent.POLL.issueDate);
    expect(poll.topResponse).toBeNull();

    const rsvp = await ok(await get(`/api/campaigns/${ids.INVITATION}`, a));
    expect(rsvp.settings).toMatchObject({ responseOptions: ["YES", "NO"], acceptText: "See you there!", declineText: "Sorry you can't make it.", capacity: 40 });
    expect(rsvp.invitation).toMatchObject({ acceptedPlaces: 0, declined: 0, waitlist: 0, capacity: 40 });

    const draw = await ok(await get(`/api/campaigns/${ids.PICKWINNERS}`, a));
    expect(draw.numberWinnersToPick).toBe(2);
    expect(draw.winners).toEqual([]);
    expect(draw.draw.seedHash).toMatch(/^[0-9a-f]{64}$/);
    expect(draw.draw.seed).toBeNull();

    const all = await ok(await get("/api/campaigns", a));
    expect(all.total).toBe(5);
    expect(all.items.map((c: { id: number }) => c.id).sort()).toEqual(Object.values(ids).sort());
    const ongoing = await ok(await get("/api/campaigns?kind=ONGOING", a));
    expect(ongoing.items.map((c: { type: string }) => c.type)).toEqual(["BOUNCEBACK"]);
    const oneTime = await ok(await get("/api/campaigns?kind=ONETIME&page=2&pageSize=3", a));
    expect(oneTime).toMatchObject({ total: 4, page: 2, pageSize: 3 });
    expect(oneTime.items).toHaveLength(1);
  });

  it("issues a campaign now when issueDate is missing", async () => {
    const a = await caller(t.app);
    const { issueDate: _drop, ...body } = bodies("B").POLL;
    const before = Date.now();
    const made = await ok(await send("/api/campaigns", "POST", a, body), 201);
    expect(made.issueDate).not.toBeNull();
    const at = Date.parse(made.issueDate);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    expect(made.status).not.toBe("SCHEDULED");
  });

  it("refuses bad bodies with the envelope naming the field, and saves nothing", async () => {
    const a = await caller(t.app);
    const valid = bodies("C");
    const emptyGroup = await createGroup(t.app.db, a.businessId, { name: "Nobody yet", type: "LIST" }, new Date());
    const cases: [string, unknown, string, string][] = [
      ["missing fields", { type: "POLL", contactGroupId: -1, closeDate: inDays(2), responseOptions: ["A", "B"] }, "BR025", "name"],
      ["missing text", { ...valid.ONEQUESTION, messageText: "   " }, "BR025", "messageText"],
      ["unknown type", { ...valid.POLL, type: "SURVEY" }, "BR025", "type"],
      ["no type", { name: "x" }, "BR025", "type"],
      ["duplicate options", { ...valid.POLL, responseOptions: ["Yes", "yes", "No"] }, "BR025", "responseOptions"],
      ["one option", { ...valid.POLL, responseOptions: ["Yes"] }, "BR025", "responseOptions"],
      ["same RSVP options", { ...valid.INVITATION, responseOptions: ["YES", "YES"] }, "BR025", "responseOptions"],
      ["name too long", { ...valid.POLL, name: "x".repeat(41) }, "BR025", "name"],
      ["text too long", { ...valid.ONEQUESTION, messageText: "x".repeat(1601) }, "BR025", "messageText"],
      ["bad date", { ...valid.POLL, closeDate: "next Tuesday" }, "BR025", "closeDate"],
      ["wrong type of value", { ...valid.PICKWINNERS, numberWinnersToPick: "lots" }, "BR025", "numberWinnersToPick"],
      ["reserved keyword", { ...valid.BOUNCEBACK, keyword: "stop" }, "BR017", "keyword"],
      ["reserved keyword YES", { ...valid.POLL, keyword: "Yes" }, "BR017", "keyword"],
      ["past issue date", { ...valid.POLL, issueDate: inDays(-1) }, "BR013", "issueDate"],
      ["past close date", { ...valid.ONEQUESTION, issueDate: null, closeDate: inDays(-2) }, "BR013", "closeDate"],
      ["empty group", { ...valid.POLL, contactGroupId: emptyGroup }, "BR026", "contactGroupId"],
    ];
    for (const [label, payload, code, field] of cases) {
      const body = await envelope(await send("/api/campaigns", "POST", a, payload), 400, code).catch((e: Error) => {
        throw new Error(`${label}: ${e.message}`);
      });
      if (code === "BR025" || code === "BR017") expect(fieldsOf(body, code), label).toContain(field);
    }
    const notJson = await envelope(await send("/api/campaigns", "POST", a, "{not json"), 400, "BR025");
    expect(fieldsOf(notJson)).toEqual(["body"]);
    await envelope(await t.app.client().request("/api/campaigns", { method: "POST", body: "name=x", headers: { ...a.headers, "Content-Type": "application/x-www-form-urlencoded" } }), 400, "BR025");
    expect(await campaignRows(t.app, a.businessId)).toBe(0);

    // A keyword already taken by a live campaign of the business.
    await ok(await send("/api/campaigns", "POST", a, valid.BOUNCEBACK), 201);
    const taken = await envelope(await send("/api/campaigns", "POST", a, { ...valid.BOUNCEBACK, name: "Again", keyword: String(valid.BOUNCEBACK.keyword).toLowerCase() }), 400, "BR017");
    expect(fieldsOf(taken)).toContain("keyword");
    expect(await campaignRows(t.app, a.businessId)).toBe(1);
  });

  it("refuses bad queries and ids", async () => {
    const a = await caller(t.app, 0);
    for (const [path, field] of [
      ["/api/campaigns?kind=SOMETIMES", "kind"],
      ["/api/campaigns?kind=ongoing", "kind"],
      ["/api/campaigns?page=0", "page"],
      ["/api/campaigns?pageSize=1000", "pageSize"],
      ["/api/campaigns?page=abc", "page"],
      ["/api/campaigns?kind=ONETIME&kind=ONGOING", "kind"],
    ]) {
      expect(fieldsOf(await envelope(await get(path, a), 400, "BR025")), path).toContain(field);
    }
    for (const id of ["0", "abc", "1e3", "99999999999999999999", "-1"]) {
      await envelope(await get(`/api/campaigns/${id}`, a), 404, "NF001");
      await envelope(await send(`/api/campaigns/${id}/end`, "POST", a), 404, "NF001");
    }
    await envelope(await send("/api/campaigns", "PUT", a, {}), 405, "BR025");
    await envelope(await t.app.client().get("/api/campaigns"), 401, "UA002");
  });

  it("answers 404 NF001 for another business's campaign and never lists it", async () => {
    const a = await caller(t.app);
    const b = await caller(t.app);
    const theirs = await ok(await send("/api/campaigns", "POST", b, bodies("D").POLL), 201);
    await envelope(await get(`/api/campaigns/${theirs.id}`, a), 404, "NF001");
    await envelope(await send(`/api/campaigns/${theirs.id}/end`, "POST", a), 404, "NF001");
    await envelope(await send(`/api/campaigns/${theirs.id}`, "DELETE", a), 404, "NF001");
    expect((await ok(await get("/api/campaigns", a))).total).toBe(0);
    // Untouched for its owner.
    const still = await ok(await get(`/api/campaigns/${theirs.id}`, b));
    expect(still.status).toBe("SCHEDULED");
    // Another business's group is no group of ours either.
    const theirGroup = await createGroup(t.app.db, b.businessId, { name: "Theirs", type: "LIST" }, new Date());
    const res = await send("/api/campaigns", "POST", a, { ...bodies("D").POLL, contactGroupId: theirGroup });
    expect(res.status).toBe(404);
    expect((await res.json()).responseCode).toBe("NF001");
    expect(await campaignRows(t.app, a.businessId)).toBe(0);
  });

  it("lets a team member create, list, end and delete campaigns", async () => {
    const a = await caller(t.app);
    const team = await createTeamUser(t.app.db, a.businessId);
    const member: Caller = { ...a, userId: team.id, headers: await bearer(t.app, team.id) };
    const made = await ok(await send("/api/campaigns", "POST", member, bodies("E").ONEQUESTION), 201);
    expect((await ok(await get("/api/campaigns", member))).items.map((c: { id: number }) => c.id)).toEqual([made.id]);
    const ended = await ok(await send(`/api/campaigns/${made.id}/end`, "POST", member));
    expect(ended.status).toBe("ENDED");
    expect((await ok(await get(`/api/campaigns/${made.id}`, a))).status).toBe("ENDED");
    await ok(await send(`/api/campaigns/${made.id}`, "DELETE", member), 204);
    await envelope(await get(`/api/campaigns/${made.id}`, a), 404, "NF001");
    expect(await campaignRows(t.app, a.businessId)).toBe(0);
  });

  it("ends an auto responder so its keyword is free again", async () => {
    const a = await caller(t.app);
    const body = bodies("F").BOUNCEBACK;
    const made = await ok(await send("/api/campaigns", "POST", a, body), 201);
    expect((await ok(await send(`/api/campaigns/${made.id}/end`, "POST", a))).status).toBe("ENDED");
    const again = await ok(await send("/api/campaigns", "POST", a, { ...body, name: "Hours again" }), 201);
    expect(again.keyword).toBe(made.keyword);
    expect(again.status).toBe("ONGOING");
  });

  it("creates one campaign when a POST is retried with the same Idempotency-Key", async () => {
    const a = await caller(t.app);
    const body = bodies("G").POLL;
    const key = "5b0c7d5e-retry-1";
    const first = await ok(await send("/api/campaigns", "POST", a, body, { "Idempotency-Key": key }), 201);
    const retry = await send("/api/campaigns", "POST", a, body, { "Idempotency-Key": key });
    expect(retry.status).toBeLessThan(300);
    expect((await retry.json()).id).toBe(first.id);
    expect(await campaignRows(t.app, a.businessId)).toBe(1);
    // Another key is another campaign; a key is the business's own.
    const other = await ok(await send("/api/campaigns", "POST", a, body, { "Idempotency-Key": "another-key" }), 201);
    expect(other.id).not.toBe(first.id);
    const b = await caller(t.app);
    const theirs = await ok(await send("/api/campaigns", "POST", b, body, { "Idempotency-Key": key }), 201);
    expect(theirs.id).not.toBe(first.id);
    expect(await campaignRows(t.app, a.businessId)).toBe(2);
    await envelope(await send("/api/campaigns", "POST", a, body, { "Idempotency-Key": "x".repeat(300) }), 400, "BR025");
  });
});
