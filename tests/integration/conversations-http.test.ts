// The DM screens over HTTP: inbox, thread (opening reads it), reply with double submission, bad input
// (empty, too long, control characters, markup, bad ids), pending/opted-out refusals, snooze, clear,
// the new-DM search and send, unread stats and /api/directmessages, and tenant isolation (404).
import { describe, expect, it } from "vitest";
import { createAccount } from "../support/factories";
import { seedMembers } from "../support/pipeline";
import { pageText, useTestApp } from "../support/server";
import type { Database } from "#db/index";

let seq = 0;

async function inbound(db: Database, businessId: number, member: { id: number; phone: string }, body: string, at = new Date()) {
  const biz = (await db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirstOrThrow()).phone_number!;
  await db
    .insertInto("inbound_messages")
    .values({ business_id: businessId, provider_id: `SMhttp${Date.now()}${++seq}`, from_number: member.phone, to_number: biz, body, received_at: at.toISOString(), processed_at: at.toISOString(), member_id: member.id, kind: "MESSAGE" })
    .execute();
  await db
    .insertInto("conversations")
    .values({ business_id: businessId, member_id: member.id, state: "UNREAD", last_message_at: at.toISOString(), unread_count: 1 })
    .onConflict((oc) => oc.columns(["business_id", "member_id"]).doUpdateSet((eb) => ({ state: "UNREAD", last_message_at: at.toISOString(), unread_count: eb(eb.ref("conversations.unread_count"), "+", 1) })))
    .execute();
}

