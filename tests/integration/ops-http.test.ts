// The support chat and the operator console over HTTP, on SQLite and PostgreSQL: a user's chat both ways
// (the operator answers in the console, the user sees it), another business's chat is 404, markup stays
// text, a 10,000-character message and a burst are refused, a failing support service leaves the rest
// working; the console's own sign-in (a business session gets 404 there, an operator's session opens no
// business page), stopping a business (sessions end, login UA005) and lifting it, unlocking a login,
// admin access (a single-use link, audited, a notice for the business and the banner), and the audit log.
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser } from "../support/factories";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import { createOperator } from "~/domain/ops/operators.server";
import { createSession } from "~/domain/accounts/sessions.server";

const NEW_PASSWORD = "Console-pass-42";

async function businessClient(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

/** Posts a console form with the console's own form token. */
async function opsPost(client: TestClient, path: string, fields: Record<string, string>) {
  if (!client.cookies.has("tc_ops_csrf")) await client.get("/ops/login");
  return client.post(path, { ...fields, _csrf: client.cookies.get("tc_ops_csrf") ?? "" }, { csrf: false });
}

/** A signed-in operator who has replaced the one-time password. */
async function operatorClient(app: TestApp, email = `op-${Math.random().toString(36).slice(2)}@textcircle.test`) {
  const { password } = await createOperator(app.db, { email, name: "Olive Operator" }, new Date());
  const client = app.client();
  await client.get("/ops/login");
  const login = await opsPost(client, "/ops/login", { email, password, redirectTo: "/ops" });
  expect(login.status).toBe(302);
  expect(client.cookies.has("tc_ops")).toBe(true);
  // The one-time password must be changed before anything else opens.
  const first = await client.get("/ops");
  expect(first.status).toBe(302);
  expect(first.headers.get("location")).toBe("/ops/password");
  const changed = await opsPost(client, "/ops/password", { current: password, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
  expect(changed.status).toBe(302);
  return { client, email };
}

async function chatMessages(app: TestApp, businessId: number) {
  return app.db
    .selectFrom("support_messages")
    .innerJoin("support_sessions", "support_sessions.id", "support_messages.session_id")
    .select(["support_messages.sender", "support_messages.text", "support_messages.operator_id", "support_sessions.id as sessionId"])
    .where("support_sessions.business_id", "=", businessId)
    .orderBy("support_messages.id")
    .execute();
}

describe.each(DIALECTS)("support chat and operator console over HTTP (%s)", (dialect) => {
  // Always open, so no automatic reply gets in the way unless a test asks for one.
  const t = useTestApp({ dialect, env: { SUPPORT_DAYS: "1,2,3,4,5,6,7", SUPPORT_HOURS: "00:00-24:00" } });

  it("carries a chat both ways: the owner asks, an operator answers in the console, the owner sees it", async () => {
    const owner = await createAccount(t.app.db, { name: "Chatty Cafe" });
    const user = await businessClient(t.app, owner.id);
    expect((await user.get("/agentchat")).status).toBe(200);
    const sent = await user.post("/agentchat", { intent: "send", text: "How do I add members?" });
    expect(sent.status).toBe(302);
    const [first] = await chatMessages(t.app, owner.businessId);
    expect(first).toMatchObject({ sender: "USER", text: "How do I add members?" });

    const { client: op } = await operatorClient(t.app);
    const inbox = pageText(await (await op.get("/ops/support")).text());
    expect(inbox).toContain("Chatty Cafe");
    expect(inbox).toContain("Unread");
    const chatPage = await op.get(`/ops/support/${first.sessionId}`);
    expect(chatPage.status).toBe(200);
    expect(pageText(await chatPage.text())).toContain("How do I add members?");
    // Read: no longer unread.
    expect(pageText(await (await op.get("/ops/support?filter=unread")).text())).not.toContain("Chatty Cafe");

    expect((await opsPost(op, `/ops/support/${first.sessionId}`, { intent: "assign" })).status).toBe(302);
    expect(pageText(await (await op.get("/ops/support?filter=mine")).text())).toContain("Chatty Cafe");
    expect((await opsPost(op, `/ops/support/${first.sessionId}`, { intent: "reply", text: "Open Members, then Invite." })).status).toBe(302);

    // The owner sees the answer: on the page, through the API the page polls, and on the home feed.
    expect(pageText(await (await user.get("/agentchat")).text())).toContain("Open Members, then Invite.");
    const api = (await (await user.get("/api/support/messages?limit=1")).json()) as { messages: Array<{ text: string; sender: string }> };
    expect(api.messages[0]).toMatchObject({ text: "Open Members, then Invite.", sender: "AGENT" });
    const feed = (await (await user.get("/api/feed")).json()) as Array<{ type: string; messageText?: string; status?: string }>;
    expect(feed.find((i) => i.type === "CHATSESSION")).toMatchObject({ status: "OPEN", messageText: "Open Members, then Invite." });
    expect(pageText(await (await user.get("/")).text())).toContain("Open Members, then Invite.");

    // The transcript goes through the email outbox to the user's own address.
    expect((await user.post("/agentchat", { intent: "transcript", sessionId: String(first.sessionId) })).status).toBe(302);
    const email = await t.app.db.selectFrom("emails").select(["to_address", "kind", "text_body"]).where("business_id", "=", owner.businessId).executeTakeFirstOrThrow();
    expect(email).toMatchObject({ to_address: owner.email, kind: "support-transcript" });
    expect(email.text_body).toContain("How do I add members?");
    expect(email.text_body).toContain("Open Members, then Invite.");

    // Closing in the console: the owner's next message starts a new chat.
    expect((await opsPost(op, `/ops/support/${first.sessionId}`, { intent: "close" })).status).toBe(302);
    await user.post("/agentchat", { intent: "send", text: "One more thing" });
    const after = await chatMessages(t.app, owner.businessId);
    expect(after.at(-1)!.sessionId).not.toBe(first.sessionId);
    // The audit log has the operator's chat work.
    const actions = (await t.app.db.selectFrom("operator_audit").select("action").where("business_id", "=", owner.businessId).execute()).map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(["chat.assign", "chat.reply", "chat.close"]));
  });

  it("answers 404 for another business's chat, shows markup as text, refuses 10,000 characters and a burst", async () => {
    const a = await createAccount(t.app.db);
    const b = await createAccount(t.app.db);
    const ua = await businessClient(t.app, a.id);
    const ub = await businessClient(t.app, b.id);
    await ub.post("/agentchat", { intent: "send", text: "B's private question" });
    const [bMsg] = await chatMessages(t.app, b.businessId);
    const peek = await ua.get(`/agentchat?id=${bMsg.sessionId}`);
    expect(peek.status).toBe(404);
    expect(await peek.text()).not.toContain("private question");
    expect((await ua.post(`/agentchat`, { intent: "close", sessionId: String(bMsg.sessionId) })).status).toBe(404);
    expect((await ua.post(`/agentchat`, { intent: "transcript", sessionId: String(bMsg.sessionId) })).status).toBe(404);
    expect((await t.app.db.selectFrom("support_sessions").select("status").where("id", "=", bMsg.sessionId).executeTakeFirstOrThrow()).status).toBe("OPEN");

    const markup = `<script>alert("x")</script><b>bold</b>`;
    expect((await ua.post("/agentchat", { intent: "send", text: markup })).status).toBe(302);
    const html = await (await ua.get("/agentchat")).text();
    expect(html).not.toContain("<script>alert");
    expect(html).not.toContain("<b>bold</b>");
    expect(html).toContain("&lt;b&gt;bold&lt;/b&gt;");

    const long = await ua.post("/agentchat", { intent: "send", text: "x".repeat(10_000) });
    expect(long.status).toBe(400);
    expect(pageText(await long.text())).toContain("must be 5,000 characters or fewer");
    expect((await chatMessages(t.app, a.businessId)).some((m) => m.text.length > 5000)).toBe(false);

    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await ua.post("/agentchat", { intent: "send", text: `burst ${i}` })).status);
    expect(statuses.filter((s) => s === 302).length).toBeLessThanOrEqual(8);
    const limited = await ua.post("/agentchat", { intent: "send", text: "one too many" });
    expect(limited.status).toBe(429);
    expect(pageText(await limited.text())).toContain("You are sending messages very quickly");
    expect((await chatMessages(t.app, a.businessId)).some((m) => m.text === "one too many")).toBe(false);
  });

  it("says support is unavailable when the support service fails, and nothing else breaks", async () => {
    const a = await createAccount(t.app.db);
    const user = await businessClient(t.app, a.id);
    await user.post("/agentchat", { intent: "send", text: "Before the outage" });
    await sql`alter table support_sessions rename to support_sessions_down`.execute(t.app.db);
    try {
      const home = await user.get("/");
      expect(home.status).toBe(200);
      expect(pageText(await home.text())).toContain("Support is unavailable right now");
      const feed = await user.get("/api/feed");
      expect(feed.status).toBe(200);
      expect(((await feed.json()) as Array<{ type: string; status?: string }>).find((i) => i.type === "CHATSESSION")).toMatchObject({ status: "UNAVAILABLE" });
      const page = await user.get("/agentchat");
      expect(page.status).toBe(200);
      expect(pageText(await page.text())).toContain("Support is unavailable right now");
      const post = await user.post("/agentchat", { intent: "send", text: "During the outage" });
      expect(post.status).toBe(503);
      expect(pageText(await post.text())).toContain("Support is unavailable right now");
      const session = await user.get("/api/support/session");
      expect(session.status).toBe(500);
      expect(((await session.json()) as { responseCode: string }).responseCode).toBe("SE001");
      expect((await user.get("/mycommunity")).status).toBe(200);
      expect(t.app.serverErrors).toContain("the support channel is unavailable");
    } finally {
      await sql`alter table support_sessions_down rename to support_sessions`.execute(t.app.db);
    }
  });

  it("keeps the console apart: its own sign-in, 404 for a business session, no business pages for an operator", async () => {
    const owner = await createAccount(t.app.db);
    const business = await businessClient(t.app, owner.id);
    for (const path of ["/ops", "/ops/login", "/ops/support", "/ops/audit", `/ops/businesses/${owner.businessId}`]) {
      const res = await business.get(path);
      expect(res.status, path).toBe(404);
      expect(pageText(await res.text()), path).not.toContain("Operator");
    }
    expect((await opsPost(business, "/ops/login", { email: owner.email, password: owner.password })).status).toBe(404);
    // A business user's password does not open the console.
    const anon = t.app.client();
    expect((await anon.get("/ops")).headers.get("location")).toBe("/ops/login");
    const refused = await opsPost(anon, "/ops/login", { email: owner.email, password: owner.password });
    expect(refused.status).toBe(401);
    expect(anon.cookies.has("tc_ops")).toBe(false);

    const { client: op } = await operatorClient(t.app);
    expect((await op.get("/ops")).status).toBe(200);
    // The operator's session cookie signs nobody in to a business's pages or the API.
    const cookie = op.cookies.get("tc_ops")!;
    const home = await t.app.client().get("/", { Cookie: `tc_ops=${cookie}` });
    expect(home.status).toBe(302);
    expect(home.headers.get("location")).toBe("/login");
    expect((await t.app.client().request("/api/feed", { headers: { Authorization: `Bearer ${cookie}` } })).status).toBe(401);
    expect((await op.get("/mycommunity")).headers.get("location")).toContain("/login");
    // Console forms need the console's form token.
    expect((await op.post("/ops/replies", { intent: "create", title: "Hi", body: "Hello" }, { csrf: false })).status).toBe(403);
    for (const path of ["/ops/pipeline", "/ops/analytics", "/ops/analytics?days=7", "/ops/replies", "/ops/audit", "/ops/support?filter=closed", `/ops?q=${encodeURIComponent(owner.email)}`]) {
      expect((await op.get(path)).status, path).toBe(200);
    }
    expect(pageText(await (await op.get(`/ops?q=${encodeURIComponent(owner.email)}`)).text())).toContain("Trial");
    expect((await op.get("/ops/businesses/999999999")).status).toBe(404);
    expect((await op.get("/ops/support/999999999")).status).toBe(404);
  });

  it("suspends a business (sessions end, login UA005) and lifts it; unlocks a login; saved replies; all audited", async () => {
    const owner = await createAccount(t.app.db, { name: "Stoppable Shop" });
    const teammate = await createTeamUser(t.app.db, owner.businessId);
    const business = await businessClient(t.app, owner.id);
    expect((await business.get("/")).status).toBe(200);
    const { client: op, email: opEmail } = await operatorClient(t.app);

    expect((await opsPost(op, `/ops/businesses/${owner.businessId}`, { intent: "stop", kind: "SUSPENDED", reason: "Chargeback" })).status).toBe(302);
    expect((await t.app.db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", owner.businessId).executeTakeFirstOrThrow())).toEqual({ status: "SUSPENDED", held_status: "TRIAL" });
    expect((await business.get("/")).headers.get("location")).toBe("/login");
    const login = await t.app.client().post("/login", { email: owner.email, password: owner.password });
    expect(login.status).toBe(403);
    expect(pageText(await login.text())).toContain("This account has been disabled");
    const token = await t.app.client().json("/api/account/token", "POST", { email: owner.email, password: owner.password });
    expect(((await token.json()) as { responseCode: string }).responseCode).toBe("UA005");
    expect(pageText(await (await op.get("/ops?state=SUSPENDED")).text())).toContain("Stoppable Shop");

    expect((await opsPost(op, `/ops/businesses/${owner.businessId}`, { intent: "lift" })).status).toBe(302);
    expect((await t.app.db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", owner.businessId).executeTakeFirstOrThrow())).toEqual({ status: "TRIAL", held_status: null });
    expect((await t.app.client().post("/login", { email: owner.email, password: owner.password })).status).toBe(302);

    await t.app.db.updateTable("users").set({ locked_until: new Date(Date.now() + 600_000).toISOString(), failed_logins: 0 }).where("id", "=", teammate.id).execute();
    expect(pageText(await (await op.get("/ops?state=LOCKED")).text())).toContain("Stoppable Shop");
    expect((await t.app.client().post("/login", { email: teammate.email, password: teammate.password })).status).toBe(403);
    expect((await opsPost(op, `/ops/businesses/${owner.businessId}`, { intent: "unlock", userId: String(teammate.id) })).status).toBe(302);
    expect((await t.app.client().post("/login", { email: teammate.email, password: teammate.password })).status).toBe(302);
    // Another business's user cannot be unlocked through this business.
    const other = await createAccount(t.app.db);
    expect((await opsPost(op, `/ops/businesses/${owner.businessId}`, { intent: "unlock", userId: String(other.id) })).status).toBe(404);

    expect((await opsPost(op, "/ops/replies", { intent: "create", title: "Members", body: "Open Members, then Invite." })).status).toBe(302);
    const reply = await t.app.db.selectFrom("saved_replies").select("id").where("title", "=", "Members").executeTakeFirstOrThrow();
    expect((await opsPost(op, "/ops/replies", { intent: "update", id: String(reply.id), title: "Members", body: "Members > Invite." })).status).toBe(302);
    expect((await opsPost(op, "/ops/replies", { intent: "create", title: "", body: "" })).status).toBe(400);
    expect((await opsPost(op, "/ops/replies", { intent: "delete", id: String(reply.id) })).status).toBe(302);

    const log = await t.app.db.selectFrom("operator_audit").select(["action", "operator_email", "target", "detail"]).where("operator_email", "=", opEmail).orderBy("id").execute();
    expect(log.map((l) => l.action)).toEqual(["login", "password.change", "business.suspend", "business.lift", "user.unlock", "reply.create", "reply.update", "reply.delete"]);
    expect(log[2]).toMatchObject({ target: "TRIAL", detail: "Chargeback" });
    const auditPage = pageText(await (await op.get(`/ops/audit?business=${owner.businessId}`)).text());
    expect(auditPage).toContain("Suspended the business");
    expect(auditPage).toContain("Unlocked a login");
  });

  it("opens admin access from a button: a single-use link, audited, a notice for the business, and the banner", async () => {
    const owner = await createAccount(t.app.db, { name: "Visited Bakery" });
    const { client: op, email: opEmail } = await operatorClient(t.app);
    const res = await opsPost(op, `/ops/businesses/${owner.businessId}`, { intent: "adminAccess", userId: String(owner.id) });
    expect(res.status).toBe(200);
    const html = await res.text();
    const link = /https?:\/\/[^"<\s]+\/adminaccess\/([A-Za-z0-9_-]+)/.exec(html);
    expect(link).not.toBeNull();
    const entry = await t.app.db.selectFrom("operator_audit").select(["action", "target", "business_id"]).where("operator_email", "=", opEmail).where("action", "=", "adminaccess.open").executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ target: owner.email });
    expect(Number(entry.business_id)).toBe(owner.businessId);

    const visitor = t.app.client();
    const open = await visitor.get(`/adminaccess/${link![1]}`);
    expect(open.status).toBe(302);
    const home = pageText(await (await visitor.get("/")).text());
    expect(home).toContain("Admin access: signed in as Sam Tester");
    // The business's own people see a notice that support opened their account.
    const owners = await businessClient(t.app, owner.id);
    expect(pageText(await (await owners.get("/")).text())).toContain("Textcircle support opened your account");
    // Single use.
    expect((await t.app.client().get(`/adminaccess/${link![1]}`)).status).toBe(403);
  });
});
