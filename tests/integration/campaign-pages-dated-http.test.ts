// The pages of the date-driven, survey and check-in campaigns over HTTP, as a browser without JavaScript uses them:
// each type created through its form and shown on its results page; bad input kept with a translated error, never a
// 500 (a second birthday campaign, days before other than 1 or 2, a duration over 100, a review link that is not
// https); a survey answered by text shows its score; a check-in shows who is here; French renders.
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { Clock, makeFullWorker, seedMembers } from "../support/pipeline";
import { receiveInbound } from "~/domain/messaging/inbound.server";
import { pageText, useTestApp, type TestClient } from "../support/server";

function hidden(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html) ?? new RegExp(`value="([^"]*)" name="${name}"`).exec(html);
  if (!m) throw new Error(`no ${name} field in the page`);
  return m[1];
}

const SURVEY = {
  name: "How did we do",
  keyword: "RATE",
  introText: "Thanks for coming in!",
  scoreQuestionText: "From 0 to 10, would you recommend us?",
  detractorQuestionText: "Sorry! What went wrong?",
  promoterQuestionText: "Great! What did you like?",
  detractorThankYouText: "Thank you, we will do better.",
  promoterThankYouText: "Thank you!",
  reviewLink: "https://example.test/review",
  contactGroupId: "0",
  issueMode: "NOW",
};

const FORMS = {
  "/birthday": { name: "Birthdays", messageText: "Happy birthday {{firstName}}!", contactGroupId: "-1", sendTime: "09:30", issueMode: "NOW" },
  "/reminder": { name: "Appointments", messageText: "See you on {{appointmentDate}} at {{appointmentTime}}.", contactGroupId: "-1", dateAttribute: "appointment", daysBefore: "1", sendTime: "18:00", issueMode: "NOW" },
  "/postregistration": { name: "Welcome", messageText: "How are you finding us?", contactGroupId: "-1", duration: "3", durationUnit: "DAYS", includeJoinedWithinDays: "0", issueMode: "NOW" },
  "/customerexp": SURVEY,
  "/checkin": { name: "Front door", keyword: "IN", messageText: "Welcome in!", autoCheckoutHours: "4", issueMode: "NOW" },
} as const;

describe("date-driven, survey and check-in campaign pages", () => {
  const t = useTestApp();
  let client: TestClient;
  let members: Array<{ id: number; phone: string }>;
  let businessNumber: string;
  let seq = 0;
  const ids: Record<string, number> = {};

  async function texts(...messages: [phone: string, body: string][]) {
    const clock = new Clock(new Date());
    for (const [phone, body] of messages) {
      await receiveInbound({ db: t.app.db }, { providerId: `SMpd${++seq}${Date.now()}`, from: phone, to: businessNumber, body, receivedAt: new Date() });
      await makeFullWorker(t.app.db, clock).drain();
    }
  }

  beforeAll(async () => {
    const account = await createAccount(t.app.db, { messageAllowance: 1000 });
    client = t.app.client();
    await client.login(account.email, account.password);
    members = await seedMembers(t.app.db, account.businessId, 3);
    businessNumber = (await t.app.db.selectFrom("businesses").select("phone_number").where("id", "=", account.businessId).executeTakeFirstOrThrow()).phone_number!;
  });

  it("creates each type through its form and shows it on its results page", async () => {
    for (const [path, fields] of Object.entries(FORMS)) {
      const page = await client.get(path);
      expect(page.status, path).toBe(200);
      const html = await page.text();
      const res = await client.post(path, { ...fields, idempotencyKey: hidden(html, "idempotencyKey") });
      expect(res.status, `${path}: ${pageText(await res.clone().text()).slice(0, 400)}`).toBe(302);
      const location = res.headers.get("location")!;
      expect(location).toMatch(/^\/viewcampaign\?id=\d+$/);
      ids[path] = Number(location.split("=")[1]);
      const view = pageText(await (await client.get(location)).text());
      expect(view).toContain(fields.name);
    }
    const list = pageText(await (await client.get("/campaigns?kind=ONGOING")).text());
    for (const name of ["Birthdays", "Appointments", "Welcome", "How did we do", "Front door"]) expect(list).toContain(name);
    expect(pageText(await (await client.get("/newcampaign")).text())).toMatch(/Birthday greeting.*Reminder.*Follow-up after joining.*Customer experience survey.*Venue check-in/);
  });

  it("keeps bad input with a translated error and never a 500", async () => {
    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ["/birthday", { ...FORMS["/birthday"], name: "Another" }, /already/i],
      ["/reminder", { ...FORMS["/reminder"], name: "R2", daysBefore: "3" }, /Choose 1 or 2 days before/],
      ["/postregistration", { ...FORMS["/postregistration"], name: "P2", duration: "101" }, /whole number from 1 to 100/],
      ["/customerexp", { ...SURVEY, name: "S2", keyword: "RATE2", reviewLink: "http://insecure.test" }, /starting https:\/\//],
      ["/checkin", { ...FORMS["/checkin"], name: "C2", keyword: "IN" }, /already|in use/i],
    ];
    for (const [path, fields, message] of cases) {
      const html = await (await client.get(path)).text();
      const res = await client.post(path, { ...fields, idempotencyKey: hidden(html, "idempotencyKey") });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      const text = pageText(await res.text());
      expect(text, path).toMatch(message);
    }
  });

  it("shows a survey's score and a check-in's visitors after texts, in English and French", async () => {
    const [m1, m2] = members;
    await texts([m1.phone, "rate"], [m1.phone, "10"], [m1.phone, "Lovely staff"], [m2.phone, "RATE"], [m2.phone, "4"]);
    const survey = pageText(await (await client.get(`/viewcampaign?id=${ids["/customerexp"]}`)).text());
    expect(survey).toMatch(/Score\s*0\s*this month/);
    expect(survey).toContain("Lovely staff");
    expect(survey).toMatch(/Promoters \(9 or 10\)\s*1/);
    await texts([m1.phone, "IN"]);
    const visit = pageText(await (await client.get(`/viewcampaign?id=${ids["/checkin"]}`)).text());
    expect(visit).toMatch(/1 here now/);
    const fr = pageText(await (await client.get(`/viewcampaign?id=${ids["/checkin"]}&lng=fr`)).text());
    expect(fr).toMatch(/1 présent/);
    expect((await client.get(`/birthday?lng=fr`)).status).toBe(200);
    // The home feed has a panel for each: the survey's score this month, who is here, the birthdays planned.
    const home = pageText(await (await client.get("/?lng=en-GB")).text());
    expect(home).toMatch(/How did we do.*Score 0.*1 promoters, 0 passives, 1 detractors/);
    expect(home).toMatch(/Front door.*Here now\s*1/);
    expect(home).toMatch(/Birthdays.*Texts sent\s*0\s*Planned this month/);
  });
});
