// Outbound webhooks on both databases: an event writes its delivery rows in the transaction that made it (and a
// rollback takes them away), from the three sources (an inbound text, an opt-out, a delivery state); the
// signature a receiver checks (good, forged, replayed, after a roll); the delivery round against a real HTTP
// server started here (success, retries with backoff and Retry-After, giving up, a permanent 4xx, no redirects,
// a time-out, a private address refused in production, the endpoint switched off after repeated failures);
// and tenancy (another business's ids are not found).
import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "#db/index";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";
import { Clock, makeWorker, middayToday, seedMembers, TEST_SETTINGS } from "../support/pipeline";
import { OutboundWorker } from "~/domain/messaging/worker.server";
import type { SmsProvider } from "~/providers/sms/types";
import { loadConsentBusiness, optOut } from "~/domain/consent/consent.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { recordDeliveryStatus } from "~/domain/messaging/receipts.server";
import { createMessage } from "~/domain/messaging/outbound.server";
import { applyDeliveryReceipt } from "~/domain/messaging/send.server";
import { deliverDue } from "~/domain/webhooks/delivery.server";
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  retryDelivery,
  rollSecret,
  sendTestEvent,
  setEndpointEnabled,
  updateEndpoint,
} from "~/domain/webhooks/endpoints.server";
import { recordEvents } from "~/domain/webhooks/events.server";
import { retryAfterMs, retryDelayMs } from "~/domain/webhooks/model";
import { generateSecret, signWebhook, verifyWebhook, WebhookSignatureError } from "~/domain/webhooks/signing.server";
import { endpointUrlProblem } from "~/domain/webhooks/url";
import { HttpWebhookTransport } from "~/providers/webhooks/http.server";
import { AppError } from "~/lib/errors";

const DEV = { allowPrivate: true };
const ALL = ["message.received", "member.opted_out", "message.status"];

// ---- a receiver on this machine whose answers each test chooses ----

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };
const received: Received[] = [];
let answer: (req: Received) => Answer = () => ({ status: 204 });
let server: http.Server;
let base = "";

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      const r = { path: req.url ?? "", headers: req.headers, body };
      received.push(r);
      const a = answer(r);
      const send = () => {
        res.writeHead(a.status, a.headers);
        res.end("ok");
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function isAppError(code: string, status?: number) {
  return (e: unknown) => e instanceof AppError && e.code === code && (status === undefined || e.status === status);
}

describe("signatures (Standard Webhooks)", () => {
  const secret = generateSecret();
  const body = JSON.stringify({ type: "message.received", id: "msg_1", timestamp: "2026-11-24T10:00:00.000Z", data: { body: "Hello" } });
  const at = new Date("2026-11-24T10:00:00.000Z");

  it("accepts a good signature and returns the event", () => {
    const headers = signWebhook([secret], "msg_1", body, at);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(headers["webhook-timestamp"]).toBe(String(at.getTime() / 1000));
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verifyWebhook(secret, body, headers, { now: new Date(at.getTime() + 60_000) })).toMatchObject({ type: "message.received", data: { body: "Hello" } });
    // A Fetch Headers object (what a receiver on Node 18+ has) works as well.
    expect(() => verifyWebhook(secret, body, new Headers({ ...headers }), { now: at })).not.toThrow();
  });

  it("refuses a forged signature, another secret, a changed body and a changed id", () => {
    const headers = signWebhook([secret], "msg_1", body, at);
    const reason = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e instanceof WebhookSignatureError ? e.reason : "other";
      }
      return "accepted";
    };
    expect(reason(() => verifyWebhook(secret, body, { ...headers, "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" }, { now: at }))).toBe("bad-signature");
    expect(reason(() => verifyWebhook(generateSecret(), body, headers, { now: at }))).toBe("bad-signature");
    expect(reason(() => verifyWebhook(secret, body.replace("Hello", "Hellp"), headers, { now: at }))).toBe("bad-signature");
    expect(reason(() => verifyWebhook(secret, body, { ...headers, "webhook-id": "msg_2" }, { now: at }))).toBe("bad-signature");
    expect(reason(() => verifyWebhook(secret, body, { ...headers, "webhook-signature": headers["webhook-signature"].replace("v1,", "v2,") }, { now: at }))).toBe("bad-signature");
    expect(reason(() => verifyWebhook(secret, body, { "webhook-id": "msg_1" }, { now: at }))).toBe("missing-headers");
  });

  it("refuses a replay: a timestamp more than 5 minutes old (or ahead), even with a valid signature", () => {
    const headers = signWebhook([secret], "msg_1", body, at);
    expect(() => verifyWebhook(secret, body, headers, { now: new Date(at.getTime() + 299_000) })).not.toThrow();
    expect(() => verifyWebhook(secret, body, headers, { now: new Date(at.getTime() + 301_000) })).toThrow(/too-old/);
    expect(() => verifyWebhook(secret, body, headers, { now: new Date(at.getTime() - 301_000) })).toThrow(/too-new/);
    // A replayed request whose timestamp was moved forward no longer matches its signature.
    const moved = { ...headers, "webhook-timestamp": String(at.getTime() / 1000 + 600) };
    expect(() => verifyWebhook(secret, body, moved, { now: new Date(at.getTime() + 600_000) })).toThrow(/bad-signature/);
    expect(() => verifyWebhook(secret, body, { ...headers, "webhook-timestamp": "soon" }, { now: at })).toThrow(/bad-timestamp/);
  });

  it("signs exactly as docs/api.md tells receivers to check: HMAC-SHA256 of id.timestamp.body with the secret's bytes", () => {
    const headers = signWebhook([secret], "msg_1", body, at);
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const expected = crypto.createHmac("sha256", key).update(`msg_1.${headers["webhook-timestamp"]}.${body}`).digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("signs with two secrets during a roll, and each verifies", () => {
    const next = generateSecret();
    const headers = signWebhook([next, secret], "msg_1", body, at);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(() => verifyWebhook(next, body, headers, { now: at })).not.toThrow();
    expect(() => verifyWebhook(secret, body, headers, { now: at })).not.toThrow();
  });
});

