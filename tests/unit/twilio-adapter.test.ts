import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveryState, TwilioSmsProvider } from "~/providers/sms/twilio.server";
import { SmsProviderError } from "~/providers/sms/types";
import { FAKE_ACCOUNT_SID, FAKE_AUTH_TOKEN, startFakeTwilio, type FakeTwilio } from "../support/fake-twilio";

const PUBLIC_URL = "https://textcircle.test";
const FROM = "+447700900123";
const TO = "+447911123456";

let fake: FakeTwilio;
let provider: TwilioSmsProvider;

beforeAll(async () => {
  fake = await startFakeTwilio();
  provider = new TwilioSmsProvider({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN, publicUrl: PUBLIC_URL, apiBase: fake.url, timeoutMs: 300 });
});
afterAll(async () => {
  await fake?.close();
});

async function providerError(p: Promise<unknown>): Promise<SmsProviderError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SmsProviderError);
  return error as SmsProviderError;
}

describe("Twilio adapter: send", () => {
  it("creates the message at the configured API base, authenticated, with the status callback on the public URL", async () => {
    const before = fake.requests.length;
    const result = await provider.send({ from: FROM, to: TO, body: "Hello from the bakery" });
    expect(result.status).toBe("queued");
    expect(result.providerId).toMatch(/^SM[0-9a-f]{32}$/);
    const req = fake.requests[before];
    expect(req.method).toBe("POST");
    expect(req.path).toBe(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/Messages.json`);
    expect(req.authorised).toBe(true);
    expect(req.form.get("To")).toBe(TO);
    expect(req.form.get("From")).toBe(FROM);
    expect(req.form.get("Body")).toBe("Hello from the bakery");
    expect(req.form.get("StatusCallback")).toBe(`${PUBLIC_URL}/webhooks/twilio/status`);
    expect(fake.messages.find((m) => m.sid === result.providerId)?.body).toBe("Hello from the bakery");
  });

  it("sends from a Messaging Service when the sender is one (the platform's system sender may be)", async () => {
    const before = fake.requests.length;
    const service = `MG${"c".repeat(32)}`;
    await provider.send({ from: service, to: TO, body: "Your code is 123456" });
    const req = fake.requests[before];
    expect(req.form.get("MessagingServiceSid")).toBe(service);
    expect(req.form.get("From")).toBeNull();
  });

  it("uses the caller's status callback URL when given one", async () => {
    const before = fake.requests.length;
    await provider.send({ from: FROM, to: TO, body: "x", statusCallbackUrl: `${PUBLIC_URL}/webhooks/twilio/status?m=42` });
    expect(fake.requests[before].form.get("StatusCallback")).toBe(`${PUBLIC_URL}/webhooks/twilio/status?m=42`);
  });

  it("maps HTTP 500 to a retryable error whose outcome is unknown", async () => {
    fake.fail({ kind: "status", status: 500, code: 20500, message: "Internal Server Error" });
    const e = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(e.retryable).toBe(true);
    expect(e.reason).toBe("unavailable");
    expect(e.outcomeUnknown).toBe(true);
    expect(e.httpStatus).toBe(500);
  });

  it("maps HTTP 503 and 429 to retryable errors", async () => {
    fake.fail({ kind: "status", status: 503, code: 20503 });
    expect((await providerError(provider.send({ from: FROM, to: TO, body: "x" }))).retryable).toBe(true);
    fake.fail({ kind: "status", status: 429, code: 20429, message: "Too Many Requests" });
    const e = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(e.retryable).toBe(true);
    expect(e.reason).toBe("rate-limited");
    expect(e.outcomeUnknown).toBe(false);
  });

  it("maps 400 error 21211 (invalid number) to a permanent error with the provider code", async () => {
    const e = await providerError(provider.send({ from: FROM, to: "+44123", body: "x" }));
    expect(e.retryable).toBe(false);
    expect(e.providerCode).toBe("21211");
    expect(e.reason).toBe("invalid-number");
    expect(e.httpStatus).toBe(400);
  });

  it("maps 400 error 21610 (recipient unsubscribed) to a permanent opt-out", async () => {
    fake.fail({ kind: "status", status: 400, code: 21610, message: "Attempt to send to unsubscribed recipient" });
    const e = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(e.retryable).toBe(false);
    expect(e.providerCode).toBe("21610");
    expect(e.reason).toBe("opted-out");
  });

  it("maps a wrong auth token (401, 20003) to a permanent auth error", async () => {
    const wrong = new TwilioSmsProvider({ accountSid: FAKE_ACCOUNT_SID, authToken: "not-the-token-0123456789", publicUrl: PUBLIC_URL, apiBase: fake.url });
    const e = await providerError(wrong.send({ from: FROM, to: TO, body: "x" }));
    expect(e.retryable).toBe(false);
    expect(e.reason).toBe("auth");
    expect(e.providerCode).toBe("20003");
  });

  it("maps a time-out to a retryable error whose outcome is unknown", async () => {
    fake.fail({ kind: "hang" });
    const started = Date.now();
    const e = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(e.retryable).toBe(true);
    expect(e.reason).toBe("timeout");
    expect(e.outcomeUnknown).toBe(true);
  });

  it("maps a dropped connection and an unreadable answer to retryable errors", async () => {
    fake.fail({ kind: "reset" });
    const reset = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(reset.retryable).toBe(true);
    expect(reset.outcomeUnknown).toBe(true);
    fake.fail({ kind: "garbage", status: 201 });
    const garbage = await providerError(provider.send({ from: FROM, to: TO, body: "x" }));
    expect(garbage.retryable).toBe(true);
    expect(garbage.reason).toBe("bad-response");
    fake.fail({ kind: "garbage", status: 502 });
    expect((await providerError(provider.send({ from: FROM, to: TO, body: "x" }))).retryable).toBe(true);
  });

  it("maps a refused connection to a retryable error that never reached the provider", async () => {
    const down = new TwilioSmsProvider({ accountSid: FAKE_ACCOUNT_SID, authToken: FAKE_AUTH_TOKEN, publicUrl: PUBLIC_URL, apiBase: "http://127.0.0.1:9" });
    const e = await providerError(down.send({ from: FROM, to: TO, body: "x" }));
    expect(e.retryable).toBe(true);
    expect(e.outcomeUnknown).toBe(false);
    expect(e.providerCode).toBe("ECONNREFUSED");
  });
});

describe("Twilio adapter: reconciliation", () => {
  it("fetches a message it sent, and answers null for one Twilio does not know", async () => {
    const { providerId } = await provider.send({ from: FROM, to: TO, body: "Look me up" });
    const found = await provider.fetchMessage(providerId);
    expect(found).toMatchObject({ providerId, status: "queued", state: "pending", from: FROM, to: TO, body: "Look me up", errorCode: null });
    expect(found?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await provider.fetchMessage(`SM${"f".repeat(32)}`)).toBeNull();
    expect(await provider.fetchMessage("not-a-sid")).toBeNull();
  });

  it("finds a message whose send timed out after Twilio accepted it", async () => {
    const to = "+447911000777";
    const since = new Date(Date.now() - 1000);
    await provider.send({ from: FROM, to, body: "Accepted but unanswered" });
    const found = await provider.findMessages({ from: FROM, to, since });
    expect(found.map((m) => m.body)).toEqual(["Accepted but unanswered"]);
    expect(await provider.findMessages({ from: FROM, to: "+447911000778", since })).toEqual([]);
  });

  it("raises a retryable error when the lookup itself fails", async () => {
    fake.fail({ kind: "status", status: 500 });
    expect((await providerError(provider.fetchMessage(`SM${"a".repeat(32)}`))).retryable).toBe(true);
  });

  it.each([
    ["queued", "pending"],
    ["sending", "pending"],
    ["sent", "sent"],
    ["delivered", "delivered"],
    ["undelivered", "failed"],
    ["failed", "failed"],
  ])("reads Twilio status %s as %s", (status, state) => {
    expect(deliveryState(status)).toBe(state);
  });
});

describe("Twilio adapter: provisioning", () => {
  it("searches GB mobile numbers and buys the first, pointing its SMS webhook at the public URL", async () => {
    fake.availableNumbers = ["+447700900555", "+447700900556"];
    const before = fake.requests.length;
    const { number } = await provider.provisionNumber({ businessName: "Bloom & Co" });
    expect(number).toBe("+447700900555");
    const [search, buy] = fake.requests.slice(before);
    expect(search.method).toBe("GET");
    expect(search.path).toBe(`/2010-04-01/Accounts/${FAKE_ACCOUNT_SID}/AvailablePhoneNumbers/GB/Mobile.json`);
    expect(search.query.get("SmsEnabled")).toBe("true");
    expect(buy.method).toBe("POST");
    expect(buy.form.get("PhoneNumber")).toBe("+447700900555");
    expect(buy.form.get("SmsUrl")).toBe(`${PUBLIC_URL}/webhooks/twilio/sms`);
    expect(fake.purchased.at(-1)).toMatchObject({ phone_number: "+447700900555", friendly_name: "Bloom & Co" });
  });

  it("fails without buying when no number is available", async () => {
    fake.availableNumbers = [];
    const bought = fake.purchased.length;
    const e = await providerError(provider.provisionNumber({ businessName: "Empty" }));
    expect(e.providerCode).toBe("NO_NUMBERS");
    expect(fake.purchased).toHaveLength(bought);
  });

  it("maps a refused purchase to a permanent error", async () => {
    fake.availableNumbers = ["+447700900600"];
    fake.fail({ kind: "status", status: 400, code: 21631, message: "Bundle required" }, 1, /IncomingPhoneNumbers/);
    const e = await providerError(provider.provisionNumber({ businessName: "Needs a bundle" }));
    expect(e.retryable).toBe(false);
    expect(e.providerCode).toBe("21631");
  });
});

describe("Twilio adapter: webhooks", () => {
  const url = `${PUBLIC_URL}/webhooks/twilio/sms`;
  const params = { MessageSid: `SM${"1".repeat(32)}`, From: TO, To: FROM, Body: "STOP", AccountSid: FAKE_ACCOUNT_SID };

  it("accepts the signature the twilio package computes over the public URL and refuses others", () => {
    const signature = twilio.getExpectedTwilioSignature(FAKE_AUTH_TOKEN, url, params);
    expect(provider.verifyWebhook({ url, signature, params })).toBe(true);
    expect(provider.verifyWebhook({ url, signature: null, params })).toBe(false);
    expect(provider.verifyWebhook({ url, signature: signature.slice(1) + "A", params })).toBe(false);
    expect(provider.verifyWebhook({ url, signature, params: { ...params, Body: "START" } })).toBe(false);
    expect(provider.verifyWebhook({ url: "http://127.0.0.1:3000/webhooks/twilio/sms", signature, params })).toBe(false);
    const other = twilio.getExpectedTwilioSignature("another-token-0123456789abcdef", url, params);
    expect(provider.verifyWebhook({ url, signature: other, params })).toBe(false);
  });

  it("parses an inbound text and refuses missing or malformed fields", () => {
    expect(provider.parseInbound(params)).toEqual({ providerId: params.MessageSid, from: TO, to: FROM, body: "STOP" });
    expect(provider.parseInbound({ ...params, Body: "" })).toMatchObject({ body: "" });
    expect(provider.parseInbound({ ...params, Body: "a\u0000b" })).toMatchObject({ body: "ab" });
    const { MessageSid: _sid, ...noSid } = params;
    expect(provider.parseInbound(noSid)).toBeNull();
    const { Body: _body, ...noBody } = params;
    expect(provider.parseInbound(noBody)).toBeNull();
    expect(provider.parseInbound({ ...params, To: "not a number" })).toBeNull();
    expect(provider.parseInbound({ ...params, MessageSid: "SM' OR 1=1 --" })).toBeNull();
    expect(provider.parseInbound({ ...params, Body: "x".repeat(5001) })).toBeNull();
  });

  it("parses a status callback", () => {
    const status = { MessageSid: `SM${"2".repeat(32)}`, MessageStatus: "undelivered", ErrorCode: "30003", From: FROM, To: TO };
    expect(provider.parseStatus(status)).toEqual({ providerId: status.MessageSid, status: "undelivered", state: "failed", errorCode: "30003", from: FROM, to: TO });
    expect(provider.parseStatus({ ...status, ErrorCode: "" })).toMatchObject({ errorCode: null });
    expect(provider.parseStatus({ ...status, MessageStatus: "<script>" })).toBeNull();
    expect(provider.parseStatus({ MessageSid: status.MessageSid })).toBeNull();
  });
});

describe("failure reasons a person reads", () => {
  it("each reason has an English and a French text", async () => {
    const { FAILURE_REASON_KEYS } = await import("~/providers/sms/types");
    const fs = await import("node:fs");
    for (const lng of ["en-GB", "fr"]) {
      const texts = JSON.parse(fs.readFileSync(`app/locales/${lng}/messaging.json`, "utf8")) as { providerFailure: Record<string, string> };
      for (const key of Object.values(FAILURE_REASON_KEYS)) {
        const leaf = key.replace(/^messaging\.providerFailure\./, "");
        expect(texts.providerFailure[leaf], `${lng} ${key}`).toBeTruthy();
      }
    }
  });
});
