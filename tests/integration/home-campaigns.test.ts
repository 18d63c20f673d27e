// The home screen's campaign panels and the campaign stats over HTTP, on both databases: campaigns created through
// the API, sent by a worker on the simulator, members' replies through the inbound pipeline; then what the owner
// reads on the home page (server-rendered, as with JavaScript off): sending with its date until sent, sent and
// replied counts with the time left, the poll's top response and share, the auto responder's counts, the draw
// awaited; and the live-campaigns and member-interaction stats.
import { describe, expect, it } from "vitest";
import { createSession } from "~/domain/accounts/sessions.server";
import { workerRounds } from "~/domain/jobs/index.server";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { OutboundWorker } from "~/domain/messaging/worker.server";
import { SimulatorSmsProvider } from "~/providers/sms/simulator.server";
import { formatLongDate } from "~/lib/uk-time";
import { DIALECTS } from "../support/db";
import { createAccount } from "../support/factories";
import { seedMembers, TEST_SETTINGS } from "../support/pipeline";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";

const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

/** Sends what is due and works the inbound texts, on a clock a few minutes ahead (past the sending-soon pause). */
async function runWorker(app: TestApp): Promise<void> {
  const now = () => new Date(Date.now() + 5 * 60_000);
  const sms = new SimulatorSmsProvider(app.db, now);
  const rounds = workerRounds({ db: app.db, now, config: { messaging: { sendDelaySeconds: 0 } } });
  await new OutboundWorker({ db: app.db, sms, now, config: { messaging: TEST_SETTINGS } }, { rounds }).drain();
}

let sid = 0;
async function reply(app: TestApp, from: string, to: string, body: string): Promise<void> {
  const result = await receiveInbound({ db: app.db }, { providerId: `SMhome${process.pid}x${++sid}`, from, to, body, receivedAt: new Date() });
  expect(result.outcome).toBe("stored");
}

async function created(client: TestClient, body: Record<string, unknown>): Promise<{ id: number; status: string }> {
  const res = await client.json("/api/campaigns", "POST", body);
  if (res.status !== 201) throw new Error(`create ${String(body.type)}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: number; status: string };
}

async function stat(client: TestClient, query: string): Promise<number> {
  const res = await client.get(`/api/stats?type=${query}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as { total: number }).total;
}

/** The text of one feed panel on the home page, found by its campaign's name. */
function panelText(html: string, name: string): string {
  const articles = html.split("<article").slice(1).map((a) => pageText(`<article${a.split("</article>")[0]}`));
  const found = articles.filter((a) => a.includes(name));
  expect(found, `one panel for ${name}`).toHaveLength(1);
  return found[0];
}