describe("endpoint addresses", () => {
  const prod = { allowPrivate: false };
  it("wants https in production and refuses private, loopback, link-local and internal hosts", () => {
    expect(endpointUrlProblem("https://hooks.example.com/textcircle", prod)).toBeNull();
    expect(endpointUrlProblem("https://93.184.215.14/hook", prod)).toBeNull();
    expect(endpointUrlProblem("http://hooks.example.com/", prod)).toBe("https");
    expect(endpointUrlProblem("http://127.0.0.1:8080/", prod)).toBe("https");
    expect(endpointUrlProblem("ftp://hooks.example.com/", prod)).toBe("https");
    expect(endpointUrlProblem("javascript:alert(1)", prod)).toBe("https");
    for (const host of ["127.0.0.1", "localhost", "10.0.0.5", "192.168.1.10", "172.16.4.4", "169.254.169.254", "[::1]", "[fd00::1]", "[fe80::1]", "[::ffff:10.0.0.1]", "0.0.0.0", "printer.local", "db.internal", "intranet"]) {
      expect(endpointUrlProblem(`https://${host}/hook`, prod), host).toBe("private");
    }
    expect(endpointUrlProblem("https://user:pass@hooks.example.com/", prod)).toBe("credentials");
    expect(endpointUrlProblem("not a url", prod)).toBe("format");
    expect(endpointUrlProblem(`https://example.com/${"a".repeat(2000)}`, prod)).toBe("format");
  });

  it("accepts http:// to this machine only outside production", () => {
    expect(endpointUrlProblem("http://127.0.0.1:8080/hook", DEV)).toBeNull();
    expect(endpointUrlProblem("http://localhost/hook", DEV)).toBeNull();
    expect(endpointUrlProblem("http://[::1]/hook", DEV)).toBeNull();
    expect(endpointUrlProblem("http://10.0.0.5/hook", DEV)).toBe("https");
    expect(endpointUrlProblem("http://hooks.example.com/", DEV)).toBe("https");
    expect(endpointUrlProblem("https://10.0.0.5/hook", DEV)).toBeNull();
  });
});

