// Campaign pages over HTTP, as a browser without JavaScript uses them: create each of the five types through its
// form, see it in the list and on its results page, download its CSV, end and delete it after the confirmation;
// bad input comes back with the input kept and a translated error (never a 500); a double submission makes one
// campaign; an issued campaign can no longer be changed (BR028); another business's campaign is a 404; French.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { Clock, makeFullWorker, seedMembers } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { pageText, useTestApp, type TestClient } from "../support/server";
import { utcToUkDateTime } from "~/lib/uk-time";

/** A UK date and time `days` from now, as the form's fields take them. */
function inDays(days: number): { date: string; time: string } {
  return utcToUkDateTime(new Date(Date.now() + days * 86_400_000));
}

function hidden(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html) ?? new RegExp(`value="([^"]*)" name="${name}"`).exec(html);
  if (!m) throw new Error(`no ${name} field in the page`);
  return m[1];
}

const close = inDays(7);
const later = inDays(2);

const FORMS = {
  "/bounceback": { name: "Opening hours", keyword: "hours", messageText: "We are open 9 to 5, Monday to Saturday.", issueMode: "NOW" },
  "/onequestion": { name: "Favourite cake", messageText: "Which cake should we bake next week?", thankYouText: "Thanks!", contactGroupId: "-1", issueMode: "NOW", closeDate: close.date, closeTime: close.time },
  "/quickpoll": {
    name: "Friday lunch",
    messageText: "What shall we have on Friday?",
    contactGroupId: "-1",
    issueMode: "LATER",
    issueDate: later.date,
    issueTime: later.time,
    closeDate: close.date,
    closeTime: close.time,
    "responseOptions[0]": "Pizza",
    "responseOptions[1]": "",
    "responseOptions[2]": "Curry",
    "responseOptions[3]": "Salad",
  },
  "/invitation": {
    name: "Summer party",
    messageText: "Come to our summer party on the terrace!",
    acceptText: "See you there.",
    declineText: "Sorry to miss you.",
    "responseOptions[0]": "YES",
    "responseOptions[1]": "NO",
    capacity: "20",
    allowPartySize: "on",
    contactGroupId: "-1",
    issueMode: "LATER",
    issueDate: later.date,
    issueTime: later.time,
    closeDate: close.date,
    closeTime: close.time,
  },
  "/pickwinners": { name: "Christmas hamper", entrySource: "GROUP", contactGroupId: "-1", numberWinnersToPick: "1", excludeWinnersDays: "0", closeDate: close.date, closeTime: close.time, issueMode: "NOW" },
} as const;

