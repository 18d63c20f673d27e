// HTTP, on both databases: the Administrator invites by email and text on /manageteam (BR045 shown on the field),
// the invitee creates their login at /createaccount/{code} with a texted PIN and lands signed in on home as a team
// member; used, revoked, expired and unknown codes show the invalid-invitation page; removing a member signs them
// out at once; the Administrator role is handed over; a team member gets FB001 on every team action, and another
// business's invitation and user ids are not found.
import { describe, expect, it } from "vitest";
import type { Database } from "#db/index";
import { DIALECTS } from "../support/db";
import { createAccount, createTeamUser, ukMobile as baseMobile } from "../support/factories";
import { deliverQueued } from "../support/pipeline";
import { pageText, useTestApp, type TestApp, type TestClient } from "../support/server";
import { parseUkMobile } from "~/lib/phone";
import { createSession } from "~/domain/accounts/sessions.server";

const FORBIDDEN = "Only your account administrator can do this";
const INVALID = "This invitation link is invalid or has expired";

function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}
const national = (e164: string) => `0${e164.slice(3, 7)} ${e164.slice(7)}`;
let n = 0;
const newEmail = () => `invitee-${Date.now().toString(36)}-${++n}@example.test`;

async function clientFor(app: TestApp, userId: number): Promise<TestClient> {
  const client = app.client();
  const { token } = await createSession(app.db, userId, "WEB", new Date());
  client.cookies.set("tc_session", token);
  return client;
}

async function inviteCodeFromEmail(db: Database, to: string): Promise<string> {
  const row = await db.selectFrom("emails").select("text_body").where("to_address", "=", to).orderBy("id", "desc").executeTakeFirstOrThrow();
  return /\/createaccount\/([A-Za-z0-9_-]+)/.exec(row.text_body)![1];
}

async function latestCode(db: Database, phone: string): Promise<string> {
  await deliverQueued(db);
  const row = await db.selectFrom("sim_messages").select("body").where("phone", "=", phone).orderBy("id", "desc").executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(row.body)![1];
}

