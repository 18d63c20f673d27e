// The team on both databases: invitations (BR045 for a second open one or someone already on the team, expiry,
// single use, resend with a new code, revoke), accepting one with a texted PIN, removing a team member (their
// sessions end at once, what they did keeps their name), handing over the Administrator role (exactly one at
// all times), and another business's ids answered as not found.
import { describe, expect, it } from "vitest";
import type { Database } from "#db/index";
import { DIALECTS, useTestDb } from "../support/db";
import { appError } from "../support/errors";
import { createAccount, createTeamUser, ukMobile as baseMobile } from "../support/factories";
import { parseUkMobile } from "~/lib/phone";
import { createSession, findSessionUser } from "~/domain/accounts/sessions.server";
import { listAudit } from "~/domain/audit/audit.server";
import {
  acceptInvite,
  findUsableInvite,
  handOverAdministrator,
  inviteTeamMember,
  listInvites,
  listTeam,
  removeTeamMember,
  resendInvite,
  revokeInvite,
  startInviteAcceptance,
  type InviteTexts,
} from "~/domain/accounts/team.server";

function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}

const TEXTS: InviteTexts = {
  sms: (link) => `Join us: ${link}`,
  emailSubject: "Join the team",
  emailText: (link) => `Create your login: ${link}`,
};
const DAY = 86_400_000;
const T0 = new Date("2026-12-03T10:00:00.000Z");
const deps = (now = T0) => ({ publicUrl: "https://app.example.test", systemSender: "+447700900000", ttlDays: 7, now });
const PIN = { sender: "+447700900000", maxIssues: 3, message: (code: string) => `Your code is ${code}` };
let n = 0;
const newEmail = () => `invitee-${Date.now().toString(36)}-${++n}@example.test`;

async function latestPin(db: Database, phone: string): Promise<string> {
  const row = await db.selectFrom("outbound").select("body").where("to_phone", "=", phone).orderBy("id", "desc").executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(row.body)![1];
}

