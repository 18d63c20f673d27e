import crypto from "node:crypto";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBusiness, ukMobile } from "../support/factories";
import { startFakeTwilio, type FakeTwilio } from "../support/fake-twilio";
import { startTestApp, useTestApp, type TestApp } from "../support/server";

const PUBLIC_URL = "https://textcircle.test";
const ACCOUNT_SID = `AC${crypto.randomBytes(16).toString("hex")}`;
const AUTH_TOKEN = crypto.randomBytes(16).toString("hex"); // 32 characters
const SMS_PATH = "/webhooks/twilio/sms";
const STATUS_PATH = "/webhooks/twilio/status";

const sid = () => `SM${crypto.randomBytes(16).toString("hex")}`;
const sign = (path: string, params: Record<string, string>, token = AUTH_TOKEN, base = PUBLIC_URL) =>
  twilio.getExpectedTwilioSignature(token, `${base}${path}`, params);

describe("Twilio webhooks (SMS_PROVIDER=twilio)", () => {
  let fake: FakeTwilio;
  let app: TestApp;
  let businessId: number;
  let businessNumber: string;

  beforeAll(async () => {
    fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    app = await startTestApp({
      env: { SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN, PUBLIC_URL, TWILIO_API_BASE: fake.url, SMS_SYSTEM_SENDER: "+447700900000" },
    });
    businessNumber = `+447700${crypto.randomInt(900000, 999999)}`;
    businessId = await createBusiness(app.db, { phoneNumber: businessNumber });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  function post(path: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}) {
    return fetch(app.url + path, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded", ...headers } });
  }
  function postSigned(path: string, params: Record<string, string>, signature = sign(path, params)) {
    return post(path, new URLSearchParams(params).toString(), { "X-Twilio-Signature": signature });
  }
  const inbound = (overrides: Record<string, string> = {}) => ({
    ToCountry: "GB",
    SmsMessageSid: "",
    NumMedia: "0",
    MessageSid: sid(),
    AccountSid: ACCOUNT_SID,
    From: ukMobile(),
    To: businessNumber,
    Body: "Hello, is the shop open on Sunday?",
    NumSegments: "1",
    ApiVersion: "2010-04-01",
    ...overrides,
  });
  const storedInbound = (providerId: string) => app.db.selectFrom("inbound_messages").selectAll().where("provider_id", "=", providerId).execute();
  const inboundCount = async () => (await app.db.selectFrom("inbound_messages").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n;

  describe("inbound texts", () => {
    it("stores a correctly signed text for the business that owns the number and answers empty TwiML", async () => {
      const params = inbound({ Body: "Hi 👋 café" });
      const res = await postSigned(SMS_PATH, params);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/xml/);
      expect(await res.text()).toMatch(/<Response\/>$/);
      const rows = await storedInbound(params.MessageSid);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ business_id: businessId, from_number: params.From, to_number: businessNumber, body: "Hi 👋 café", processed_at: null });
      expect(Date.parse(rows[0].received_at)).toBeGreaterThan(Date.now() - 60_000);
    });

    it("processes a replayed webhook once", async () => {
      const params = inbound({ Body: "STOP" });
      for (let i = 0; i < 3; i++) expect((await postSigned(SMS_PATH, params)).status).toBe(200);
      const concurrent = await Promise.all(Array.from({ length: 5 }, () => postSigned(SMS_PATH, params)));
      expect(concurrent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(await storedInbound(params.MessageSid)).toHaveLength(1);
    });

    it("refuses a missing, wrong or stale signature with 403 and stores nothing", async () => {
      const before = await inboundCount();
      const params = inbound();
      const body = new URLSearchParams(params).toString();
      expect((await post(SMS_PATH, body)).status).toBe(403);
      expect((await post(SMS_PATH, body, { "X-Twilio-Signature": "" })).status).toBe(403);
      expect((await post(SMS_PATH, body, { "X-Twilio-Signature": "bm90IGEgc2lnbmF0dXJl" })).status).toBe(403);
      // Signed with another account's token.
      expect((await postSigned(SMS_PATH, params, sign(SMS_PATH, params, "0".repeat(32)))).status).toBe(403);
      // Signed over the address the request really reached: validation must use PUBLIC_URL, not the Host header.
      expect((await postSigned(SMS_PATH, params, sign(SMS_PATH, params, AUTH_TOKEN, app.url))).status).toBe(403);
      // A valid signature for other fields (the body was tampered with).
      expect((await postSigned(SMS_PATH, { ...params, Body: "START" }, sign(SMS_PATH, params))).status).toBe(403);
      // A valid signature for the other webhook's URL.
      expect((await postSigned(SMS_PATH, params, sign(STATUS_PATH, params))).status).toBe(403);
      expect(await inboundCount()).toBe(before);
    });

    it("refuses signed webhooks with missing or malformed fields with 400", async () => {
      const before = await inboundCount();
      const { Body: _b, ...noBody } = inbound();
      const { MessageSid: _m, ...noSid } = inbound();
      const { To: _t, ...noTo } = inbound();
      for (const params of [noBody, noSid, noTo, inbound({ MessageSid: "SM'; DROP TABLE inbound_messages; --" }), inbound({ To: "<script>" }), inbound({ Body: "x".repeat(5001) })]) {
        expect((await postSigned(SMS_PATH, params)).status).toBe(400);
      }
      expect(await inboundCount()).toBe(before);
    });

    it("answers 404 for a number no business owns, and stores nothing", async () => {
      const before = await inboundCount();
      const params = inbound({ To: "+447700000001" });
      expect((await postSigned(SMS_PATH, params)).status).toBe(404);
      expect(await storedInbound(params.MessageSid)).toHaveLength(0);
      expect(await inboundCount()).toBe(before);
    });

    it("refuses huge bodies, other content types, bad encodings and GET with 4xx", async () => {
      const before = await inboundCount();
      const huge = inbound({ Body: "x".repeat(70 * 1024) });
      const hugeRes = await postSigned(SMS_PATH, huge);
      expect(hugeRes.status).toBe(413);
      // The same without a Content-Length (chunked): refused once the body passes 64 kB.
      const chunk = new TextEncoder().encode("Body=" + "y".repeat(16 * 1024));
      let sentChunks = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sentChunks++ < 8) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const chunked = await fetch(app.url + SMS_PATH, { method: "POST", body: stream, headers: { "Content-Type": "application/x-www-form-urlencoded" }, duplex: "half" } as RequestInit);
      expect(chunked.status).toBe(413);
      const json = await fetch(app.url + SMS_PATH, { method: "POST", body: JSON.stringify(inbound()), headers: { "Content-Type": "application/json" } });
      expect(json.status).toBe(415);
      // Percent-encoding that is not UTF-8 (a lone %C3) and raw bytes that are not UTF-8.
      expect((await post(SMS_PATH, "MessageSid=SM1&Body=caf%C3&To=%2B447700900123")).status).toBe(400);
      expect((await post(SMS_PATH, new Uint8Array([0x42, 0x6f, 0x64, 0x79, 0x3d, 0xff, 0xfe]))).status).toBe(400);
      expect((await fetch(app.url + SMS_PATH)).status).toBe(405);
      expect(await inboundCount()).toBe(before);
      expect(app.serverErrors).not.toMatch(/Error/);
    });
  });

  describe("delivery status callbacks", () => {
    const status = (overrides: Record<string, string> = {}) => ({
      AccountSid: ACCOUNT_SID,
      ApiVersion: "2010-04-01",
      From: businessNumber,
      To: ukMobile(),
      MessageSid: sid(),
      SmsSid: "",
      MessageStatus: "delivered",
      SmsStatus: "delivered",
      ...overrides,
    });
    const receipts = (providerId: string) => app.db.selectFrom("delivery_receipts").selectAll().where("provider_id", "=", providerId).orderBy("id").execute();

    it("records each status of a message once, with its error code", async () => {
      const base = status({ MessageStatus: "sent", SmsStatus: "sent" });
      expect((await postSigned(STATUS_PATH, base)).status).toBe(204);
      expect((await postSigned(STATUS_PATH, base)).status).toBe(204);
      const failed = { ...base, MessageStatus: "undelivered", SmsStatus: "undelivered", ErrorCode: "30003" };
      expect((await postSigned(STATUS_PATH, failed)).status).toBe(204);
      const rows = await receipts(base.MessageSid);
      expect(rows.map((r) => [r.status, r.error_code, r.business_id])).toEqual([
        ["sent", null, businessId],
        ["undelivered", "30003", businessId],
      ]);
    });

    it("refuses a wrong signature (403), missing fields (400) and an unknown sender number (404), storing nothing", async () => {
      const params = status();
      expect((await postSigned(STATUS_PATH, params, sign(STATUS_PATH, { ...params, MessageStatus: "failed" }))).status).toBe(403);
      expect((await post(STATUS_PATH, new URLSearchParams(params).toString())).status).toBe(403);
      const { MessageStatus: _s, SmsStatus: _ss, ...noStatus } = params;
      expect((await postSigned(STATUS_PATH, noStatus)).status).toBe(400);
      expect((await postSigned(STATUS_PATH, { ...params, From: "+447700000002" })).status).toBe(404);
      expect(await receipts(params.MessageSid)).toHaveLength(0);
    });
  });
});

describe("Twilio webhooks with the simulator configured", () => {
  const t = useTestApp();

  it("are not there (404): nothing can be verified without a Twilio account", async () => {
    const res = await fetch(t.app.url + SMS_PATH, {
      method: "POST",
      body: new URLSearchParams({ MessageSid: sid(), From: ukMobile(), To: "+447700900123", Body: "hi" }).toString(),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": "x" },
    });
    expect(res.status).toBe(404);
    expect((await fetch(t.app.url + STATUS_PATH, { method: "POST", body: "", headers: { "Content-Type": "application/x-www-form-urlencoded" } })).status).toBe(404);
  });
});