describe.each(DIALECTS)("team over HTTP (%s)", (dialect) => {
  const t = useTestApp({ dialect });

  async function account() {
    const owner = await createAccount(t.app.db, { trialCredits: 100 });
    const admin = await clientFor(t.app, owner.id);
    return { owner, admin };
  }

  it("invites by email; the invitee creates a login with a texted PIN and lands on home as a team member", async () => {
    const { owner, admin } = await account();
    const to = newEmail();
    const sent = await admin.post("/manageteam", { intent: "invite-email", email: to });
    expect(sent.status).toBe(302);
    const list = pageText(await (await admin.get("/manageteam")).text());
    expect(list).toContain("Open invitations");
    expect(list).toContain(to);
    // A second invitation to the same person: BR045 beside the field, nothing sent.
    const again = await admin.post("/manageteam", { intent: "invite-email", email: to });
    expect(again.status).toBe(409);
    expect(pageText(await again.text())).toContain("An invitation has already been sent to this person.");
    expect(await t.app.db.selectFrom("emails").select("id").where("to_address", "=", to).execute()).toHaveLength(1);

    const code = await inviteCodeFromEmail(t.app.db, to);
    const invitee = t.app.client();
    const form = await invitee.get(`/createaccount/${code}`);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(pageText(html)).toContain("Join ");
    expect(html).toContain(`value="${to}"`);

    // Bad input: a 400 with the errors, nothing kept.
    const bad = await invitee.post(`/createaccount/${code}`, { name: "", email: to, mobile: "12", password: "weak", confirmPassword: "weak" });
    expect(bad.status).toBe(400);
    const mobile = ukMobile();
    const started = await invitee.post(`/createaccount/${code}`, { name: "Sam Helper", email: to, mobile: national(mobile), password: "Sunny-day-42", confirmPassword: "Sunny-day-42" });
    expect(started.status).toBe(302);
    expect(started.headers.get("location")).toBe(`/createaccount/${code}/verify`);
    expect(pageText(await (await invitee.get(`/createaccount/${code}/verify`)).text())).toContain("We have texted a 6-digit code");
    const pin = await latestCode(t.app.db, mobile);
    const wrong = await invitee.post(`/createaccount/${code}/verify`, { code: pin === "000000" ? "111111" : "000000" });
    expect(wrong.status).toBe(400);
    const done = await invitee.post(`/createaccount/${code}/verify`, { code: pin });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(invitee.cookies.get("tc_session")).toBeTruthy();
    expect((await invitee.get("/")).status).toBe(200);
    const me = (await (await invitee.get("/api/account/users/current")).json()) as { name: string };
    expect(me.name).toBe("Sam Helper");
    // A team member: the team page and the subscription change are refused.
    expect((await invitee.get("/manageteam")).status).toBe(403);
    expect((await invitee.get("/changesubscription")).status).toBe(403);
    // The Administrator sees them on the team and no open invitation.
    const after = pageText(await (await admin.get("/manageteam")).text());
    expect(after).toContain("Sam Helper");
    expect(after).toContain("No invitations are waiting to be used.");
    const user = await t.app.db.selectFrom("users").select(["business_id", "role"]).where("email", "=", to).executeTakeFirstOrThrow();
    expect([Number(user.business_id), user.role]).toEqual([owner.businessId, "TEAM"]);

    // The link is single use.
    const used = await t.app.client().get(`/createaccount/${code}`);
    expect(used.status).toBe(404);
    expect(pageText(await used.text())).toContain(INVALID);
  });

  it("shows the invalid-invitation page for unknown, revoked, resent-over and expired codes (GET and POST)", async () => {
    const { owner, admin } = await account();
    for (const code of ["nope", "A".repeat(32), "x".repeat(300)]) {
      const res = await t.app.client().get(`/createaccount/${code}`);
      expect(res.status, code).toBe(404);
      expect(pageText(await res.text())).toContain(INVALID);
    }
    const fr = await t.app.client().get(`/createaccount/${"B".repeat(32)}?lng=fr`);
    expect(pageText(await fr.text())).toContain("Ce lien d’invitation n’est pas valide ou a expiré");

    const to = newEmail();
    await admin.post("/manageteam", { intent: "invite-email", email: to });
    const first = await inviteCodeFromEmail(t.app.db, to);
    const invite = await t.app.db.selectFrom("team_invites").select("id").where("business_id", "=", owner.businessId).executeTakeFirstOrThrow();
    expect((await admin.post("/manageteam", { intent: "resend", id: String(invite.id) })).status).toBe(302);
    const second = await inviteCodeFromEmail(t.app.db, to);
    expect(second).not.toBe(first);
    expect((await t.app.client().get(`/createaccount/${first}`)).status).toBe(404);
    expect((await t.app.client().get(`/createaccount/${second}`)).status).toBe(200);

    // Expired: the page says so, and posting changes nothing.
    await t.app.db.updateTable("team_invites").set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where("id", "=", invite.id).execute();
    expect((await t.app.client().get(`/createaccount/${second}`)).status).toBe(404);
    const late = await t.app.client().post(`/createaccount/${second}`, { name: "Late", email: to, mobile: national(ukMobile()), password: "Sunny-day-42", confirmPassword: "Sunny-day-42" });
    expect(late.status).toBe(404);
    expect(pageText(await late.text())).toContain(INVALID);
    expect(pageText(await (await admin.get("/manageteam")).text())).toContain("Expired");

    // Revoked.
    expect((await admin.post("/manageteam", { intent: "resend", id: String(invite.id) })).status).toBe(302);
    const third = await inviteCodeFromEmail(t.app.db, to);
    expect((await t.app.client().get(`/createaccount/${third}`)).status).toBe(200);
    expect((await admin.post("/manageteam", { intent: "revoke", id: String(invite.id) })).status).toBe(302);
    expect((await t.app.client().get(`/createaccount/${third}/verify`)).status).toBe(404);
    expect((await t.app.client().get(`/createaccount/${third}`)).status).toBe(404);
  });

  it("speaks French on the team page and the invitation pages, with no key left untranslated", async () => {
    const { owner, admin } = await account();
    await createTeamUser(t.app.db, owner.businessId, { name: "Camille Equipe" });
    const to = newEmail();
    await admin.post("/manageteam?lng=fr", { intent: "invite-email", email: to });
    const page = pageText(await (await admin.get("/manageteam?lng=fr")).text());
    for (const words of ["Inviter un membre de l’équipe", "Invitations en attente", "Dernière connexion", "Nommer administrateur", "Renvoyer"]) expect(page).toContain(words);
    expect(page).not.toMatch(/\bteam\.[a-z]+\.[a-zA-Z]+/);
    const code = await inviteCodeFromEmail(t.app.db, to);
    const join = pageText(await (await t.app.client().get(`/createaccount/${code}?lng=fr`)).text());
    expect(join).toContain("Rejoindre ");
    expect(join).not.toMatch(/\bteam\.[a-z]+\.[a-zA-Z]+/);
  });

  it("invites by text: the link arrives from the system sender, and the mobile is prefilled", async () => {
    const { admin } = await account();
    const mobile = ukMobile();
    const bad = await admin.post("/manageteam", { intent: "invite-sms", mobile: "0800 123" });
    expect(bad.status).toBe(400);
    expect((await admin.post("/manageteam", { intent: "invite-sms", mobile: national(mobile) })).status).toBe(302);
    await deliverQueued(t.app.db);
    const text = await t.app.db.selectFrom("sim_messages").select(["body", "business_number"]).where("phone", "=", mobile).executeTakeFirstOrThrow();
    expect(text.business_number).toBe("+447700900000");
    const code = /\/createaccount\/([A-Za-z0-9_-]+)/.exec(text.body)![1];
    const html = await (await t.app.client().get(`/createaccount/${code}`)).text();
    expect(html).toContain(`value="${national(mobile).replace(" ", "")}"`);
  });

  it("removes a team member: their open browser is signed out at once", async () => {
    const { owner, admin } = await account();
    const member = await createTeamUser(t.app.db, owner.businessId, { name: "Robin Leaving" });
    const browser = await clientFor(t.app, member.id);
    expect((await browser.get("/")).status).toBe(200);
    // Without JavaScript the first press asks the question in the page.
    const ask = pageText(await (await admin.get(`/manageteam?confirm=remove-${member.id}`)).text());
    expect(ask).toContain("Remove Robin Leaving from the team?");
    expect((await admin.post("/manageteam", { intent: "remove", id: String(member.id) })).status).toBe(302);
    const after = await browser.get("/");
    expect(after.status).toBe(302);
    expect(after.headers.get("location")).toBe("/login");
    expect(pageText(await (await admin.get("/manageteam")).text())).not.toContain("Robin Leaving");
    const login = await t.app.client().post("/login", { email: member.email, password: member.password });
    expect(login.status).not.toBe(302);
  });

  it("hands the Administrator role over: the former Administrator becomes a team member", async () => {
    const { owner, admin } = await account();
    const member = await createTeamUser(t.app.db, owner.businessId, { name: "Kim Next" });
    const next = await clientFor(t.app, member.id);
    expect((await next.get("/manageteam")).status).toBe(403);
    const res = await admin.post("/manageteam", { intent: "handover", id: String(member.id) });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect((await admin.get("/manageteam")).status).toBe(403);
    expect((await next.get("/manageteam")).status).toBe(200);
    const roles = await t.app.db.selectFrom("users").select(["id", "role"]).where("business_id", "=", owner.businessId).orderBy("id").execute();
    expect(roles.map((r) => r.role)).toEqual(["TEAM", "ADMIN"]);
  });

  it("never removes the Administrator or hands the role to themselves (FB001 page, 404), nothing changed", async () => {
    const { owner, admin } = await account();
    const self = await admin.post("/manageteam", { intent: "remove", id: String(owner.id) });
    expect(self.status).toBe(403);
    expect(pageText(await self.text())).toContain(FORBIDDEN);
    expect((await admin.post("/manageteam", { intent: "handover", id: String(owner.id) })).status).toBe(404);
    expect((await admin.post("/manageteam", { intent: "nonsense", id: String(owner.id) })).status).toBe(400);
    const row = await t.app.db.selectFrom("users").select(["role", "removed_at"]).where("id", "=", owner.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "ADMIN", removed_at: null });
    expect((await admin.get("/manageteam")).status).toBe(200);
  });

  it("refuses a team member every team action with FB001, and answers another business's ids with 404", async () => {
    const { owner, admin } = await account();
    const member = await createTeamUser(t.app.db, owner.businessId);
    const teamClient = await clientFor(t.app, member.id);
    const to = newEmail();
    await admin.post("/manageteam", { intent: "invite-email", email: to });
    const invite = await t.app.db.selectFrom("team_invites").select("id").where("business_id", "=", owner.businessId).executeTakeFirstOrThrow();
    const actions: Array<Record<string, string>> = [
      { intent: "invite-email", email: newEmail() },
      { intent: "invite-sms", mobile: national(ukMobile()) },
      { intent: "resend", id: String(invite.id) },
      { intent: "revoke", id: String(invite.id) },
      { intent: "remove", id: String(owner.id) },
      { intent: "handover", id: String(member.id) },
    ];
    for (const fields of actions) {
      const res = await teamClient.post("/manageteam", fields);
      expect(res.status, fields.intent).toBe(403);
      expect(pageText(await res.text()), fields.intent).toContain(FORBIDDEN);
    }
    const invites = await t.app.db.selectFrom("team_invites").select(["status", "sent_count"]).where("business_id", "=", owner.businessId).execute();
    expect(invites).toEqual([{ status: "OPEN", sent_count: 1 }]);
    expect((await t.app.db.selectFrom("users").select("role").where("id", "=", owner.id).executeTakeFirstOrThrow()).role).toBe("ADMIN");

    // Another business's Administrator, with this business's ids.
    const other = await account();
    for (const fields of [
      { intent: "resend", id: String(invite.id) },
      { intent: "revoke", id: String(invite.id) },
      { intent: "remove", id: String(member.id) },
      { intent: "handover", id: String(member.id) },
      { intent: "remove", id: "abc" },
    ]) {
      const res = await other.admin.post("/manageteam", fields);
      expect(res.status, fields.intent).toBe(404);
    }
    expect(await t.app.db.selectFrom("team_invites").select(["status", "sent_count"]).where("business_id", "=", owner.businessId).execute()).toEqual([{ status: "OPEN", sent_count: 1 }]);
    const m = await t.app.db.selectFrom("users").select(["role", "removed_at"]).where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(m).toEqual({ role: "TEAM", removed_at: null });
    expect(t.app.serverErrors).not.toMatch(/Error:/);
  });
});