describe.each(DIALECTS)("home campaign panels and stats (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  it("shows each campaign as it stands, and the stats count live campaigns and a member's replies", async () => {
    const account = await createAccount(t.app.db, { trialCredits: 50, trialDays: 20 });
    const business = await t.app.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    const ourNumber = business.phone_number!;
    // No quiet hours: the test runs at any hour.
    await t.app.db.updateTable("businesses").set({ quiet_start: "00:00", quiet_end: "00:00" }).where("id", "=", account.businessId).execute();
    const [ann, ben, cat, dan] = await seedMembers(t.app.db, account.businessId, 4);
    const client = t.app.client();
    const { token } = await createSession(t.app.db, account.id, "WEB", new Date());
    client.cookies.set("tc_session", token);

    const poll = await created(client, {
      type: "POLL",
      name: "Sunday opening",
      contactGroupId: -1,
      messageText: "Should we open on Sundays? Reply 1 Yes or 2 No",
      responseOptions: ["Yes", "No"],
      closeDate: inDays(3),
    });
    const questionAt = inDays(1);
    await created(client, { type: "ONEQUESTION", name: "Cake of the week", contactGroupId: -1, messageText: "Which cake should we bake next week?", issueDate: questionAt, closeDate: inDays(2) });
    const bounceback = await created(client, { type: "BOUNCEBACK", name: "Opening hours", keyword: "HOURS", messageText: "We open 8am to 6pm." });
    const drawAt = inDays(2);
    await created(client, { type: "PICKWINNERS", name: "Hamper draw", contactGroupId: -1, numberWinnersToPick: 1, closeDate: drawAt });

    // The question is not sent yet: it says when it will be. The poll, issued now, is on its way to everyone.
    const home = await client.get("/");
    expect(home.status).toBe(200);
    let html = await home.text();
    expect(panelText(html, "Sunday opening")).toContain("Sent to 4 members");
    expect(panelText(html, "Sunday opening")).toContain("No replies yet");
    expect(panelText(html, "Cake of the week")).not.toContain("replied");
    expect(panelText(html, "Cake of the week")).toContain(`Sending on ${formatLongDate(questionAt)}`);
    expect(panelText(html, "Hamper draw")).toContain("Awaiting draw");
    expect(panelText(html, "Hamper draw")).toContain(`Draw on ${formatLongDate(drawAt)}`);
    expect(panelText(html, "Hamper draw")).toContain("1 winner");

    await runWorker(t.app);
    await reply(t.app, ann.phone, ourNumber, "1");
    await reply(t.app, ben.phone, ourNumber, "No");
    await reply(t.app, cat.phone, ourNumber, "yes");
    await reply(t.app, cat.phone, ourNumber, "2");
    await reply(t.app, dan.phone, ourNumber, "hours?");
    await runWorker(t.app);

    html = await (await client.get("/")).text();
    const pollPanel = panelText(html, "Sunday opening");
    expect(pollPanel).toContain("Sent to 4 members");
    expect(pollPanel).toContain("3 replied");
    expect(pollPanel).toContain("Top response: No (67%)");
    expect(pollPanel).toMatch(/2 DAYS left/);
    const bounce = panelText(html, "Opening hours");
    expect(bounce).toMatch(/Today 1 Yesterday 0 This month 1/);
    expect(panelText(html, "Cake of the week")).toContain("Sending on");

    // The API answers the same figures, and the replies with the option each counted as.
    const pollDetail = (await (await client.get(`/api/campaigns/${poll.id}`)).json()) as any;
    expect(pollDetail.topResponse).toEqual({ response: "No", total: 2, percent: 67 });
    expect(pollDetail.repliesTotal).toBe(3);
    expect(pollDetail.replies.find((r: { memberId: number }) => r.memberId === cat.id)).toMatchObject({ response: "2", responseOption: "No" });
    const bounceDetail = (await (await client.get(`/api/campaigns/${bounceback.id}`)).json()) as any;
    expect(bounceDetail).toMatchObject({ totalToday: 1, totalYesterday: 0, totalMonth: 1 });

    // The live-campaigns tile counts the live and ongoing ones; a member's campaign texts count every reply.
    const list = (await (await client.get("/api/campaigns")).json()) as { items: { status: string }[] };
    const live = list.items.filter((c) => c.status === "LIVE" || c.status === "ONGOING").length;
    expect(live).toBeGreaterThanOrEqual(2);
    expect(await stat(client, "CAMPAIGNSTOTAL")).toBe(live);
    expect(await stat(client, `CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=${ann.id}`)).toBe(1);
    expect(await stat(client, `CONTACTCAMPAIGNINTERACTIONTOTAL&contactId=${cat.id}`)).toBe(2);

    // Ended: one fewer live, and the panel says it is closed.
    expect((await client.json(`/api/campaigns/${poll.id}/end`, "POST")).status).toBe(200);
    expect(await stat(client, "CAMPAIGNSTOTAL")).toBe(live - 1);
    html = await (await client.get("/")).text();
    const ended = panelText(html, "Sunday opening");
    expect(ended).toContain("Closed");
    expect(ended).toContain("Top response: No (67%)");

    // A campaign that could not run shows its reason, translated, and nothing about sending.
    await t.app.db.updateTable("campaigns").set({ status: "FAILED", error_code: "SURVEYERROR_OUTOFCREDIT_FAILURE" }).where("business_id", "=", account.businessId).where("name", "=", "Cake of the week").execute();
    html = await (await client.get("/")).text();
    const failed = panelText(html, "Cake of the week");
    expect(failed).toContain("Failed: You ran out of credit.");
    expect(failed).not.toContain("Sending");
  });
  it("shows both kinds of check-in panel: the venue's figures (opening its export page) and its export file, waiting then ready", async () => {
    const account = await createAccount(t.app.db, { trialCredits: 50, trialDays: 20 });
    const client = t.app.client();
    await client.login(account.email, account.password);
    const door = await created(client, { type: "CHECKIN", name: "Front door", keyword: "INDOOR", messageText: "Welcome!" });
    let html = await (await client.get("/")).text();
    expect(panelText(html, "Front door")).toContain("Here now 0");
    expect(html).toContain(`href="/checkinexport?id=${door.id}"`);
    expect((await client.post(`/checkinexport?id=${door.id}`, {})).status).toBe(302);
    html = await (await client.get("/")).text();
    expect(panelText(html, "Check-in export: Front door")).toContain("Waiting");
    await runWorker(t.app);
    html = await (await client.get("/")).text();
    const ready = panelText(html, "Check-in export: Front door");
    expect(ready).toContain("Ready");
    expect(ready).toMatch(/0 check-ins from the last 21 days, kept until \d+ \w+/);
    const feed = (await (await client.get("/api/feed")).json()) as { id: string; type: string; status?: string; totalReceived?: number }[];
    expect(feed.find((i) => i.id.startsWith("checkinexport-"))).toMatchObject({ type: "CHECKIN", status: "AVAILABLE", totalReceived: 0 });
    // Another business sees neither panel.
    const other = await createAccount(t.app.db);
    const theirs = t.app.client();
    await theirs.login(other.email, other.password);
    expect(await (await theirs.get("/")).text()).not.toContain("Front door");
  });
});
