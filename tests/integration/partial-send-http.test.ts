// Running out of credit in a group message, over HTTP with plain form posts (no JavaScript): the preview
// offers "send to the first N of M members" and "increase my plan first"; a plain send is refused (BR012) with
// nothing saved; the partial send charges exactly N credits once (a double submission sends nothing more), the
// first N members by id get the text, and the others are recorded and listed afterwards. Another business's
// message is a 404. With no credit at all only the increase is offered.
import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { DIALECTS } from "../support/db";
import { pageText, useTestApp } from "../support/server";

describe.each(DIALECTS)("group message with too little credit (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  async function signIn(credits: number) {
    const account = await createAccount(t.app.db, { trialCredits: credits });
    const client = t.app.client();
    await client.login(account.email, account.password);
    return { account, client };
  }

  async function draftToEveryone(client: ReturnType<typeof t.app.client>, text: string) {
    const res = await client.post("/newgroupmessage", { messageText: text, intent: "next" });
    const draftId = Number(/draft=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);
    await client.post(`/newgroupmessage/schedule?draft=${draftId}`, { draftId: String(draftId), groupId: "-1", sendMode: "NOW" });
    return draftId;
  }

  const messages = (businessId: number) => t.app.db.selectFrom("messages").selectAll().where("business_id", "=", businessId).where("kind", "=", "GROUP").execute();

  it("sends to the first members the credit covers, once, and lists the ones left out", async () => {
    const { account, client } = await signIn(5);
    const members = await seedMembers(t.app.db, account.businessId, 8, { firstName: (i) => `Member${i}` });
    const draftId = await draftToEveryone(client, "Open late tonight");

    const preview = await client.get(`/newgroupmessage/preview?draft=${draftId}`);
    const text = pageText(await preview.text());
    expect(text).toContain("This sends 8 texts and uses 8 credits.");
    expect(text).toContain("it needs 8 credits and you have 5 left");
    expect(text).toContain("Send to the first 5 of 8 members");
    expect(text).toContain("The 3 members left out are listed with the message afterwards");
    expect(text).toContain("Increase my plan first");

    // The plain send is refused: nothing saved, nothing charged.
    const refused = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId) });
    expect(refused.status).toBe(400);
    expect(pageText(await refused.text())).toMatch(/8 credits.*5/);
    expect(await messages(account.businessId)).toEqual([]);

    const first = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId), firstRecipients: "5" });
    const again = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId), firstRecipients: "5" });
    expect([first.status, again.status]).toEqual([302, 302]);
    const sent = await messages(account.businessId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ recipients: 5, credits: 5, left_out: 3 });
    const b = await t.app.db.selectFrom("businesses").select("trial_credits").where("id", "=", account.businessId).executeTakeFirstOrThrow();
    expect(b.trial_credits).toBe(0);
    const charges = await t.app.db.selectFrom("credit_ledger").select(["kind", "credits"]).where("business_id", "=", account.businessId).where("kind", "=", "CHARGE").execute();
    expect(charges).toEqual([{ kind: "CHARGE", credits: 5 }]);
    const ids = members.map((m) => Number(m.id)).sort((x, y) => x - y);
    const outbound = await t.app.db.selectFrom("outbound").select("member_id").where("message_id", "=", sent[0].id).orderBy("member_id").execute();
    expect(outbound.map((o) => Number(o.member_id))).toEqual(ids.slice(0, 5));
    const leftOut = await t.app.db.selectFrom("message_left_out").select("member_id").where("message_id", "=", sent[0].id).orderBy("member_id").execute();
    expect(leftOut.map((o) => Number(o.member_id))).toEqual(ids.slice(5));

    const list = await client.get("/groupmessages?groupId=-1");
    const listText = pageText(await list.text());
    expect(listText).toContain("Sent to 5: 3 members were left out because the credit ran out.");
    const page = await client.get(`/groupmessages/${sent[0].id}/leftout`);
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageText(pageHtml)).toContain("These 3 members did not get it because the credit ran out.");
    expect(pageHtml.match(/data-testid="left-out-member"/g)).toHaveLength(3);
    for (const i of [5, 6, 7]) expect(pageText(pageHtml)).toContain(`Member${i}`);

    // Another business never sees them.
    const other = await signIn(50);
    expect((await other.client.get(`/groupmessages/${sent[0].id}/leftout`)).status).toBe(404);
  });

  it("offers only to increase the plan when there is no credit at all", async () => {
    const { account, client } = await signIn(0);
    await seedMembers(t.app.db, account.businessId, 2);
    const draftId = await draftToEveryone(client, "Hello");
    const html = await (await client.get(`/newgroupmessage/preview?draft=${draftId}`)).text();
    expect(pageText(html)).toContain("You have no credit left for this text");
    expect(html).toContain('href="/changesubscription"');
    expect(html).not.toContain('name="firstRecipients"');
    // A forged partial send still charges nothing it cannot.
    const res = await client.post(`/newgroupmessage/preview?draft=${draftId}`, { draftId: String(draftId), firstRecipients: "1" });
    expect(res.status).toBe(400);
    expect(await messages(account.businessId)).toEqual([]);
  });
});
