// The webhooks page over HTTP, as production configures it (private addresses refused): the Administrator adds an
// endpoint and sees the signing secret once, rolls it, sends a test event, reads the log and a delivery's body,
// retries, switches the endpoint off and on and deletes it; bad addresses and an empty event list are refused with
// a translated message and nothing saved; a team member gets FB001; another business's ids are 404s.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { verifyWebhook } from "~/domain/webhooks/signing.server";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp, type TestApp } from "../support/server";

const PATH = "/manageintegrations/webhooks";
const ALL = ["message.received", "member.opted_out", "message.status"];

async function signedIn(app: TestApp, userId: number) {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

describe.each(DIALECTS)("webhooks page (%s)", (dialect) => {
  const t = useTestApp({ dialect, env: { WEBHOOKS_ALLOW_PRIVATE: "false" } });

  async function owner() {
    const account = await createAccount(t.app.db);
    return { account, client: await signedIn(t.app, account.id) };
  }
  const endpoints = (businessId: number) => t.app.db.selectFrom("webhook_endpoints").selectAll().where("business_id", "=", businessId).orderBy("id").execute();

  it("adds an endpoint, shows the secret once, rolls it, tests, logs, retries, switches off and on, deletes", async () => {
    const { account, client } = await owner();
    const empty = pageText(await (await client.get(PATH)).text());
    expect(empty).toContain("No endpoints yet");
    expect(empty).toContain("Your signing secret is made when you add your first endpoint");

    const added = await client.post(PATH, { intent: "save", url: "https://hooks.example.com/textcircle", description: "Our CRM", events: ALL });
    expect(added.status).toBe(200);
    const html = await added.text();
    const secret = /whsec_[A-Za-z0-9+/]{43}=/.exec(html)?.[0];
    expect(secret).toBeDefined();
    expect(pageText(html)).toContain("it will not be shown again");
    const [ep] = await endpoints(account.businessId);
    expect(ep).toMatchObject({ url: "https://hooks.example.com/textcircle", description: "Our CRM", events: ALL.join(" "), enabled: 1 });

    // Shown once: afterwards only its last four characters.
    const page = await (await client.get(PATH)).text();
    expect(page).not.toContain(secret!);
    expect(pageText(page)).toContain(`whsec_…${secret!.slice(-4)}`);

    const rolled = await client.post(PATH, { intent: "roll" });
    expect(rolled.status).toBe(200);
    const next = /whsec_[A-Za-z0-9+/]{43}=/.exec(await rolled.text())?.[0];
    expect(next).toBeDefined();
    expect(next).not.toBe(secret);
    expect(pageText(await (await client.get(PATH)).text())).toContain("every delivery is also signed with your previous secret");

    // A test event is queued for the worker and listed in the log, its body one click away.
    const test = await client.post(PATH, { intent: "test", id: String(ep.id) });
    expect(test.status).toBe(302);
    const [delivery] = await t.app.db.selectFrom("webhook_deliveries").selectAll().where("business_id", "=", account.businessId).execute();
    expect(delivery).toMatchObject({ event_type: "webhook.test", status: "PENDING" });
    const log = pageText(await (await client.get(PATH)).text());
    expect(log).toContain("webhook.test");
    expect(log).toContain("Waiting");
    const body = pageText(await (await client.get(`${PATH}?delivery=${delivery.id}`)).text());
    expect(body).toContain(delivery.event_id);
    expect(body).toContain("This is a test event from Textcircle.");
    expect((await client.post(PATH, { intent: "retry", deliveryId: String(delivery.id) })).status).toBe(302);

    // Edit, switch off (no test button then), switch on, delete.
    expect(pageText(await (await client.get(`${PATH}?edit=${ep.id}`)).text())).toContain("Edit endpoint");
    expect((await client.post(PATH, { intent: "save", id: String(ep.id), url: "https://hooks.example.com/v2", events: ["message.status"] })).status).toBe(302);
    expect((await endpoints(account.businessId))[0]).toMatchObject({ url: "https://hooks.example.com/v2", events: "message.status" });
    expect((await client.post(PATH, { intent: "disable", id: String(ep.id) })).status).toBe(302);
    expect((await endpoints(account.businessId))[0]).toMatchObject({ enabled: 0, disabled_reason: "MANUAL" });
    const refusedTest = await client.post(PATH, { intent: "test", id: String(ep.id) });
    expect(refusedTest.status).toBe(400);
    expect(pageText(await refusedTest.text())).toContain("This endpoint is switched off");
    expect((await client.post(PATH, { intent: "enable", id: String(ep.id) })).status).toBe(302);
    expect((await client.post(PATH, { intent: "delete", id: String(ep.id) })).status).toBe(302);
    expect(await endpoints(account.businessId)).toEqual([]);
    expect(t.app.serverErrors).not.toMatch(/Error/);
  });

  it("refuses private, plain-http and malformed addresses and an empty event list, saving nothing", async () => {
    const { account, client } = await owner();
    const cases: Array<[Record<string, string | string[]>, string]> = [
      [{ url: "https://10.1.2.3/hook", events: ALL }, "private or local network"],
      [{ url: "https://169.254.169.254/latest/meta-data", events: ALL }, "private or local network"],
      [{ url: "https://localhost/hook", events: ALL }, "private or local network"],
      [{ url: "http://127.0.0.1:8080/hook", events: ALL }, "must start with https://"],
      [{ url: "http://hooks.example.com/", events: ALL }, "must start with https://"],
      [{ url: "https://user:secret@hooks.example.com/", events: ALL }, "Remove the user name and password"],
      [{ url: "not an address", events: ALL }, "Enter an address starting with https://"],
      [{ url: "https://hooks.example.com/" }, "Choose at least one event"],
      [{ url: "https://hooks.example.com/", events: ["member.deleted"] }, "Choose at least one event"],
    ];
    for (const [fields, message] of cases) {
      const res = await client.post(PATH, { intent: "save", ...fields });
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(pageText(await res.text()), JSON.stringify(fields)).toContain(message);
    }
    expect(await endpoints(account.businessId)).toEqual([]);
    expect(await t.app.db.selectFrom("webhook_secrets").select("id").where("business_id", "=", account.businessId).execute()).toEqual([]);
  });

  it("refuses a team member with FB001 and answers 404 for another business's endpoint or delivery", async () => {
    const { account, client } = await owner();
    const team = await createTeamUser(t.app.db, account.businessId);
    const member = await signedIn(t.app, team.id);
    const page = await member.get(PATH);
    expect(page.status).toBe(403);
    expect(pageText(await page.text())).toContain("Only your account administrator can do this");
    const post = await member.post(PATH, { intent: "save", url: "https://hooks.example.com/", events: ALL });
    expect(post.status).toBe(403);
    expect(await endpoints(account.businessId)).toEqual([]);

    const other = await owner();
    await other.client.post(PATH, { intent: "save", url: "https://other.example.com/", events: ALL });
    const [theirs] = await endpoints(other.account.businessId);
    await other.client.post(PATH, { intent: "test", id: String(theirs.id) });
    const [theirDelivery] = await t.app.db.selectFrom("webhook_deliveries").select("id").where("business_id", "=", other.account.businessId).execute();
    expect((await client.get(`${PATH}?edit=${theirs.id}`)).status).toBe(404);
    expect((await client.get(`${PATH}?delivery=${theirDelivery.id}`)).status).toBe(404);
    expect((await client.get(`${PATH}?edit=abc`)).status).toBe(404);
    for (const intent of ["delete", "disable", "enable", "test"]) {
      expect((await client.post(PATH, { intent, id: String(theirs.id) })).status, intent).toBe(404);
    }
    expect((await client.post(PATH, { intent: "save", id: String(theirs.id), url: "https://mine.example.com/", events: ALL })).status).toBe(404);
    expect((await client.post(PATH, { intent: "retry", deliveryId: String(theirDelivery.id) })).status).toBe(404);
    expect((await endpoints(other.account.businessId))[0]).toMatchObject({ url: "https://other.example.com/", enabled: 1 });
  });
});

// The built app's own worker delivering to a receiver started here (private addresses allowed, as on a developer's
// machine): the test event pressed on the page arrives signed with the secret the page showed once.
describe.each(DIALECTS)("webhooks delivered by the app's worker (%s)", (dialect) => {
  const t = useTestApp({ dialect, env: { RUN_WORKER: "true", WEBHOOKS_ALLOW_PRIVATE: "true", WORKER_POLL_MS: "50" } });
  const bodies: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  let receiver: http.Server;
  let url = "";
  beforeAll(async () => {
    receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString("utf8")));
      req.on("end", () => {
        bodies.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/textcircle`;
  });
  afterAll(async () => {
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
  });

  it("posts the test event, signed, and logs it as delivered", async () => {
    const account = await createAccount(t.app.db);
    const client = await signedIn(t.app, account.id);
    const added = await client.post(PATH, { intent: "save", url, events: ALL });
    expect(added.status).toBe(200);
    const secret = /whsec_[A-Za-z0-9+/]{43}=/.exec(await added.text())![0];
    const [ep] = await t.app.db.selectFrom("webhook_endpoints").select("id").where("business_id", "=", account.businessId).execute();
    expect((await client.post(PATH, { intent: "test", id: String(ep.id) })).status).toBe(302);
    const deadline = Date.now() + 15_000;
    while (!bodies.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(bodies).toHaveLength(1);
    const event = verifyWebhook<{ type: string; data: { endpointId: number } }>(secret, bodies[0].body, bodies[0].headers as Record<string, string>);
    expect(event).toMatchObject({ type: "webhook.test", data: { endpointId: Number(ep.id) } });
    // The log says so once the worker has recorded it.
    let log = "";
    while (Date.now() < deadline) {
      log = pageText(await (await client.get(PATH)).text());
      if (log.includes("Delivered")) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(log).toContain("Delivered");
    expect(log).toMatch(/Delivered 1 204/);
  });
});
