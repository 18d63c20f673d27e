// The whole loop against the Twilio adapter (a local server answering like Twilio's REST API), in the
// built app with its worker running: a phone texts JOIN to the business number (signed webhook), gets
// the opt-in request, replies YES, gets the welcome text, texts STOP and is opted out with its
// confirmation. A garbled answer from Twilio (outcome unknown) is reconciled through the Messages
// list before the text is sent again; delivery callbacks mark the rows delivered.
import crypto from "node:crypto";
import twilio from "twilio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBusiness } from "../support/factories";
import { startFakeTwilio, type FakeTwilio } from "../support/fake-twilio";
import { startTestApp, type TestApp } from "../support/server";
import { Clock, pipelineDeps, seedMembers } from "../support/pipeline";
import { createMessage } from "~/domain/messaging/outbound.server";

const PUBLIC_URL = "https://textcircle.test";
const ACCOUNT_SID = `AC${crypto.randomBytes(16).toString("hex")}`;
const AUTH_TOKEN = crypto.randomBytes(16).toString("hex");

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until<T>(what: string, fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe("messaging loop against the Twilio adapter", () => {
  let fake: FakeTwilio;
  let app: TestApp;
  let businessId: number;
  const businessNumber = `+447700${crypto.randomInt(900000, 999999)}`;
  const phone = `+447911${crypto.randomInt(100000, 999999)}`;

  beforeAll(async () => {
    fake = await startFakeTwilio({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN });
    app = await startTestApp({
      env: {
        SMS_PROVIDER: "twilio",
        TWILIO_ACCOUNT_SID: ACCOUNT_SID,
        TWILIO_AUTH_TOKEN: AUTH_TOKEN,
        PUBLIC_URL,
        TWILIO_API_BASE: fake.url,
        SMS_SYSTEM_SENDER: "+447700900000",
        RUN_WORKER: "true",
        WORKER_POLL_MS: "30",
        WORKER_BACKOFF_MS: "50",
        SMS_RATE_PER_SECOND: "0",
      },
    });
    businessId = await createBusiness(app.db, { name: "Harbour Fish Bar", phoneNumber: businessNumber });
    await app.db.updateTable("businesses").set({ quiet_start: "00:00", quiet_end: "00:00" }).where("id", "=", businessId).execute();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await fake?.close();
  });

  let n = 0;
  async function text(body: string) {
    const params = { AccountSid: ACCOUNT_SID, MessageSid: `SM${crypto.randomBytes(16).toString("hex")}`, From: phone, To: businessNumber, Body: body, NumMedia: "0" };
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/webhooks/twilio/sms`, params);
    const res = await fetch(`${app.url}/webhooks/twilio/sms`, {
      method: "POST",
      body: new URLSearchParams(params),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    });
    expect(res.status).toBe(200);
    n++;
  }
  const toPhone = () => fake.messages.filter((m) => m.to === phone);

  it("JOIN, YES, STOP: pending, subscribed with a welcome, opted out with a confirmation", async () => {
    await text("Join");
    const [request] = await until("the opt-in request", () => (toPhone().length >= 1 ? toPhone() : null));
    expect(request.from).toBe(businessNumber);
    expect(request.body).toMatch(/reply YES to join/);
    expect(request.status_callback).toBe(`${PUBLIC_URL}/webhooks/twilio/status`);

    await text("YES");
    await until("the welcome text", () => toPhone().length >= 2);
    expect(toPhone()[1].body).toMatch(/^Welcome to Harbour Fish Bar/);
    const member = await app.db.selectFrom("members").selectAll().where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(member.status).toBe("SUBSCRIBED");

    await text("stop");
    await until("the opt-out confirmation", () => toPhone().length >= 3);
    expect(toPhone()[2].body).toMatch(/unsubscribed/);
    const after = await app.db.selectFrom("members").select("status").where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(after.status).toBe("OPTED_OUT");
    const log = await app.db.selectFrom("consent_log").select("action").where("phone", "=", phone).orderBy("id").execute();
    expect(log.map((l) => l.action)).toEqual(["OPT_IN_REQUESTED", "OPTED_IN", "OPTED_OUT"]);
    // Nothing more is sent.
    await sleep(300);
    expect(toPhone()).toHaveLength(3);
    expect(n).toBe(3);
  });

  it("reconciles a garbled answer with Twilio's Messages list, sends each text once, and applies delivery callbacks", async () => {
    const members = await seedMembers(app.db, businessId, 5);
    await app.db.updateTable("businesses").set({ message_allowance: 100 }).where("id", "=", businessId).execute();
    fake.fail({ kind: "garbage", status: 201 }, 2, /Messages\.json$/);
    const clock = new Clock(new Date());
    const m = await createMessage(pipelineDeps(app.db, clock, 0), { businessId, kind: "GROUP", groupId: -1, body: "Fresh haddock today, {{firstName}}" });
    await until("all rows sent", async () => {
      const left = await app.db.selectFrom("outbound").select("id").where("message_id", "=", m.messageId).where("status", "in", ["QUEUED", "SENDING"]).execute();
      return left.length === 0;
    });
    for (const x of members) expect(fake.messages.filter((f) => f.to === x.phone)).toHaveLength(1);
    // The two garbled answers were followed by lookups before any resend.
    expect(fake.requests.filter((r) => r.method === "GET" && /Messages\.json$/.test(r.path)).length).toBeGreaterThanOrEqual(2);
    const rows = await app.db.selectFrom("outbound").selectAll().where("message_id", "=", m.messageId).execute();
    expect(rows.every((r) => r.status === "SENT" && r.provider_id?.startsWith("SM"))).toBe(true);

    // Twilio's status callback for one of them.
    const params = { AccountSid: ACCOUNT_SID, MessageSid: rows[0].provider_id!, MessageStatus: "delivered", From: businessNumber, To: rows[0].to_phone };
    const signature = twilio.getExpectedTwilioSignature(AUTH_TOKEN, `${PUBLIC_URL}/webhooks/twilio/status`, params);
    const res = await fetch(`${app.url}/webhooks/twilio/status`, {
      method: "POST",
      body: new URLSearchParams(params),
      headers: { "Content-Type": "application/x-www-form-urlencoded", "X-Twilio-Signature": signature },
    });
    expect(res.status).toBeLessThan(300);
    const delivered = await app.db.selectFrom("outbound").select(["status", "delivered_at"]).where("id", "=", rows[0].id).executeTakeFirstOrThrow();
    expect(delivered.status).toBe("DELIVERED");
    expect(delivered.delivered_at).not.toBeNull();
    expect((await app.db.selectFrom("messages").select("status").where("id", "=", m.messageId).executeTakeFirstOrThrow()).status).toBe("COMPLETE");
  });
});