describe("conversations over HTTP", () => {
  const t = useTestApp();

  async function signedIn() {
    const account = await createAccount(t.app.db, { trialCredits: 200 });
    const client = t.app.client();
    await client.login(account.email, account.password);
    const [alice, bob] = await seedMembers(t.app.db, account.businessId, 2);
    await t.app.db.updateTable("members").set({ full_name: "Alice Archer" }).where("id", "=", alice.id).execute();
    return { account, client, alice, bob };
  }
  async function stat(client: ReturnType<typeof t.app.client>, q: string) {
    const res = await client.get(`/api/stats?${q}`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { total: number }).total;
  }
  async function dmCount(businessId: number) {
    return Number((await t.app.db.selectFrom("messages").select((eb) => eb.fn.countAll().as("n")).where("business_id", "=", businessId).where("kind", "=", "DM").executeTakeFirstOrThrow()).n);
  }

  it("shows the inbox; opening the thread reads it and the unread numbers drop", async () => {
    const { account, client, alice } = await signedIn();
    await inbound(t.app.db, account.businessId, alice, "Do you have <b>gluten-free</b> bread? <script>alert(1)</script>");
    expect(await stat(client, "type=UNREADMESSAGESTOTAL")).toBe(1);
    expect(await stat(client, `type=UNREADMESSAGESSUBSCRIBERTOTAL&contactId=${alice.id}`)).toBe(1);
    const api = await client.get("/api/directmessages?filter=UNREAD");
    expect(((await api.json()) as Array<{ fullName: string }>).map((m) => m.fullName)).toEqual(["Alice Archer"]);

    const inbox = await client.get("/directmessages?tab=unread");
    expect(inbox.status).toBe(200);
    const inboxHtml = await inbox.text();
    expect(pageText(inboxHtml)).toContain("Alice Archer");
    expect(pageText(inboxHtml)).toContain("Unread (1)");
    expect(inboxHtml).not.toContain("<script>alert(1)</script>");

    const thread = await client.get(`/member/messages?id=${alice.id}`);
    expect(thread.status).toBe(200);
    const html = await thread.text();
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(pageText(html)).toContain("Received");
    expect(await stat(client, "type=UNREADMESSAGESTOTAL")).toBe(0);
    expect(await (await client.get("/api/directmessages?filter=UNREAD")).json()).toEqual([]);
    const home = pageText(await (await client.get("/")).text());
    expect(home).toContain("No unread messages");
    // Member info links to the member's messages (item 4).
    const info = await client.get(`/memberinfo?id=${alice.id}`);
    expect(info.status).toBe(200);
    expect(await info.text()).toContain(`href="/member/messages?id=${alice.id}"`);
  });

  it("replies once for a double submission; refuses empty, too long and control characters, keeping the text", async () => {
    const { account, client, alice } = await signedIn();
    await inbound(t.app.db, account.businessId, alice, "Hello?");
    const token = "tok_abcdefgh12345678";
    const first = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "Yes, we are open", token });
    expect(first.status).toBe(302);
    expect(first.headers.get("location")).toBe(`/member/messages?id=${alice.id}`);
    const second = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "Yes, we are open", token });
    expect(second.status).toBe(302);
    expect(await dmCount(account.businessId)).toBe(1);
    const thread = pageText(await (await client.get(`/member/messages?id=${alice.id}`)).text());
    expect(thread).toContain("Yes, we are open");
    expect(thread).toContain("Sending soon");

    const empty = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "   ", token: "tok_other12345678" });
    expect(empty.status).toBe(400);
    expect(pageText(await empty.text())).toContain("Your reply is required");
    const long = "x".repeat(1601);
    const tooLong = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: long, token: "tok_other12345678" });
    expect(tooLong.status).toBe(400);
    const tooLongHtml = await tooLong.text();
    expect(pageText(tooLongHtml)).toContain("at most 1600 characters");
    expect(tooLongHtml).toContain(long);
    const control = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "bad\u0007bell", token: "tok_other12345678" });
    expect(control.status).toBe(400);
    const huge = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "y".repeat(200_000), token: "tok_other12345678" });
    expect(huge.status).toBeLessThan(500);
    const sqlish = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "'; DROP TABLE members; --", token: "tok_sql123456789" });
    expect(sqlish.status).toBe(302);
    expect(await dmCount(account.businessId)).toBe(2);
    const badToken = await client.post(`/member/messages?id=${alice.id}`, { intent: "reply", text: "hi", token: "<x>" });
    expect(badToken.status).toBe(400);
    const badIntent = await client.post(`/member/messages?id=${alice.id}`, { intent: "explode" });
    expect(badIntent.status).toBe(400);
    expect(await dmCount(account.businessId)).toBe(2);
    expect(t.app.serverErrors).not.toMatch(/Error:/);
  });

  it("refuses replies to pending (BR027) and opted-out (BR039) members", async () => {
    const { account, client } = await signedIn();
    const [pending] = await seedMembers(t.app.db, account.businessId, 1, { status: "PENDING" });
    const [out] = await seedMembers(t.app.db, account.businessId, 1, { status: "OPTED_OUT" });
    const p = await client.post(`/member/messages?id=${pending.id}`, { intent: "reply", text: "Hi", token: "tok_pending1234" });
    expect(p.status).toBe(400);
    expect(pageText(await p.text())).toContain("cannot be sent direct messages");
    const o = await client.post(`/newdirectmessage?id=${out.id}`, { memberId: String(out.id), text: "Hi", token: "tok_optedout1234" });
    expect(o.status).toBe(400);
    expect(pageText(await o.text())).toContain("previously opted out");
    expect(await dmCount(account.businessId)).toBe(0);
  });

  it("snoozes (future UK time only), marks unread, clears", async () => {
    const { account, client, alice } = await signedIn();
    await inbound(t.app.db, account.businessId, alice, "Ping");
    const past = await client.post(`/member/messages?id=${alice.id}`, { intent: "snooze", until: "2020-01-01T10:00" });
    expect(past.status).toBe(400);
    expect(pageText(await past.text())).toContain("Choose a date and time in the future");
    const junk = await client.post(`/member/messages?id=${alice.id}`, { intent: "snooze", until: "next tuesday" });
    expect(junk.status).toBe(400);
    const next = new Date(Date.now() + 2 * 86400_000);
    const local = new Intl.DateTimeFormat("sv-SE", { timeZone: "Europe/London", dateStyle: "short", timeStyle: "short" }).format(next).replace(" ", "T");
    const ok = await client.post(`/member/messages?id=${alice.id}`, { intent: "snooze", until: local });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/directmessages");
    const row = await t.app.db.selectFrom("conversations").select(["state", "snoozed_until"]).where("member_id", "=", alice.id).executeTakeFirstOrThrow();
    expect(row.state).toBe("SNOOZED");
    expect(Math.abs(new Date(row.snoozed_until!).getTime() - next.getTime())).toBeLessThan(61_000);
    expect(pageText(await (await client.get("/directmessages?tab=snoozed")).text())).toContain("Alice Archer");

    expect((await client.post(`/member/messages?id=${alice.id}`, { intent: "unread" })).status).toBe(302);
    expect(await stat(client, "type=UNREADMESSAGESTOTAL")).toBe(1);
    expect((await client.post(`/member/messages?id=${alice.id}`, { intent: "clear" })).status).toBe(302);
    const cleared = await t.app.db.selectFrom("conversations").select("state").where("member_id", "=", alice.id).executeTakeFirstOrThrow();
    expect(cleared.state).toBe("INACTIVE");
    expect(pageText(await (await client.get("/directmessages")).text())).not.toContain("Alice Archer");
  });

  it("finds a member to write to, with and without a search, and sends to the thread", async () => {
    const { account, client, alice, bob } = await signedIn();
    const all = pageText(await (await client.get("/newdirectmessage")).text());
    expect(all).toContain("Alice Archer");
    const foundHtml = await (await client.get("/newdirectmessage?q=archer")).text();
    expect(pageText(foundHtml)).toContain("Alice Archer");
    expect(foundHtml).toContain(`data-member-id="${alice.id}"`);
    expect(foundHtml).not.toContain(`data-member-id="${bob.id}"`);
    const none = pageText(await (await client.get(`/newdirectmessage?q=${encodeURIComponent("'; select *")}`)).text());
    expect(none).toContain("No subscribed members match.");
    const form = await client.get(`/newdirectmessage?id=${alice.id}`);
    const formHtml = await form.text();
    const token = /name="token" value="([^"]+)"/.exec(formHtml)?.[1];
    expect(token).toBeTruthy();
    const res = await client.post("/newdirectmessage", { memberId: String(alice.id), text: "Your order is ready, {{firstName}}", token: token! });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/member/messages?id=${alice.id}`);
    const again = await client.post("/newdirectmessage", { memberId: String(alice.id), text: "Your order is ready, {{firstName}}", token: token! });
    expect(again.status).toBe(302);
    expect(await dmCount(account.businessId)).toBe(1);
    const out = await t.app.db.selectFrom("outbound").select(["body", "to_phone"]).where("business_id", "=", account.businessId).execute();
    expect(out).toEqual([{ body: "Your order is ready, Member0", to_phone: alice.phone }]);
    expect(pageText(await (await client.get("/directmessages")).text())).toContain("You: Your order is ready, Member0");
  });

  it("answers 404 for another business's member on every route, and for bad ids", async () => {
    const { client, account } = await signedIn();
    const other = await createAccount(t.app.db);
    const [theirs] = await seedMembers(t.app.db, other.businessId, 1);
    await inbound(t.app.db, other.businessId, theirs, "Private");
    expect((await client.get(`/member/messages?id=${theirs.id}`)).status).toBe(404);
    for (const intent of ["read", "unread", "clear"]) expect((await client.post(`/member/messages?id=${theirs.id}`, { intent })).status).toBe(404);
    expect((await client.post(`/member/messages?id=${theirs.id}`, { intent: "reply", text: "Hi", token: "tok_tenant12345" })).status).toBe(404);
    expect((await client.post(`/member/messages?id=${theirs.id}`, { intent: "snooze", until: "2099-01-01T10:00" })).status).toBe(404);
    expect((await client.get(`/newdirectmessage?id=${theirs.id}`)).status).toBe(404);
    expect((await client.post("/newdirectmessage", { memberId: String(theirs.id), text: "Hi", token: "tok_tenant22345" })).status).toBe(404);
    for (const bad of ["abc", "-1", "1e5", "99999999999999999999", ""]) expect((await client.get(`/member/messages?id=${encodeURIComponent(bad)}`)).status).toBe(404);
    const bare = await client.get("/member/messages");
    expect([bare.status, bare.headers.get("location")]).toEqual([302, "/directmessages"]);
    expect((await client.get("/directmessages?tab=nonsense&before=garbage")).status).toBe(200);
    expect(await stat(client, `type=UNREADMESSAGESSUBSCRIBERTOTAL&contactId=${theirs.id}`).catch(() => -1)).not.toBe(1);
    const untouched = await t.app.db.selectFrom("conversations").select("state").where("member_id", "=", theirs.id).executeTakeFirstOrThrow();
    expect(untouched.state).toBe("UNREAD");
    expect(await dmCount(other.businessId)).toBe(0);
    void account;
  });
});