describe.each(DIALECTS)("team invitations (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("emails an invitation with a link whose code is not stored, lists it, and refuses a second open one (BR045)", async () => {
    const { businessId, id } = await createAccount(t.db);
    const to = newEmail();
    const { inviteId, code } = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to: to.toUpperCase() }, TEXTS, deps());
    expect(code).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const row = await t.db.selectFrom("team_invites").selectAll().where("id", "=", inviteId).executeTakeFirstOrThrow();
    expect(row.sent_to).toBe(to);
    expect(JSON.stringify(row)).not.toContain(code);
    expect(row.expires_at).toBe(new Date(T0.getTime() + 7 * DAY).toISOString());
    const email = await t.db.selectFrom("emails").selectAll().where("business_id", "=", businessId).where("kind", "=", "team-invite").executeTakeFirstOrThrow();
    expect(email.to_address).toBe(to);
    expect(email.text_body).toContain(`https://app.example.test/createaccount/${code}`);
    const listed = await listInvites(t.db, businessId, T0);
    expect(listed).toMatchObject([{ id: inviteId, channel: "EMAIL", sentTo: to, codeHint: code.slice(-4), expired: false }]);

    const again = await appError(inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to }, TEXTS, deps()));
    expect(again).toMatchObject({ code: "BR045", field: "email", status: 409 });
    // Another business may invite the same person.
    const other = await createAccount(t.db);
    await inviteTeamMember(t.db, { businessId: other.businessId, actorId: other.id, channel: "EMAIL", to }, TEXTS, deps());
  });

  it("refuses to invite someone already on the team, by email or by mobile (BR045)", async () => {
    const { businessId, id, email } = await createAccount(t.db);
    const mobile = ukMobile();
    await createTeamUser(t.db, businessId, { mobile });
    expect(await appError(inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to: email }, TEXTS, deps()))).toMatchObject({ code: "BR045" });
    expect(await appError(inviteTeamMember(t.db, { businessId, actorId: id, channel: "SMS", to: mobile }, TEXTS, deps()))).toMatchObject({ code: "BR045", field: "mobile" });
    expect(await t.db.selectFrom("team_invites").select("id").where("business_id", "=", businessId).execute()).toHaveLength(0);
  });

  it("texts an invitation from the system sender and lets one of two simultaneous invitations through", async () => {
    const { businessId, id } = await createAccount(t.db);
    const mobile = ukMobile();
    const results = await Promise.allSettled([0, 1, 2].map(() => inviteTeamMember(t.db, { businessId, actorId: id, channel: "SMS", to: mobile }, TEXTS, deps())));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "BR045" });
    const texts = await t.db.selectFrom("outbound").select(["body", "from_phone"]).where("to_phone", "=", mobile).execute();
    expect(texts).toHaveLength(1);
    expect(texts[0].from_phone).toBe("+447700900000");
    expect(texts[0].body).toMatch(/^Join us: https:\/\/app\.example\.test\/createaccount\/[A-Za-z0-9_-]{32}$/);
  });

  it("expires an invitation after the configured days; the person can then be invited again", async () => {
    const { businessId, id } = await createAccount(t.db);
    const to = newEmail();
    const first = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to }, TEXTS, deps());
    expect(await findUsableInvite(t.db, first.code, new Date(T0.getTime() + 7 * DAY - 1000))).not.toBeNull();
    const later = new Date(T0.getTime() + 7 * DAY);
    expect(await findUsableInvite(t.db, first.code, later)).toBeNull();
    expect((await listInvites(t.db, businessId, later))[0]).toMatchObject({ id: first.inviteId, expired: true });
    const second = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to }, TEXTS, deps(later));
    const statuses = await t.db.selectFrom("team_invites").select(["id", "status"]).where("business_id", "=", businessId).orderBy("id").execute();
    expect(statuses.map((s) => s.status)).toEqual(["EXPIRED", "OPEN"]);
    expect(await findUsableInvite(t.db, second.code, later)).not.toBeNull();
  });

  it("resends with a new code and a new expiry (the old link stops working), and revokes", async () => {
    const { businessId, id } = await createAccount(t.db);
    const first = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to: newEmail() }, TEXTS, deps());
    const at = new Date(T0.getTime() + 6 * DAY);
    const { code } = await resendInvite(t.db, { businessId, actorId: id, inviteId: first.inviteId }, TEXTS, deps(at));
    expect(code).not.toBe(first.code);
    expect(await findUsableInvite(t.db, first.code, at)).toBeNull();
    expect(await findUsableInvite(t.db, code, new Date(at.getTime() + 6 * DAY))).not.toBeNull();
    const [row] = await listInvites(t.db, businessId, at);
    expect(row).toMatchObject({ sentCount: 2, issuedAt: at.toISOString(), expiresAt: new Date(at.getTime() + 7 * DAY).toISOString() });
    expect(await t.db.selectFrom("emails").select("id").where("business_id", "=", businessId).where("kind", "=", "team-invite").execute()).toHaveLength(2);

    // Another business's id is not found, and changes nothing.
    const other = await createAccount(t.db);
    expect(await appError(resendInvite(t.db, { businessId: other.businessId, actorId: other.id, inviteId: first.inviteId }, TEXTS, deps(at)))).toMatchObject({ status: 404 });
    expect(await appError(revokeInvite(t.db, { businessId: other.businessId, actorId: other.id, inviteId: first.inviteId }, at))).toMatchObject({ status: 404 });
    expect(await findUsableInvite(t.db, code, at)).not.toBeNull();

    await revokeInvite(t.db, { businessId, actorId: id, inviteId: first.inviteId }, at);
    expect(await findUsableInvite(t.db, code, at)).toBeNull();
    expect(await listInvites(t.db, businessId, at)).toEqual([]);
    expect(await appError(revokeInvite(t.db, { businessId, actorId: id, inviteId: first.inviteId }, at))).toMatchObject({ status: 404 });
    expect(await appError(resendInvite(t.db, { businessId, actorId: id, inviteId: first.inviteId }, TEXTS, deps(at)))).toMatchObject({ status: 404 });
    const audit = await listAudit(t.db, businessId);
    expect(audit.map((a) => a.action)).toEqual(["team-invite.revoked", "team-invite.resent", "team-invite.sent"]);
    expect(audit.every((a) => Number(a.user_id) === id)).toBe(true);
  });

  it("creates the team member once their texted PIN is right; the code cannot be used twice", async () => {
    const { businessId, id } = await createAccount(t.db);
    const to = newEmail();
    const { code } = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to }, TEXTS, deps());
    const mobile = ukMobile();
    let invite = (await findUsableInvite(t.db, code, T0))!;
    await startInviteAcceptance(t.db, invite, { name: "Sam Team", email: to, mobile, password: "Sunny-day-42" }, PIN, T0);
    invite = (await findUsableInvite(t.db, code, T0))!;
    expect(invite).toMatchObject({ pendingName: "Sam Team", pendingMobile: mobile, hasPendingPassword: true });
    const pin = await latestPin(t.db, mobile);
    const wrong = await acceptInvite(t.db, invite, pin === "000000" ? "111111" : "000000", T0);
    expect(wrong).toMatchObject({ ok: false, reason: "wrong" });
    const ok = await acceptInvite(t.db, invite, pin, T0);
    expect(ok).toMatchObject({ ok: true, businessId });
    const user = await t.db.selectFrom("users").selectAll().where("email", "=", to).executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: "Sam Team", mobile, role: "TEAM", last_login_at: T0.toISOString() });
    expect(Number(user.business_id)).toBe(businessId);
    expect(user.password_hash).toMatch(/^scrypt\$/);
    const row = await t.db.selectFrom("team_invites").selectAll().where("code_hash", "is not", null).where("business_id", "=", businessId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "ACCEPTED", pending_password_hash: null });
    expect(Number(row.accepted_user_id)).toBe(Number(user.id));
    // Single use.
    expect(await findUsableInvite(t.db, code, T0)).toBeNull();
    expect(await acceptInvite(t.db, invite, pin, T0)).toMatchObject({ ok: false, reason: "missing" });
    expect((await listTeam(t.db, businessId)).map((m) => m.role)).toEqual(["ADMIN", "TEAM"]);
  });

  it("refuses an email or mobile that already has an account (BR018, BR019) and a revoked invitation at the last step", async () => {
    const { businessId, id, email } = await createAccount(t.db);
    const other = await createAccount(t.db);
    const { code, inviteId } = await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to: newEmail() }, TEXTS, deps());
    const invite = (await findUsableInvite(t.db, code, T0))!;
    expect(await appError(startInviteAcceptance(t.db, invite, { name: "Sam", email, mobile: ukMobile(), password: "Sunny-day-42" }, PIN, T0))).toMatchObject({ code: "BR018", field: "email" });
    const taken = (await t.db.selectFrom("users").select("mobile").where("id", "=", other.id).executeTakeFirstOrThrow()).mobile;
    expect(await appError(startInviteAcceptance(t.db, invite, { name: "Sam", email: newEmail(), mobile: taken, password: "Sunny-day-42" }, PIN, T0))).toMatchObject({ code: "BR019", field: "mobile" });

    const mobile = ukMobile();
    await startInviteAcceptance(t.db, invite, { name: "Sam", email: newEmail(), mobile, password: "Sunny-day-42" }, PIN, T0);
    const pending = (await findUsableInvite(t.db, code, T0))!;
    const pin = await latestPin(t.db, mobile);
    await revokeInvite(t.db, { businessId, actorId: id, inviteId }, T0);
    expect(await appError(acceptInvite(t.db, pending, pin, T0))).toMatchObject({ status: 404 });
    expect(await t.db.selectFrom("users").select("id").where("mobile", "=", mobile).executeTakeFirst()).toBeUndefined();
  });
});