describe("campaign pages", () => {
  const t = useTestApp();
  let client: TestClient;
  let members: Array<{ id: number; phone: string }>;
  let businessNumber: string;
  let seq = 0;

  /** A member texts the business; the worker (run here, on the app's database) routes it and sends the replies. */
  async function texts(...messages: [phone: string, body: string][]) {
    const clock = new Clock(new Date());
    for (const [from, body] of messages) {
      clock.advance(1000);
      await receiveInbound({ db: t.app.db }, { providerId: `SMpages${++seq}${Date.now()}`, from, to: businessNumber, body, receivedAt: clock.now() });
    }
    const worker = makeFullWorker(t.app.db, clock);
    clock.advance(10_000);
    await worker.drain();
  }

  /** Posts a type's form as a browser would: loads it first for its idempotency key. */
  async function submit(path: string, fields: Record<string, string>, key?: string) {
    const key_ = key ?? hidden(await (await client.get(path)).text(), "idempotencyKey");
    return client.post(path, { idempotencyKey: key_, ...fields });
  }

  beforeAll(async () => {
    const account = await createAccount(t.app.db, { messageAllowance: 1000 });
    client = t.app.client();
    await client.login(account.email, account.password);
    members = await seedMembers(t.app.db, account.businessId, 3, { firstName: (i) => ["Priya", "Quentin", "Rosa"][i] });
    businessNumber = (await t.app.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow()).phone_number!;
  });

  it("starts empty with one action, and offers the five types each with what it does", async () => {
    const list = await client.get("/campaigns");
    expect(list.status).toBe(200);
    const html = await list.text();
    expect(pageText(html)).toContain("No campaigns yet");
    expect(html).toContain('href="/newcampaign"');
    const choose = await client.get("/newcampaign");
    expect(choose.status).toBe(200);
    const chooseHtml = await choose.text();
    for (const path of Object.keys(FORMS)) expect(chooseHtml).toContain(`href="${path}"`);
    expect(pageText(chooseHtml)).toContain("Members vote by replying with a number");
    // The bare results path opens the list.
    const bare = await client.get("/viewcampaign");
    expect(bare.status).toBe(302);
    expect(bare.headers.get("location")).toBe("/campaigns");
  });

  it("creates each type through its form without JavaScript, then lists it and shows its results", async () => {
    for (const [path, fields] of Object.entries(FORMS)) {
      const form = await client.get(path);
      expect(form.status, path).toBe(200);
      const res = await submit(path, fields);
      expect(res.status, `${path}: ${pageText(await res.clone().text()).slice(0, 400)}`).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).toMatch(/^\/viewcampaign\?id=\d+$/);
      const view = await client.get(location);
      expect(view.status, path).toBe(200);
      expect(pageText(await view.text())).toContain(fields.name);
    }
    const oneTime = pageText(await (await client.get("/campaigns")).text());
    for (const name of ["Favourite cake", "Friday lunch", "Summer party", "Christmas hamper"]) expect(oneTime).toContain(name);
    expect(oneTime).not.toContain("Opening hours");
    const ongoing = pageText(await (await client.get("/campaigns?kind=ONGOING")).text());
    expect(ongoing).toContain("Opening hours");
    expect(ongoing).toContain("Keyword HOURS");
  });

  it("shows a scheduled poll's options and lets it be changed, keeping the edit on the same campaign", async () => {
    const res = await submit("/quickpoll", { ...FORMS["/quickpoll"], name: "Tea or coffee", "responseOptions[0]": "Tea", "responseOptions[2]": "Coffee", "responseOptions[3]": "" });
    const location = res.headers.get("location")!;
    const id = location.split("=")[1];
    const edit = await client.get(`/quickpoll?id=${id}`);
    expect(edit.status).toBe(200);
    const html = await edit.text();
    expect(html).toContain('value="Tea"');
    expect(html).toContain('value="Coffee"');
    const saved = await client.post(`/quickpoll?id=${id}`, { ...FORMS["/quickpoll"], name: "Tea or coffee?", "responseOptions[0]": "Tea", "responseOptions[2]": "Coffee", "responseOptions[3]": "Hot chocolate" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe(location);
    const view = pageText(await (await client.get(location)).text());
    expect(view).toContain("Tea or coffee?");
    // An id of another type opens that type's page.
    const other = await client.get(`/onequestion?id=${id}`);
    expect(other.status).toBe(302);
    expect(other.headers.get("location")).toBe(`/quickpoll?id=${id}`);
  });

  it("shows a poll's votes per option with the top response, the replies and their CSV", async () => {
    const res = await submit("/quickpoll", { ...FORMS["/quickpoll"], name: "Pudding vote", issueMode: "NOW", "responseOptions[0]": "Crumble", "responseOptions[2]": "Trifle", "responseOptions[3]": "Jelly" });
    const location = res.headers.get("location")!;
    await texts([members[0].phone, "2"], [members[1].phone, "trifle"], [members[2].phone, "1"]);
    const html = await (await client.get(location)).text();
    const text = pageText(html);
    expect(text).toContain("Top response: Trifle, with 67% of the votes (2 votes).");
    expect(text).toMatch(/Trifle 2 67 ?%/);
    expect(text).toMatch(/Crumble 1 33 ?%/);
    expect(text).toMatch(/Jelly 0 0 ?%/);
    expect(text).toContain("3 replies");
    expect(text).toMatch(/Quentin .* trifle Trifle/);
    // Without JavaScript the share shows as a ring drawn in CSS; chartist replaces it once scripts run.
    expect(html).toContain("conic-gradient(var(--accent) 0 67%");
    const csv = await (await client.get(`/viewcampaign/export?id=${location.split("=")[1]}`)).text();
    expect(csv).toContain("Trifle");
  });

  it("pages a campaign's replies 50 at a time, deep pages included", async () => {
    const res = await submit("/quickpoll", { ...FORMS["/quickpoll"], name: "Long vote", issueMode: "NOW", "responseOptions[0]": "Red", "responseOptions[2]": "Blue", "responseOptions[3]": "" });
    const location = res.headers.get("location")!;
    const id = Number(location.split("=")[1]);
    const c = await t.app.db.selectFrom("campaigns").select("business_id").where("id", "=", id).executeTakeFirstOrThrow();
    // 620 stored replies, numbered so each page's first and last are known (newest first).
    const start = Date.parse("2026-01-01T00:00:00Z");
    const rows = Array.from({ length: 620 }, (_, i) => ({
      business_id: c.business_id,
      campaign_id: id,
      member_id: null,
      phone: "+447700900999",
      step: "answer",
      answer: "1",
      raw: `vote number ${i + 1}`,
      inbound_id: null,
      created_at: new Date(start + i * 60_000).toISOString(),
    }));
    for (let i = 0; i < rows.length; i += 200) await t.app.db.insertInto("campaign_responses").values(rows.slice(i, i + 200)).execute();
    const first = pageText(await (await client.get(location)).text());
    expect(first).toContain("vote number 620");
    expect(first).toContain("vote number 571");
    expect(first).not.toContain("vote number 570");
    const twelfth = pageText(await (await client.get(`${location}&page=12`)).text());
    expect(twelfth).toContain("vote number 70 ");
    expect(twelfth).toContain("vote number 21 ");
    expect(twelfth).not.toContain("vote number 620");
    const last = pageText(await (await client.get(`${location}&page=13`)).text());
    expect(last).toContain("vote number 20 ");
    expect(last).toContain("vote number 1 ");
    expect(last).not.toContain("vote number 21 ");
  });

  it("keeps an invitation's door list of who is coming, with party sizes", async () => {
    const res = await submit("/invitation", { ...FORMS["/invitation"], name: "Quiz night", issueMode: "NOW" });
    const location = res.headers.get("location")!;
    await texts([members[0].phone, "YES 3"], [members[1].phone, "no"]);
    const text = pageText(await (await client.get(location)).text());
    expect(text).toMatch(/Accepted 3 places/);
    expect(text).toMatch(/Declined 1/);
    expect(text).toMatch(/No reply 1/);
    expect(text).toMatch(/Door list .*Priya .* 3 Accepted/);
    expect(text).not.toMatch(/Door list .*Quentin .*Declined.*2 replies/);
  });

  it("asks before drawing from a group with no members, and refuses a keyword already in use", async () => {
    const group = await client.post("/groups", { name: "Nobody yet", type: "LIST" });
    const groupId = group.headers.get("location")!.split("/").pop()!;
    const fields = { ...FORMS["/pickwinners"], name: "Empty draw", contactGroupId: groupId };
    const key = hidden(await (await client.get("/pickwinners")).text(), "idempotencyKey");
    const asked = await submit("/pickwinners", fields, key);
    expect(asked.status).toBe(400);
    const html = await asked.text();
    expect(pageText(html)).toContain("This group has no members yet.");
    expect(html).toContain('name="confirmEmptyGroup"');
    expect(html).toContain(`<option value="${groupId}" selected=""`);
    const confirmed = await submit("/pickwinners", { ...fields, confirmEmptyGroup: "on" }, key);
    expect(confirmed.status).toBe(302);
    expect(pageText(await (await client.get(confirmed.headers.get("location")!)).text())).toContain("Draw fingerprint");

    const taken = await submit("/bounceback", { ...FORMS["/bounceback"], name: "Hours again", keyword: "Hours" });
    expect(taken.status).toBe(400);
    const takenHtml = await taken.text();
    expect(pageText(takenHtml)).toContain("That keyword is already used by another live campaign.");
    expect(takenHtml).toContain('value="Hours"');
  });

  it("heads the list with failed campaigns and says why each failed", async () => {
    const res = await submit("/onequestion", { ...FORMS["/onequestion"], name: "Out of credit", issueMode: "LATER", issueDate: later.date, issueTime: later.time });
    const id = Number(res.headers.get("location")!.split("=")[1]);
    await t.app.db.updateTable("campaigns").set({ status: "FAILED", error_code: "SURVEYERROR_OUTOFCREDIT_FAILURE" }).where("id", "=", id).execute();
    const list = pageText(await (await client.get("/campaigns")).text());
    expect(list).toMatch(/One time \d+ Ongoing \d+ Failed \( ?1 ?\) Out of credit Failed One question .* You ran out of credit, so this campaign could not be sent\./);
    // Failed comes first, before the live and scheduled ones.
    expect(list.indexOf("Failed (")).toBeLessThan(list.search(/(Live|Scheduled) \(/));
    const view = pageText(await (await client.get(`/viewcampaign?id=${id}`)).text());
    expect(view).toContain("This campaign failed");
    expect(view).toContain("You ran out of credit, so this campaign could not be sent.");
    expect(pageText(await (await client.get(`/viewcampaign?id=${id}&lng=fr`)).text())).toContain("Vous n’aviez plus de crédit");
    await client.get("/campaigns?lng=en-GB"); // the language choice is remembered: back to English
  });

  it("keeps an invitation's settings when it is opened to be changed", async () => {
    const res = await submit("/invitation", { ...FORMS["/invitation"], name: "Wine tasting", capacity: "12", eventDate: close.date, eventTime: "19:30" });
    const id = res.headers.get("location")!.split("=")[1];
    const html = await (await client.get(`/invitation?id=${id}`)).text();
    expect(html).toContain('value="Wine tasting"');
    expect(html).toContain('value="12"');
    expect(html).toContain('value="19:30"');
    expect(html).toMatch(/name="allowPartySize"[^>]*checked/);
    expect(html).toMatch(/name="remindDayBefore"(?![^>]*checked)/);
    expect(html).toContain("See you there.");
  });

  it("shows a draw's fingerprint from the start, and its seed and winners once drawn", async () => {
    const res = await submit("/pickwinners", { ...FORMS["/pickwinners"], name: "Cheese board", numberWinnersToPick: "2" });
    const location = res.headers.get("location")!;
    const id = Number(location.split("=")[1]);
    const before = pageText(await (await client.get(location)).text());
    const hash = /Draw fingerprint \(SHA-256 of the seed\) ([0-9a-f]{64})/.exec(before)?.[1];
    expect(hash).toBeTruthy();
    expect(before).toContain("Awaiting the draw on");
    expect(before).not.toContain("Seed ");
    // The draw date comes: the worker makes the draw.
    await t.app.db.updateTable("campaign_fires").set({ fire_at: new Date(Date.now() - 1000).toISOString() }).where("campaign_id", "=", id).where("step", "=", "draw").execute();
    await texts();
    const after = pageText(await (await client.get(location)).text());
    expect(after).toContain(`Draw fingerprint (SHA-256 of the seed) ${hash}`);
    expect(after).toMatch(/Seed [0-9a-f]{16,}/);
    expect(after).toMatch(/Winners (Priya|Quentin|Rosa) .*(Priya|Quentin|Rosa)/);
    expect(after).toContain("Ended");
  });

  it("makes one campaign from a double submission", async () => {
    const key = hidden(await (await client.get("/onequestion")).text(), "idempotencyKey");
    const fields = { ...FORMS["/onequestion"], name: "Pressed twice" };
    const [a, b] = await Promise.all([submit("/onequestion", fields, key), submit("/onequestion", fields, key)]);
    expect([a.status, b.status]).toEqual([302, 302]);
    expect(a.headers.get("location")).toBe(b.headers.get("location"));
    const again = await submit("/onequestion", fields, key);
    expect(again.headers.get("location")).toBe(a.headers.get("location"));
    const list = pageText(await (await client.get("/campaigns")).text());
    expect(list.split("Pressed twice").length - 1).toBe(1);
  });

  it("keeps bad input with a translated error and never a 500", async () => {
    const missing = await submit("/quickpoll", { issueMode: "NOW" });
    expect(missing.status).toBe(400);
    const missingText = pageText(await missing.text());
    expect(missingText).toContain("Campaign name is required");
    expect(missingText).toContain("Your question is required");
    expect(missingText).toContain("Choose the close date and time");
    expect(missingText).toContain("Give between 2 and 9 options");

    const long = await submit("/quickpoll", { ...FORMS["/quickpoll"], name: "x".repeat(41) });
    expect(long.status).toBe(400);
    const longHtml = await long.text();
    expect(pageText(longHtml)).toContain("Campaign name must be 40 characters or fewer");
    expect(longHtml).toContain(`value="${"x".repeat(41)}"`);

    const reserved = await submit("/bounceback", { ...FORMS["/bounceback"], keyword: "stop" });
    expect(reserved.status).toBe(400);
    expect(pageText(await reserved.text())).toContain("That keyword is reserved");

    const same = await submit("/quickpoll", { ...FORMS["/quickpoll"], "responseOptions[2]": "pizza" });
    expect(same.status).toBe(400);
    const sameHtml = await same.text();
    expect(pageText(sameHtml)).toContain("Each option must be different");
    expect(sameHtml).toContain('value="Salad"');

    const past = inDays(-1);
    const pastRes = await submit("/quickpoll", { ...FORMS["/quickpoll"], issueDate: past.date, issueTime: past.time });
    expect(pastRes.status).toBe(400);
    expect(pageText(await pastRes.text())).toContain("Choose a date and time in the future");

    const notADate = await submit("/onequestion", { ...FORMS["/onequestion"], closeDate: "2030-02-31" });
    expect(notADate.status).toBe(400);
    expect(pageText(await notADate.text())).toContain("Enter a real date and time");

    const winners = await submit("/pickwinners", { ...FORMS["/pickwinners"], numberWinnersToPick: "lots" });
    expect(winners.status).toBe(400);
    expect(pageText(await winners.text())).toContain("The number of winners must be a whole number from 1 to 100");

    const rsvp = await submit("/invitation", { ...FORMS["/invitation"], "responseOptions[1]": "yes" });
    expect(rsvp.status).toBe(400);
    expect(pageText(await rsvp.text())).toContain("Each option must be different");

    expect(t.app.serverErrors).not.toMatch(/TypeError|ReferenceError|Unexpected Server Error/);
  });

  it("refuses to change a campaign once it has gone out (BR028)", async () => {
    // Sent now: the question goes out as the campaign is saved.
    const res = await submit("/onequestion", { ...FORMS["/onequestion"], name: "Gone out" });
    const id = res.headers.get("location")!.split("=")[1];
    const page = await client.get(`/onequestion?id=${id}`);
    expect(page.status).toBe(200);
    const text = pageText(await page.text());
    expect(text).toContain("This campaign has already been sent, so it can no longer be changed.");
    expect(text).not.toContain("Save changes");
    const post = await client.post(`/onequestion?id=${id}`, { ...FORMS["/onequestion"], name: "Changed anyway" });
    expect(post.status).toBe(400);
    expect(pageText(await post.text())).toContain("This campaign has already been sent");
    expect(pageText(await (await client.get(`/viewcampaign?id=${id}`)).text())).toContain("Gone out");
  });

  it("downloads the replies as CSV, and ends then deletes a campaign after asking", async () => {
    const res = await submit("/onequestion", { ...FORMS["/onequestion"], name: "Short lived" });
    const location = res.headers.get("location")!;
    const id = location.split("=")[1];
    const csv = await client.get(`/viewcampaign/export?id=${id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toContain("text/csv");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"$/);
    // Without JavaScript the End button leads to the question on the page itself.
    const ask = pageText(await (await client.get(`${location}&confirm=end-campaign`)).text());
    expect(ask).toContain("End this campaign?");
    const ended = await client.post(location, { intent: "end" });
    expect(ended.status).toBe(302);
    expect(pageText(await (await client.get(location)).text())).toMatch(/Ended/);
    const deleted = await client.post(location, { intent: "delete" });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("location")).toBe("/campaigns");
    expect((await client.get(location)).status).toBe(404);
  });

  it("answers 404 for another business's campaign on every page, action and download", async () => {
    const res = await submit("/quickpoll", { ...FORMS["/quickpoll"], name: "Private poll" });
    const id = res.headers.get("location")!.split("=")[1];
    const other = await createAccount(t.app.db);
    const stranger = t.app.client();
    await stranger.login(other.email, other.password);
    for (const path of [`/viewcampaign?id=${id}`, `/quickpoll?id=${id}`, `/viewcampaign/export?id=${id}`]) {
      expect((await stranger.get(path)).status, path).toBe(404);
    }
    expect((await stranger.post(`/viewcampaign?id=${id}`, { intent: "delete" })).status).toBe(404);
    expect((await stranger.post(`/quickpoll?id=${id}`, { ...FORMS["/quickpoll"], name: "Mine now" })).status).toBe(404);
    expect(pageText(await (await stranger.get("/campaigns")).text())).not.toContain("Private poll");
    expect(pageText(await (await client.get(`/viewcampaign?id=${id}`)).text())).toContain("Private poll");
    for (const bad of ["abc", "-1", "0", "99999999999999999999"]) expect((await client.get(`/viewcampaign?id=${bad}`)).status, bad).toBe(404);
  });

  it("speaks French", async () => {
    const list = pageText(await (await client.get("/campaigns?lng=fr")).text());
    expect(list).toContain("Campagnes");
    expect(list).toContain("Ponctuelles");
    const form = await submit("/quickpoll?lng=fr", { ...FORMS["/quickpoll"], name: "" });
    expect(form.status).toBe(400);
    const text = pageText(await form.text());
    expect(text).toContain("Sondage express");
    expect(text).toContain("Nom de la campagne");
    expect(text).not.toContain("campaigns.");
  });
});