describe("retry schedule", () => {
  it("grows by four each attempt with ±20 % jitter, at most 12 hours, about a day over eight attempts", () => {
    expect(retryDelayMs(1, () => 0.5)).toBe(30_000);
    expect(retryDelayMs(2, () => 0.5)).toBe(120_000);
    expect(retryDelayMs(1, () => 0)).toBe(24_000);
    expect(retryDelayMs(1, () => 0.999999)).toBeLessThanOrEqual(36_000);
    expect(retryDelayMs(10, () => 0.5)).toBe(12 * 3_600_000);
    const total = [1, 2, 3, 4, 5, 6, 7].reduce((sum, n) => sum + retryDelayMs(n, () => 0.5), 0);
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(26);
  });

  it("reads Retry-After in seconds or as a date, within 1 second and 24 hours", () => {
    const now = new Date("2026-11-24T10:00:00.000Z");
    expect(retryAfterMs("120", now)).toBe(120_000);
    expect(retryAfterMs("0", now)).toBe(1000);
    expect(retryAfterMs("999999", now)).toBe(24 * 3_600_000);
    expect(retryAfterMs("Tue, 24 Nov 2026 10:05:00 GMT", now)).toBe(300_000);
    expect(retryAfterMs("later", now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe.each(DIALECTS)("webhooks (%s)", (dialect) => {
  const t = useTestDb(dialect);
  let clock: Clock;
  beforeEach(() => {
    clock = new Clock(middayToday());
    received.length = 0;
    answer = () => ({ status: 204 });
  });
  // Each test counts only its own deliveries: what earlier tests left waiting is set aside.
  beforeEach(async () => {
    await t.db.updateTable("webhook_deliveries").set({ status: "FAILED" }).where("status", "in", ["PENDING", "SENDING"]).execute();
  });

  const transport = new HttpWebhookTransport(DEV);
  const deps = (settings: Parameters<typeof deliverDue>[0]["settings"] = {}) => ({ db: t.db, now: clock.now, transport, settings: { random: () => 0.5, timeoutMs: 2000, ...settings } });
  const deliveries = (db: Database, businessId: number) => db.selectFrom("webhook_deliveries").selectAll().where("business_id", "=", businessId).orderBy("id").execute();
  async function business() {
    const businessId = await createBusiness(t.db);
    const number = (await t.db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
    return { businessId, number };
  }
  async function endpoint(businessId: number, path = "/hook", events = ALL) {
    return createEndpoint(t.db, businessId, null, { url: `${base}${path}`, events }, DEV, clock.now());
  }

  it("writes one delivery per subscribed, enabled endpoint of the business, inside the caller's transaction", async () => {
    const { businessId } = await business();
    const other = await business();
    const all = (await endpoint(businessId, "/all")).endpoint;
    await endpoint(businessId, "/status-only", ["message.status"]);
    const off = (await endpoint(businessId, "/off")).endpoint;
    await setEndpointEnabled(t.db, businessId, off.id, false, clock.now());
    await endpoint(other.businessId, "/other");

    // Rolled back: nothing.
    await t.db
      .transaction()
      .execute(async (trx) => {
        expect(await recordEvents(trx, [{ businessId, type: "message.received", data: { body: "hi" } }], clock.now())).toBe(1);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await deliveries(t.db, businessId)).toEqual([]);

    await t.db.transaction().execute((trx) => recordEvents(trx, [{ businessId, type: "message.received", data: { body: "hi" } }], clock.now()));
    const rows = await deliveries(t.db, businessId);
    expect(rows.map((r) => [Number(r.endpoint_id), r.event_type, r.status])).toEqual([[all.id, "message.received", "PENDING"]]);
    const payload = JSON.parse(rows[0].payload);
    expect(Object.keys(payload)).toEqual(["type", "id", "timestamp", "data"]);
    expect(payload).toMatchObject({ type: "message.received", id: rows[0].event_id, data: { body: "hi" } });
    expect(await deliveries(t.db, other.businessId)).toEqual([]);
  });

  it("an inbound text becomes message.received, and its STOP member.opted_out, in the processing transaction", async () => {
    const { businessId, number } = await business();
    await endpoint(businessId);
    const [m] = await seedMembers(t.db, businessId, 1);
    await receiveInbound({ db: t.db }, { providerId: `SMwh${dialect}1`, from: m.phone, to: number, body: "Hello there", receivedAt: clock.now() });
    clock.advance(1000);
    await receiveInbound({ db: t.db }, { providerId: `SMwh${dialect}2`, from: m.phone, to: number, body: "STOP", receivedAt: clock.now() });
    await makeWorker(t.db, clock).drain();
    const rows = await deliveries(t.db, businessId);
    const byType = (type: string) => rows.filter((r) => r.event_type === type).map((r) => JSON.parse(r.payload).data);
    expect(byType("message.received")).toEqual([
      expect.objectContaining({ from: m.phone, to: number, body: "Hello there", memberId: m.id, kind: "MESSAGE" }),
      expect.objectContaining({ from: m.phone, body: "STOP", memberId: m.id, kind: "STOP" }),
    ]);
    expect(byType("member.opted_out")).toEqual([expect.objectContaining({ memberId: m.id, phone: m.phone, previousStatus: "SUBSCRIBED" })]);
    // The opt-out confirmation text went out (the simulator reports it delivered at once): an event too.
    expect(byType("message.status").map((d) => [d.to, d.status])).toContainEqual([m.phone, "delivered"]);
  });

  it("an opt-out rolled back leaves no member.opted_out delivery", async () => {
    const { businessId } = await business();
    await endpoint(businessId);
    const [m] = await seedMembers(t.db, businessId, 1);
    const member = await t.db.selectFrom("members").selectAll().where("id", "=", m.id).executeTakeFirstOrThrow();
    await t.db
      .transaction()
      .execute(async (trx) => {
        await optOut(trx, { business: await loadConsentBusiness(trx, businessId), phone: m.phone, member, channel: "WEB", evidence: "test", confirm: false }, clock.now());
        expect((await deliveries(trx, businessId)).map((r) => r.event_type)).toEqual(["member.opted_out"]);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await deliveries(t.db, businessId)).toEqual([]);
    expect((await t.db.selectFrom("members").select("status").where("id", "=", m.id).executeTakeFirstOrThrow()).status).toBe("SUBSCRIBED");
  });

  it("delivery states: sent by the pipeline, then delivered or undelivered from the provider's receipts", async () => {
    const { businessId } = await business();
    await endpoint(businessId, "/status", ["message.status"]);
    const [a, b] = await seedMembers(t.db, businessId, 2);
    const { messageId } = await createMessage({ db: t.db, now: clock.now, config: { messaging: { sendDelaySeconds: 0 } } }, { businessId, body: "Open today", recipients: [a.id, b.id], kind: "GROUP" });
    // A provider that accepts each text ("sent") and reports its fate later by a receipt, as Twilio does.
    const sms: SmsProvider = {
      name: "twilio",
      send: async (m) => ({ providerId: `SMstub${dialect}${m.reference}`, status: "sent" }),
      provisionNumber: () => Promise.reject(new Error("not used")),
    };
    await new OutboundWorker({ db: t.db, sms, now: clock.now, config: { messaging: TEST_SETTINGS } }).drain();
    const sent = await t.db.selectFrom("outbound").select(["id", "provider_id", "member_id"]).where("message_id", "=", messageId).orderBy("id").execute();
    expect(sent).toHaveLength(2);
    await recordDeliveryStatus({ db: t.db }, { providerId: sent[0].provider_id!, status: "delivered", errorCode: null, receivedAt: clock.now() });
    await recordDeliveryStatus({ db: t.db }, { providerId: sent[1].provider_id!, status: "undelivered", errorCode: "30003", receivedAt: clock.now() });
    // A receipt applied in a transaction that rolls back leaves no event behind.
    const before = (await deliveries(t.db, businessId)).length;
    await t.db
      .transaction()
      .execute(async (trx) => {
        expect(await applyDeliveryReceipt(trx, { providerId: sent[1].provider_id!, status: "delivered" }, clock.now())).toBe(true);
        expect((await deliveries(trx, businessId)).length).toBe(before + 1);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect((await deliveries(t.db, businessId)).length).toBe(before);
    // A repeated receipt changes nothing, so it makes no second event.
    await recordDeliveryStatus({ db: t.db }, { providerId: sent[0].provider_id!, status: "delivered", errorCode: null, receivedAt: clock.now() });
    const data = (await deliveries(t.db, businessId)).map((r) => JSON.parse(r.payload).data);
    expect(data.map((d) => [d.recipientId, d.status, d.errorCode])).toEqual([
      [Number(sent[0].id), "sent", null],
      [Number(sent[1].id), "sent", null],
      [Number(sent[0].id), "delivered", null],
      [Number(sent[1].id), "undelivered", "30003"],
    ]);
    expect(data.every((d) => d.messageId === messageId)).toBe(true);
  });

  it("posts a signed delivery that the receiver verifies with the business's secret", async () => {
    const { businessId } = await business();
    const { secret } = await endpoint(businessId, "/signed");
    expect(secret).toMatch(/^whsec_/);
    await t.db.transaction().execute((trx) => recordEvents(trx, [{ businessId, type: "member.opted_out", data: { memberId: 7 } }], clock.now()));
    expect(await deliverDue(deps())).toBe(1);
    expect(received).toHaveLength(1);
    const r = received[0];
    expect(r.path).toBe("/signed");
    expect(r.headers["content-type"]).toBe("application/json");
    const event = verifyWebhook<{ type: string; id: string }>(secret!, r.body, r.headers as Record<string, string>, { now: clock.now() });
    expect(event).toMatchObject({ type: "member.opted_out", data: { memberId: 7 } });
    expect(r.headers["webhook-id"]).toBe(event.id);
    const [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "SUCCEEDED", attempts: 1, last_status_code: 204, last_error: null });
    expect(row.payload).toBe(r.body);
    expect(await deliverDue(deps())).toBe(0);
  });

  it("retries 5xx with backoff, honours Retry-After on 429, gives up after the last attempt and marks the delivery failed", async () => {
    const { businessId } = await business();
    const ep = (await endpoint(businessId, "/flaky")).endpoint;
    await sendTestEvent(t.db, businessId, ep.id, clock.now());
    answer = () => ({ status: 503 });
    await deliverDue(deps({ maxAttempts: 3 }));
    let [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "PENDING", attempts: 1, last_status_code: 503, last_error: "HTTP 503" });
    expect(Date.parse(row.next_attempt_at) - clock.now().getTime()).toBe(30_000);
    expect(await deliverDue(deps({ maxAttempts: 3 }))).toBe(0); // not due yet

    clock.advance(30_000);
    answer = () => ({ status: 429, headers: { "Retry-After": "600" } });
    await deliverDue(deps({ maxAttempts: 3 }));
    [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "PENDING", attempts: 2, last_status_code: 429 });
    expect(Date.parse(row.next_attempt_at) - clock.now().getTime()).toBe(600_000);

    clock.advance(600_000);
    answer = () => ({ status: 500 });
    await deliverDue(deps({ maxAttempts: 3 }));
    [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "FAILED", attempts: 3, last_status_code: 500 });
    expect(row.completed_at).not.toBeNull();
    expect(received).toHaveLength(3);
    // The same event id on every attempt, so the receiver can drop duplicates.
    expect(new Set(received.map((r) => r.headers["webhook-id"])).size).toBe(1);
    expect((await getEndpoint(t.db, businessId, ep.id)).consecutiveFailures).toBe(1);

    // "Retry now" gives a failed delivery one more attempt at once.
    answer = () => ({ status: 200 });
    expect(await retryDelivery(t.db, businessId, Number(row.id), clock.now())).toBe(true);
    await deliverDue(deps({ maxAttempts: 3 }));
    [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "SUCCEEDED", attempts: 4, last_status_code: 200 });
    expect((await getEndpoint(t.db, businessId, ep.id)).consecutiveFailures).toBe(0);
    expect(await retryDelivery(t.db, businessId, Number(row.id), clock.now())).toBe(false);
  });

  it("retries a network error and a time-out; a 4xx and a redirect fail at once (the redirect is not followed)", async () => {
    const { businessId } = await business();
    const gone = (await createEndpoint(t.db, businessId, null, { url: "http://127.0.0.1:9/closed", events: ALL }, DEV, clock.now())).endpoint;
    const slow = (await endpoint(businessId, "/slow")).endpoint;
    const missing = (await endpoint(businessId, "/missing")).endpoint;
    const moved = (await endpoint(businessId, "/moved")).endpoint;
    for (const e of [gone, slow, missing, moved]) await sendTestEvent(t.db, businessId, e.id, clock.now());
    answer = (r) =>
      r.path === "/slow" ? { status: 200, delayMs: 1500 } : r.path === "/missing" ? { status: 404 } : r.path === "/moved" ? { status: 302, headers: { Location: `${base}/elsewhere` } } : { status: 200 };
    await deliverDue(deps({ timeoutMs: 500 }));
    const rows = await deliveries(t.db, businessId);
    const of = (id: number) => rows.find((r) => Number(r.endpoint_id) === id)!;
    expect(of(gone.id)).toMatchObject({ status: "PENDING", last_status_code: null });
    expect(of(gone.id).last_error).toMatch(/ECONNREFUSED/);
    expect(of(slow.id)).toMatchObject({ status: "PENDING", last_status_code: null });
    expect(of(slow.id).last_error).toMatch(/timed out/);
    expect(of(missing.id)).toMatchObject({ status: "FAILED", attempts: 1, last_status_code: 404 });
    expect(of(moved.id)).toMatchObject({ status: "FAILED", attempts: 1, last_status_code: 302 });
    expect(received.some((r) => r.path === "/elsewhere")).toBe(false);
  });

  it("refuses to connect to a private address when private addresses are not allowed (production)", async () => {
    const { businessId } = await business();
    // Added while allowed (a developer's machine); delivered by a worker configured for production.
    const ep = (await endpoint(businessId, "/private")).endpoint;
    await sendTestEvent(t.db, businessId, ep.id, clock.now());
    await deliverDue({ ...deps(), transport: new HttpWebhookTransport({ allowPrivate: false }) });
    const [row] = await deliveries(t.db, businessId);
    expect(row).toMatchObject({ status: "FAILED", attempts: 1 });
    expect(row.last_error).toMatch(/not allowed/);
    expect(received).toHaveLength(0);
    await expect(createEndpoint(t.db, businessId, null, { url: `${base}/x`, events: ALL }, { allowPrivate: false }, clock.now())).rejects.toSatisfy(isAppError("BR025"));
  });

  it("switches an endpoint off after deliveries fail for good several times in a row, and holds its queue until it is switched on", async () => {
    const { businessId } = await business();
    const ep = (await endpoint(businessId, "/broken")).endpoint;
    answer = () => ({ status: 410 });
    for (let i = 0; i < 3; i++) await sendTestEvent(t.db, businessId, ep.id, clock.now());
    await deliverDue(deps({ autoDisableAfter: 3 }));
    const off = await getEndpoint(t.db, businessId, ep.id);
    expect(off).toMatchObject({ enabled: false, disabledReason: "FAILING", consecutiveFailures: 3 });
    // Events that happen while it is off are not recorded for it, and nothing more is posted.
    await t.db.transaction().execute((trx) => recordEvents(trx, [{ businessId, type: "message.received", data: {} }], clock.now()));
    expect(await deliveries(t.db, businessId)).toHaveLength(3);
    await expect(sendTestEvent(t.db, businessId, ep.id, clock.now())).rejects.toSatisfy(isAppError("BR025"));
    // A waiting delivery is not sent while the endpoint is off.
    const [first] = await deliveries(t.db, businessId);
    await retryDelivery(t.db, businessId, Number(first.id), clock.now());
    expect(await deliverDue(deps())).toBe(0);
    answer = () => ({ status: 200 });
    const on = await setEndpointEnabled(t.db, businessId, ep.id, true, clock.now());
    expect(on).toMatchObject({ enabled: true, disabledReason: null, consecutiveFailures: 0 });
    expect(await deliverDue(deps())).toBe(1);
    expect((await deliveries(t.db, businessId))[0].status).toBe("SUCCEEDED");
  });

  it("a rolled secret signs beside the old one for a day, then alone", async () => {
    const { businessId } = await business();
    const { secret: first } = await endpoint(businessId, "/roll");
    const second = await rollSecret(t.db, businessId, clock.now());
    expect(second).not.toBe(first);
    await t.db.transaction().execute((trx) => recordEvents(trx, [{ businessId, type: "message.received", data: {} }], clock.now()));
    await deliverDue(deps());
    const r = received[0];
    expect(String(r.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(() => verifyWebhook(first!, r.body, r.headers as Record<string, string>, { now: clock.now() })).not.toThrow();
    expect(() => verifyWebhook(second, r.body, r.headers as Record<string, string>, { now: clock.now() })).not.toThrow();
    clock.advance(25 * 3_600_000);
    await t.db.transaction().execute((trx) => recordEvents(trx, [{ businessId, type: "message.received", data: {} }], clock.now()));
    await deliverDue(deps());
    const later = received[1];
    expect(String(later.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(() => verifyWebhook(first!, later.body, later.headers as Record<string, string>, { now: clock.now() })).toThrow(WebhookSignatureError);
    expect(() => verifyWebhook(second, later.body, later.headers as Record<string, string>, { now: clock.now() })).not.toThrow();
    // A second endpoint does not make a new secret.
    expect((await endpoint(businessId, "/roll-2")).secret).toBeNull();
  });

  it("keeps each business to its own endpoints and deliveries: another business's ids are not found (404)", async () => {
    const mine = await business();
    const theirs = await business();
    const ep = (await endpoint(theirs.businessId, "/theirs")).endpoint;
    await sendTestEvent(t.db, theirs.businessId, ep.id, clock.now());
    const [delivery] = await deliveries(t.db, theirs.businessId);
    const notFound = isAppError("NF001", 404);
    const me = mine.businessId;
    await expect(getEndpoint(t.db, me, ep.id)).rejects.toSatisfy(notFound);
    await expect(updateEndpoint(t.db, me, ep.id, { url: "https://example.com/", events: ALL }, DEV, clock.now())).rejects.toSatisfy(notFound);
    await expect(setEndpointEnabled(t.db, me, ep.id, false, clock.now())).rejects.toSatisfy(notFound);
    await expect(sendTestEvent(t.db, me, ep.id, clock.now())).rejects.toSatisfy(notFound);
    await expect(deleteEndpoint(t.db, me, ep.id)).rejects.toSatisfy(notFound);
    await expect(getDelivery(t.db, me, Number(delivery.id))).rejects.toSatisfy(notFound);
    await expect(retryDelivery(t.db, me, Number(delivery.id), clock.now())).rejects.toSatisfy(notFound);
    expect((await listDeliveries(t.db, me, 1)).entries).toEqual([]);
    expect((await getEndpoint(t.db, theirs.businessId, ep.id)).enabled).toBe(true);
    // Deleting an endpoint removes its log.
    await deleteEndpoint(t.db, theirs.businessId, ep.id);
    expect(await deliveries(t.db, theirs.businessId)).toEqual([]);
  });

  it("checks the fields: events from the list only, at least one; the log pages newest first", async () => {
    const { businessId } = await business();
    await expect(createEndpoint(t.db, businessId, null, { url: `${base}/x`, events: ["nonsense"] }, DEV, clock.now())).rejects.toSatisfy(isAppError("BR025"));
    const ep = (await endpoint(businessId, "/paged")).endpoint;
    // The same address again (a form posted twice) is refused on the address field.
    await expect(endpoint(businessId, "/paged")).rejects.toSatisfy((e) => isAppError("BR025")(e) && (e as AppError).field === "url");
    for (let i = 0; i < 25; i++) await sendTestEvent(t.db, businessId, ep.id, clock.now());
    const first = await listDeliveries(t.db, businessId, 1);
    const second = await listDeliveries(t.db, businessId, 2);
    expect(first.pageCount).toBe(2);
    expect(first.entries).toHaveLength(20);
    expect(second.entries).toHaveLength(5);
    expect(first.entries[0].id).toBeGreaterThan(second.entries[0].id);
    expect((await listDeliveries(t.db, businessId, 99)).page).toBe(2);
  });
});
