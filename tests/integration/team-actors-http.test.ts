// Who did it, over HTTP on both databases: a team member's direct message, group message, campaign and invited
// member record them as theirs; the Administrator's edit, end and delete record the Administrator; the pages show
// it ("sent by", "edited by", "created by", "ended by", "added by"), also after the team member is removed.
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser, ukMobile } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import { createSession } from "~/domain/accounts/sessions.server";
import { removeTeamMember } from "~/domain/accounts/team.server";
import { parseUkMobile } from "~/lib/phone";
import { utcToUkDateTime } from "~/lib/uk-time";

async function clientFor(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

function hidden(html: string, name: string): string {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html) ?? new RegExp(`value="([^"]*)" name="${name}"`).exec(html);
  if (!m) throw new Error(`no ${name} field in the page`);
  return m[1];
}

const inDays = (days: number) => utcToUkDateTime(new Date(Date.now() + days * 86_400_000));

describe.each(DIALECTS)("who did it (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  async function setUp() {
    const owner = await createAccount(t.app.db, { messageAllowance: 1000 });
    await t.app.db.updateTable("users").set({ name: "Olive Owner" }).where("id", "=", owner.id).execute();
    const terry = await createTeamUser(t.app.db, owner.businessId, { name: "Terry Team" });
    return { owner, terry, admin: await clientFor(t.app, owner.id), team: await clientFor(t.app, terry.id) };
  }

  it("shows who sent a direct message and who wrote and edited a group message; a deletion is in the audit trail", async () => {
    const { owner, terry, admin, team } = await setUp();
    const [alice] = await seedMembers(t.app.db, owner.businessId, 3);
    const reply = await team.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "See you at ten", token: "tok_actor12345678ab" });
    expect(reply.status).toBe(302);
    const dm = await t.app.db.selectFrom("messages").select("created_by").where("business_id", "=", owner.businessId).where("kind", "=", "DM").executeTakeFirstOrThrow();
    expect(Number(dm.created_by)).toBe(terry.id);
    expect(pageText(await (await admin.get(`/member/messages?id=${alice.id}`)).text())).toContain("sent by Terry Team");

    // The team member writes a group message, the Administrator edits it during its pause.
    let res = await team.post("/newgroupmessage", { messageText: "Cakes half price today", intent: "next" });
    const draftId = /draft=(\d+)/.exec(res.headers.get("location") ?? "")![1];
    await team.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId, groupId: "-1", sendMode: "NOW" });
    res = await team.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId });
    expect(res.status).toBe(302);
    const gm = await t.app.db.selectFrom("messages").select(["id", "created_by"]).where("business_id", "=", owner.businessId).where("kind", "=", "GROUP").executeTakeFirstOrThrow();
    expect(Number(gm.created_by)).toBe(terry.id);
    expect((await admin.post(`/groupmessages/${gm.id}/edit`, { messageText: "Cakes half price all day", sendMode: "NOW" })).status).toBe(302);
    const edited = await t.app.db.selectFrom("messages").select("updated_by").where("id", "=", gm.id).executeTakeFirstOrThrow();
    expect(Number(edited.updated_by)).toBe(owner.id);
    expect(pageText(await (await admin.get("/allgroupmessages")).text())).toContain("sent by Terry Team · edited by Olive Owner");
    expect(pageText(await (await team.get(`/groupmessages/${gm.id}/edit`)).text())).toContain("sent by Terry Team · edited by Olive Owner");

    // Removed from the team: their name stays on what they did.
    await removeTeamMember(t.app.db, { businessId: owner.businessId, actorId: owner.id, userId: terry.id }, new Date());
    expect(pageText(await (await admin.get(`/member/messages?id=${alice.id}`)).text())).toContain("sent by Terry Team");

    expect((await admin.post(`/groupmessages/${gm.id}/delete`, {})).status).toBe(302);
    const audit = await t.app.db.selectFrom("audit_events").select(["action", "user_id", "subject_id"]).where("business_id", "=", owner.businessId).where("action", "=", "group-message.deleted").execute();
    expect(audit).toHaveLength(1);
    expect([Number(audit[0].user_id), Number(audit[0].subject_id)]).toEqual([owner.id, Number(gm.id)]);
  });

  it("shows who created, edited and ended a campaign", async () => {
    const { owner, terry, admin, team } = await setUp();
    await seedMembers(t.app.db, owner.businessId, 2);
    const later = inDays(2);
    const close = inDays(7);
    const poll = {
      name: "Friday lunch",
      messageText: "What shall we have on Friday?",
      contactGroupId: "-1",
      issueMode: "LATER",
      issueDate: later.date,
      issueTime: later.time,
      closeDate: close.date,
      closeTime: close.time,
      "responseOptions[0]": "Pizza",
      "responseOptions[1]": "Curry",
    };
    const key = hidden(await (await team.get("/quickpoll")).text(), "idempotencyKey");
    const created = await team.post("/quickpoll", { idempotencyKey: key, ...poll });
    expect(created.status).toBe(302);
    const id = /id=(\d+)/.exec(created.headers.get("location") ?? "")![1];
    const edited = await admin.post(`/quickpoll?id=${id}`, { idempotencyKey: key, ...poll, name: "Friday lunch vote" });
    expect(edited.status).toBe(302);
    expect((await admin.post(`/viewcampaign?id=${id}`, { intent: "end" })).status).toBe(302);
    const row = await t.app.db.selectFrom("campaigns").select(["created_by", "updated_by", "ended_by", "status"]).where("id", "=", Number(id)).executeTakeFirstOrThrow();
    expect([Number(row.created_by), Number(row.updated_by), Number(row.ended_by), row.status]).toEqual([terry.id, owner.id, owner.id, "ENDED"]);
    const page = pageText(await (await team.get(`/viewcampaign?id=${id}`)).text());
    expect(page).toContain("created by Terry Team");
    expect(page).toContain("edited by Olive Owner");
    expect(page).toContain("ended by Olive Owner");
    expect(pageText(await (await team.get(`/viewcampaign?id=${id}&lng=fr`)).text())).toContain("créée par Terry Team");
  });

  it("shows who added a member by hand and who last edited them", async () => {
    const { owner, terry, admin, team } = await setUp();
    let phone = ukMobile();
    while (!parseUkMobile(phone)) phone = ukMobile();
    expect((await team.post("/invitemember", { phone })).status).toBe(302);
    const member = await t.app.db.selectFrom("members").select(["id", "created_by", "updated_by"]).where("business_id", "=", owner.businessId).where("phone", "=", phone).executeTakeFirstOrThrow();
    expect(Number(member.created_by)).toBe(terry.id);
    expect(pageText(await (await admin.get(`/memberinfo/${member.id}`)).text())).toContain("added by Terry Team");
    expect((await admin.post(`/memberinfo/${member.id}`, { phone, firstName: "Jo", fullName: "Jo Bloggs" })).status).toBe(302);
    const after = await t.app.db.selectFrom("members").select(["created_by", "updated_by"]).where("id", "=", member.id).executeTakeFirstOrThrow();
    expect([Number(after.created_by), Number(after.updated_by)]).toEqual([terry.id, owner.id]);
    const page = pageText(await (await team.get(`/memberinfo/${member.id}`)).text());
    expect(page).toContain("added by Terry Team");
    expect(page).toContain("edited by Olive Owner");
  });
});