describe.each(DIALECTS)("team members (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("removes a team member: every session ends at once, they keep their name on their work, and can be invited again", async () => {
    const { businessId, id } = await createAccount(t.db);
    const mobile = ukMobile();
    const member = await createTeamUser(t.db, businessId, { name: "Robin Removed", mobile });
    const web = await createSession(t.db, member.id, "WEB", T0);
    const api = await createSession(t.db, member.id, "API", T0);
    expect(await findSessionUser(t.db, web.token, T0)).not.toBeNull();
    const msg = await t.db
      .insertInto("messages")
      .values({ business_id: businessId, kind: "DM", body: "hi", group_id: null, member_id: null, status: "COMPLETE", send_at: T0.toISOString(), editable_until: T0.toISOString(), created_by: member.id, error: null, created_at: T0.toISOString(), updated_at: T0.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();

    await removeTeamMember(t.db, { businessId, actorId: id, userId: member.id }, T0);
    expect(await findSessionUser(t.db, web.token, T0)).toBeNull();
    expect(await findSessionUser(t.db, api.token, T0)).toBeNull();
    expect(await t.db.selectFrom("sessions").select("id").where("user_id", "=", member.id).execute()).toEqual([]);
    const row = await t.db.selectFrom("users").selectAll().where("id", "=", member.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: "Robin Removed", disabled: 1, removed_at: T0.toISOString() });
    expect(Number(row.removed_by_user_id)).toBe(id);
    expect((await listTeam(t.db, businessId)).map((m) => m.id)).toEqual([id]);
    const kept = await t.db.selectFrom("messages").select("created_by").where("id", "=", msg.id).executeTakeFirstOrThrow();
    expect(Number(kept.created_by)).toBe(member.id);
    // Their email and mobile are free again: they can be invited back.
    await inviteTeamMember(t.db, { businessId, actorId: id, channel: "EMAIL", to: member.email }, TEXTS, deps());
    await inviteTeamMember(t.db, { businessId, actorId: id, channel: "SMS", to: mobile }, TEXTS, deps());
    // Removed twice: not found.
    expect(await appError(removeTeamMember(t.db, { businessId, actorId: id, userId: member.id }, T0))).toMatchObject({ status: 404 });
  });

  it("never removes the Administrator, nor another business's user", async () => {
    const { businessId, id } = await createAccount(t.db);
    const other = await createAccount(t.db);
    const otherMember = await createTeamUser(t.db, other.businessId);
    expect(await appError(removeTeamMember(t.db, { businessId, actorId: id, userId: id }, T0))).toMatchObject({ code: "FB001" });
    expect(await appError(removeTeamMember(t.db, { businessId, actorId: id, userId: otherMember.id }, T0))).toMatchObject({ status: 404 });
    const still = await t.db.selectFrom("users").select(["removed_at"]).where("id", "in", [id, otherMember.id]).execute();
    expect(still.every((u) => u.removed_at === null)).toBe(true);
  });

  it("hands the Administrator role over in one step: always exactly one Administrator", async () => {
    const { businessId, id } = await createAccount(t.db);
    const member = await createTeamUser(t.db, businessId);
    const other = await createAccount(t.db);
    const otherMember = await createTeamUser(t.db, other.businessId);
    const roles = async (bid: number) =>
      (await t.db.selectFrom("users").select(["id", "role"]).where("business_id", "=", bid).orderBy("id").execute()).map((u) => [Number(u.id), u.role]);

    // Another business's member: not found, nothing changes on either side.
    expect(await appError(handOverAdministrator(t.db, { businessId, actorId: id, toUserId: otherMember.id }, T0))).toMatchObject({ status: 404 });
    expect(await roles(businessId)).toEqual([[id, "ADMIN"], [member.id, "TEAM"]]);
    expect(await roles(other.businessId)).toEqual([[other.id, "ADMIN"], [otherMember.id, "TEAM"]]);
    // A team member cannot take the role.
    expect(await appError(handOverAdministrator(t.db, { businessId, actorId: member.id, toUserId: member.id }, T0))).toMatchObject({ code: "FB001" });

    // Two hand-overs at once from the same Administrator: one wins, there is still one Administrator.
    const third = await createTeamUser(t.db, businessId);
    const results = await Promise.allSettled([member.id, third.id].map((to) => handOverAdministrator(t.db, { businessId, actorId: id, toUserId: to }, T0)));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const after = await roles(businessId);
    expect(after.filter(([, r]) => r === "ADMIN")).toHaveLength(1);
    expect(after.find(([uid]) => uid === id)?.[1]).toBe("TEAM");
    // The former Administrator cannot hand it over again.
    expect(await appError(handOverAdministrator(t.db, { businessId, actorId: id, toUserId: third.id }, T0))).toBeDefined();
    expect((await roles(businessId)).filter(([, r]) => r === "ADMIN")).toHaveLength(1);
  });
});
