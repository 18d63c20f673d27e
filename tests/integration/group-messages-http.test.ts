// Group message pages over HTTP (JS off: real form posts): each step with bad input, 404 for other
// businesses' drafts, groups and messages, double submission -> one message, nothing charged on error.
import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp } from "../support/server";

describe("group message pages", () => {
  const t = useTestApp();

  async function signIn(overrides: Parameters<typeof createAccount>[1] = {}) {
    const account = await createAccount(t.app.db, { messageAllowance: 1000, ...overrides });
    const client = t.app.client();
    await client.login(account.email, account.password);
    return { account, client };
  }

  const draftOf = (res: Response) => Number(/draft=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);

  async function messages(businessId: number) {
    return t.app.db.selectFrom("messages").selectAll().where("business_id", "=", businessId).where("kind", "=", "GROUP").execute();
  }

  it("composes, schedules, previews and sends once; the list and the feed show it", async () => {
    const { account, client } = await signIn();
    const members = await seedMembers(t.app.db, account.businessId, 3, { firstName: (i) => `Ann${i}` });
    let res = await client.get("/newgroupmessage");
    expect(res.status).toBe(200);
    expect(pageText(await res.text())).toContain("Write what your members will get");

    // Without JavaScript the replace button changes the text on the server.
    res = await client.post("/newgroupmessage", { messageText: "\u201CHi\u201D \u2013 ", intent: "replace" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("&quot;Hi&quot; - </textarea>");
    // The merge-tag picker lists every tag to type (no JavaScript), the business's own attributes too.
    await t.app.db
      .insertInto("attributes")
      .values({ business_id: account.businessId, key: "favouriteCake", name: "Favourite cake", type: "TEXT", show_on_form: 0, member_can_edit: 0, mandatory: 0, position: 1, created_at: new Date().toISOString() })
      .execute();
    const composeText = pageText(await (await client.get("/newgroupmessage")).text());
    for (const [label, tag] of [["First name", "firstName"], ["Business number", "businessNumber"], ["Member form link", "memberFormLink"], ["Favourite cake", "attr.favouriteCake"]]) {
      expect(composeText).toMatch(new RegExp(`${label}\\s*:\\s*\\{\\{${tag.replace(".", "\\.")}\\}\\}`));
    }

    res = await client.post("/newgroupmessage", { messageText: "Hi {{firstName}}, 10% off today", intent: "next" });
    expect(res.status).toBe(302);
    const draftId = draftOf(res);
    expect(res.headers.get("location")).toBe(`/newgroupmessage/schedule?draft=${draftId}`);
    res = await client.get(`/newgroupmessage/schedule?draft=${draftId}`);
    expect(pageText(await res.text())).toContain("All subscribers (3 members)");
    res = await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "NOW" });
    expect(res.headers.get("location")).toBe(`/newgroupmessage/preview?draft=${draftId}`);

    res = await client.get(`/newgroupmessage/preview?draft=${draftId}&memberId=${members[1].id}`);
    const html = await res.text();
    expect(pageText(html)).toContain("This sends 3 texts and uses 3 credits.");
    expect(html).toMatch(/data-testid="rendered">Hi Ann1, 10% off today\nReply STOP to opt out</);

    const first = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId) });
    const second = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId) });
    expect([first.status, second.status]).toEqual([302, 302]);
    expect(first.headers.get("location")).toBe("/groupmessages?groupId=-1");
    const sent = await messages(account.businessId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ recipients: 3, credits: 3, status: "SENDING_SOON" });
    const b = await t.app.db.selectFrom("businesses").select("allowance_used").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(Number(b.allowance_used)).toBe(3);

    const list = pageText(await (await client.get("/groupmessages?groupId=-1")).text());
    expect(list).toContain("Messages to All subscribers");
    expect(list).toContain(", 10% off today");
    expect(list).toContain("Sending soon");
    expect(pageText(await (await client.get("/allgroupmessages")).text())).toContain(", 10% off today");
    const home = pageText(await (await client.get("/")).text());
    expect(home).toContain("Group message to All subscribers");
    expect(home).toMatch(/Sending soon to 3 members/);
  });

  it("rejects empty and too long text, a past time and an empty group, keeping the values and saving nothing", async () => {
    const { account, client } = await signIn();
    let res = await client.post("/newgroupmessage", { messageText: "   ", intent: "next" });
    expect(res.status).toBe(400);
    expect(pageText(await res.text())).toContain("Message text is required");
    res = await client.post("/newgroupmessage", { messageText: "y".repeat(1601), intent: "next" });
    expect(res.status).toBe(400);
    const body = await res.text();
    expect(pageText(body)).toContain("Message text must be 1,600 characters or fewer");
    expect(body).toContain("y".repeat(1601));
    res = await client.post("/newgroupmessage", { messageText: "<script>alert(1)</script>'; DROP TABLE members;--".repeat(2), intent: "next" });
    expect(res.status).toBe(302); // plain text is fine: it is stored and shown escaped
    const draftId = draftOf(res);
    expect((await (await client.get(`/newgroupmessage?draft=${draftId}`)).text())).toContain("&lt;script&gt;");
    expect(await t.app.db.selectFrom("group_message_drafts").selectAll().where("business_id", "=", account.businessId).execute()).toHaveLength(1);

    res = await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "LATER", sendDate: "2020-01-01", sendTime: "10:00" });
    expect(res.status).toBe(400);
    expect(pageText(await res.text())).toContain("Choose a date and time in the future");
    res = await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "LATER", sendDate: "not-a-date", sendTime: "99:99" });
    expect(res.status).toBe(400);
    // No subscribers yet: BR026.
    res = await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "NOW" });
    expect(res.status).toBe(400);
    expect(pageText(await res.text())).toContain("This group has no members yet.");
    expect(await messages(account.businessId)).toEqual([]);
  });

  it("answers 404 for another business's draft, group and message", async () => {
    const { account, client } = await signIn();
    await seedMembers(t.app.db, account.businessId, 1);
    const other = await createAccount(t.app.db, { messageAllowance: 100 });
    const at = new Date().toISOString();
    const theirGroup = await t.app.db.insertInto("groups").values({ business_id: other.businessId, name: "Theirs", type: "LIST", filter: null, created_at: at, updated_at: at }).returning("id").executeTakeFirstOrThrow();
    const theirDraft = await t.app.db
      .insertInto("group_message_drafts")
      .values({ business_id: other.businessId, user_id: other.id, body: "secret", group_id: -1, send_mode: "NOW", send_at: null, token: "tok-other", message_id: null, created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (const path of [`/newgroupmessage?draft=${theirDraft.id}`, `/newgroupmessage/schedule?draft=${theirDraft.id}`, `/newgroupmessage/preview?draft=${theirDraft.id}`, `/groupmessages?groupId=${theirGroup.id}`, "/groupmessages?groupId=abc"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(await res.text()).not.toContain("secret");
    }
    let res = await client.post(`/newgroupmessage/preview?draft=${theirDraft.id}`, { draftId: String(theirDraft.id) });
    expect(res.status).toBe(404);
    res = await client.post("/newgroupmessage", { messageText: "Mine", intent: "next" });
    const mine = draftOf(res);
    res = await client.post(`/newgroupmessage/schedule?draft=${mine}`, { draftId: String(mine), groupId: String(theirGroup.id), sendMode: "NOW" });
    expect(res.status).toBe(404);
    // Their message cannot be seen, changed or deleted.
    const theirMsg = await t.app.db
      .insertInto("messages")
      .values({ business_id: other.businessId, kind: "GROUP", body: "secret", group_id: -1, member_id: null, status: "SCHEDULED", send_at: at, editable_until: new Date(Date.now() + 86_400_000).toISOString(), created_by: null, created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    expect((await client.get(`/groupmessages/${theirMsg.id}/edit`)).status).toBe(404);
    expect((await client.post(`/groupmessages/${theirMsg.id}/delete`, {})).status).toBe(404);
    expect((await client.post(`/groupmessages/${theirMsg.id}/edit`, { messageText: "x", sendMode: "NOW" })).status).toBe(404);
    expect(await t.app.db.selectFrom("messages").select("id").where("id", "=", theirMsg.id).execute()).toHaveLength(1);
  });

  it("refuses a send the credit cannot cover (BR012), charging nothing", async () => {
    const { account, client } = await signIn({ messageAllowance: 0, trialCredits: 1 });
    await seedMembers(t.app.db, account.businessId, 2);
    let res = await client.post("/newgroupmessage", { messageText: "Hello", intent: "next" });
    const draftId = draftOf(res);
    await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "NOW" });
    expect(pageText(await (await client.get(`/newgroupmessage/preview?draft=${draftId}`)).text())).toContain("it needs 2 credits and you have 1 left");
    res = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId) });
    expect(res.status).toBe(400);
    expect(pageText(await res.text())).toContain("this needs 2 credits and you have 1 left");
    expect(await messages(account.businessId)).toEqual([]);
    const b = await t.app.db.selectFrom("businesses").select("trial_credits").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(Number(b.trial_credits)).toBe(1);
  });

  it("edits a scheduled message and deletes it with a refund", async () => {
    const { account, client } = await signIn();
    await seedMembers(t.app.db, account.businessId, 2);
    let res = await client.post("/newgroupmessage", { messageText: "Quiz night", intent: "next" });
    const draftId = draftOf(res);
    await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "LATER", sendDate: "2099-06-01", sendTime: "18:30" });
    await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId) });
    const [msg] = await messages(account.businessId);
    expect(msg).toMatchObject({ status: "SCHEDULED", send_at: "2099-06-01T17:30:00.000Z" });
    res = await client.post(`/groupmessages/${msg.id}/edit`, { messageText: "", sendMode: "LATER", sendDate: "2099-06-01", sendTime: "18:30" });
    expect(res.status).toBe(400);
    res = await client.post(`/groupmessages/${msg.id}/edit`, { messageText: "Quiz night moved", sendMode: "LATER", sendDate: "2099-06-02", sendTime: "19:00" });
    expect(res.status).toBe(302);
    expect((await messages(account.businessId))[0]).toMatchObject({ body: "Quiz night moved\nReply STOP to opt out", send_at: "2099-06-02T18:00:00.000Z" });
    expect(pageText(await (await client.get(`/groupmessages/${msg.id}/delete`)).text())).toContain("its 2 credits come back to you");
    res = await client.post(`/groupmessages/${msg.id}/delete`, {});
    expect(res.status).toBe(302);
    expect(await messages(account.businessId)).toEqual([]);
    const b = await t.app.db.selectFrom("businesses").select("allowance_used").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(Number(b.allowance_used)).toBe(0);
  });
});
