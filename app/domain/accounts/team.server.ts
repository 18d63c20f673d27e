// The business's team: its Administrator and team members, and the invitations that add team members.
//
// An invitation goes to one person, by text (a UK mobile) or email, carries an unguessable code in its link
// (only a SHA-256 of the code is stored), expires after a configured number of days and is used once. A person
// has at most one open invitation per business (BR045; a partial unique index backs the rule under races), and
// nobody already on the team is invited again (BR045). The Administrator resends (a new code and a new expiry),
// revokes, removes a team member (their sessions end at once; what they did stays, with their name) and hands the
// Administrator role to a team member in one transaction, so the business always has exactly one Administrator.
//
// The invitee opens /createaccount/{code}, types their name, email, mobile and password, and confirms the mobile
// with a texted PIN (the sign-up codes, purpose INVITE). The account is created as the invitation is used up,
// in one transaction.
import type { Kysely } from "kysely";
import type { Database } from "#db/index";
import type { DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { hashPassword, randomToken, sha256 } from "~/lib/crypto.server";
import { queueEmail } from "~/domain/email/email.server";
import { enqueueMessage } from "~/domain/messaging/outbound.server";
import { platformAccountId } from "~/domain/messaging/platform.server";
import { recordAudit } from "~/domain/audit/audit.server";
import { checkCode, deleteCodes, issueCode, type CheckResult, type IssueResult } from "./codes.server";

type Db = Kysely<DB>;

/** Open invitations shown at most (a business's team is small; older ones stay usable). */
export const INVITES_SHOWN = 200;

export interface TeamMember {
  id: number;
  name: string;
  email: string;
  mobile: string;
  role: "ADMIN" | "TEAM";
  disabled: boolean;
  lastLoginAt: string | null;
  lastActiveAt: string | null;
}

/** Everyone who can sign in to the business (removed members left out), the Administrator first, then by name. */
export async function listTeam(db: Database, businessId: number): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "mobile", "role", "disabled", "last_login_at", "last_active_at"])
    .where("business_id", "=", businessId)
    .where("removed_at", "is", null)
    .orderBy((eb) => eb.case().when("role", "=", "ADMIN").then(0).else(1).end())
    .orderBy("name")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({
    id: Number(r.id),
    name: r.name,
    email: r.email,
    mobile: r.mobile,
    role: r.role,
    disabled: r.disabled === 1,
    lastLoginAt: r.last_login_at,
    lastActiveAt: r.last_active_at,
  }));
}

// ---------------------------------------------------------------------------------------------------------
// Invitations

export type InviteChannel = "SMS" | "EMAIL";

export interface InviteRow {
  id: number;
  channel: InviteChannel;
  sentTo: string;
  /** The code's last characters: enough to tell invitations apart, useless to an attacker. */
  codeHint: string;
  issuedAt: string;
  expiresAt: string;
  expired: boolean;
  sentCount: number;
  invitedBy: string | null;
}

/** The words of an invitation, in the inviter's language (the route translates them). */
export interface InviteTexts {
  sms(link: string): string;
  emailSubject: string;
  emailText(link: string): string;
}

export interface InviteDeps {
  /** The public address, for the link (config.publicUrl). */
  publicUrl: string;
  /** The platform's system sender (config.systemSender): invitations come from the platform, not a member text. */
  systemSender: string;
  ttlDays: number;
  now: Date;
}

const CODE_BYTES = 24; // 192 bits, 32 URL-safe characters
const CODE_PATTERN = /^[A-Za-z0-9_-]{20,64}$/;

export function inviteLink(publicUrl: string, code: string): string {
  return `${publicUrl}/createaccount/${code}`;
}

function newCode(): { code: string; hash: string; hint: string } {
  const code = randomToken(CODE_BYTES);
  return { code, hash: sha256(code), hint: code.slice(-4) };
}

/** Open invitations, newest first; those past their expiry are marked (they can be resent or revoked). */
export async function listInvites(db: Database, businessId: number, now: Date): Promise<InviteRow[]> {
  const rows = await db
    .selectFrom("team_invites as i")
    .leftJoin("users as u", "u.id", "i.invited_by_user_id")
    .select(["i.id", "i.channel", "i.sent_to", "i.code_hint", "i.issued_at", "i.expires_at", "i.sent_count", "u.name as invitedBy"])
    .where("i.business_id", "=", businessId)
    .where("i.status", "=", "OPEN")
    .orderBy("i.id", "desc")
    .limit(INVITES_SHOWN)
    .execute();
  const at = now.toISOString();
  return rows.map((r) => ({
    id: Number(r.id),
    channel: r.channel,
    sentTo: r.sent_to,
    codeHint: r.code_hint,
    issuedAt: r.issued_at,
    expiresAt: r.expires_at,
    expired: r.expires_at <= at,
    sentCount: Number(r.sent_count),
    invitedBy: r.invitedBy ?? null,
  }));
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

/** Sends the invitation's link by its channel, inside the caller's transaction. */
async function deliver(trx: Db, invite: { businessId: number; channel: InviteChannel; sentTo: string }, code: string, texts: InviteTexts, deps: InviteDeps, platformId: number): Promise<void> {
  const link = inviteLink(deps.publicUrl, code);
  if (invite.channel === "EMAIL") {
    await queueEmail(trx, { businessId: invite.businessId, to: invite.sentTo, kind: "team-invite", subject: texts.emailSubject, text: texts.emailText(link) }, deps.now);
  } else {
    await enqueueMessage(
      trx,
      { businessId: platformId, kind: "SYSTEM", audience: { phone: invite.sentTo }, body: texts.sms(link), fromPhone: deps.systemSender },
      { now: deps.now, sendDelaySeconds: 0 },
    );
  }
}

/** BR045 when the person is already on the team (by email or mobile). */
async function assertNotOnTeam(db: Db, businessId: number, sentTo: string, field: string): Promise<void> {
  const taken = await db
    .selectFrom("users")
    .select("id")
    .where("business_id", "=", businessId)
    .where("removed_at", "is", null)
    .where((eb) => eb.or([eb("email", "=", sentTo), eb("mobile", "=", sentTo)]))
    .executeTakeFirst();
  if (taken) throw new AppError("BR045", undefined, { field });
}

/**
 * Invites a person to the team by text (`to` an E.164 UK mobile) or email (lower case). BR045 when they already
 * have an open invitation or are on the team. An earlier invitation of theirs that has expired is closed first.
 * Returns the invitation id and its code (the code is never stored; tests and the caller's toast may use it).
 */
export async function inviteTeamMember(
  db: Database,
  input: { businessId: number; actorId: number | null; channel: InviteChannel; to: string },
  texts: InviteTexts,
  deps: InviteDeps,
): Promise<{ inviteId: number; code: string }> {
  const field = input.channel === "EMAIL" ? "email" : "mobile";
  const sentTo = input.channel === "EMAIL" ? input.to.trim().toLowerCase() : input.to;
  const platformId = input.channel === "SMS" ? await platformAccountId(db, deps.now) : 0;
  const at = deps.now.toISOString();
  const { code, hash, hint } = newCode();
  try {
    return await db.transaction().execute(async (trx) => {
      await assertNotOnTeam(trx, input.businessId, sentTo, field);
      const open = await trx
        .selectFrom("team_invites")
        .select(["id", "expires_at"])
        .where("business_id", "=", input.businessId)
        .where("sent_to", "=", sentTo)
        .where("status", "=", "OPEN")
        .executeTakeFirst();
      if (open && open.expires_at > at) throw new AppError("BR045", undefined, { field });
      if (open) await trx.updateTable("team_invites").set({ status: "EXPIRED", ended_at: at }).where("id", "=", open.id).execute();
      const row = await trx
        .insertInto("team_invites")
        .values({
          business_id: input.businessId,
          channel: input.channel,
          sent_to: sentTo,
          code_hash: hash,
          code_hint: hint,
          status: "OPEN",
          invited_by_user_id: input.actorId,
          issued_at: at,
          expires_at: new Date(deps.now.getTime() + deps.ttlDays * 86_400_000).toISOString(),
          ended_at: null,
          ended_by_user_id: null,
          accepted_user_id: null,
          pending_name: null,
          pending_email: null,
          pending_mobile: null,
          pending_password_hash: null,
          created_at: at,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const inviteId = Number(row.id);
      await deliver(trx, { businessId: input.businessId, channel: input.channel, sentTo }, code, texts, deps, platformId);
      await recordAudit(trx, { businessId: input.businessId, userId: input.actorId, action: "team-invite.sent", subjectType: "team-invite", subjectId: inviteId }, deps.now);
      return { inviteId, code };
    });
  } catch (error) {
    // Two invitations to the same person at the same moment: the index lets one through.
    if (isUniqueViolation(error)) throw new AppError("BR045", undefined, { field });
    throw error;
  }
}

async function openInviteOf(db: Db, businessId: number, inviteId: number) {
  if (!Number.isSafeInteger(inviteId) || inviteId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const row = await db
    .selectFrom("team_invites")
    .select(["id", "channel", "sent_to", "status"])
    .where("business_id", "=", businessId)
    .where("id", "=", inviteId)
    .executeTakeFirst();
  if (!row || row.status !== "OPEN") throw new AppError("NF001", undefined, { status: 404 });
  return row;
}

/** Sends an open invitation again with a new code and a new expiry (the old link stops working). */
export async function resendInvite(
  db: Database,
  input: { businessId: number; actorId: number | null; inviteId: number },
  texts: InviteTexts,
  deps: InviteDeps,
): Promise<{ code: string }> {
  const platformId = await platformAccountId(db, deps.now);
  const { code, hash, hint } = newCode();
  const at = deps.now.toISOString();
  return db.transaction().execute(async (trx) => {
    const invite = await openInviteOf(trx, input.businessId, input.inviteId);
    const updated = await trx
      .updateTable("team_invites")
      .set((eb) => ({
        code_hash: hash,
        code_hint: hint,
        issued_at: at,
        expires_at: new Date(deps.now.getTime() + deps.ttlDays * 86_400_000).toISOString(),
        sent_count: eb("sent_count", "+", 1),
        pending_name: null,
        pending_email: null,
        pending_mobile: null,
        pending_password_hash: null,
      }))
      .where("id", "=", invite.id)
      .where("status", "=", "OPEN")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError("NF001", undefined, { status: 404 });
    await deliver(trx, { businessId: input.businessId, channel: invite.channel, sentTo: invite.sent_to }, code, texts, deps, platformId);
    await recordAudit(trx, { businessId: input.businessId, userId: input.actorId, action: "team-invite.resent", subjectType: "team-invite", subjectId: Number(invite.id) }, deps.now);
    return { code };
  });
}

/** Revokes an open invitation: its link shows the invalid-invitation page from now on. */
export async function revokeInvite(db: Database, input: { businessId: number; actorId: number | null; inviteId: number }, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const invite = await openInviteOf(trx, input.businessId, input.inviteId);
    const at = now.toISOString();
    const updated = await trx
      .updateTable("team_invites")
      .set({ status: "REVOKED", ended_at: at, ended_by_user_id: input.actorId })
      .where("id", "=", invite.id)
      .where("status", "=", "OPEN")
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) throw new AppError("NF001", undefined, { status: 404 });
    await recordAudit(trx, { businessId: input.businessId, userId: input.actorId, action: "team-invite.revoked", subjectType: "team-invite", subjectId: Number(invite.id) }, now);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Accepting an invitation (/createaccount/{code})

export interface UsableInvite {
  id: number;
  businessId: number;
  businessName: string;
  channel: InviteChannel;
  sentTo: string;
  pendingName: string | null;
  pendingEmail: string | null;
  pendingMobile: string | null;
  hasPendingPassword: boolean;
}

/** The invitation behind a code, if it is open and not expired; null for anything else (unknown, used, revoked, expired). */
export async function findUsableInvite(db: Database, code: string | undefined, now: Date): Promise<UsableInvite | null> {
  if (!code || !CODE_PATTERN.test(code)) return null;
  const row = await db
    .selectFrom("team_invites as i")
    .innerJoin("businesses as b", "b.id", "i.business_id")
    .select([
      "i.id",
      "i.business_id",
      "b.name as businessName",
      "i.channel",
      "i.sent_to",
      "i.status",
      "i.expires_at",
      "i.pending_name",
      "i.pending_email",
      "i.pending_mobile",
      "i.pending_password_hash",
    ])
    .where("i.code_hash", "=", sha256(code))
    .executeTakeFirst();
  if (!row || row.status !== "OPEN" || row.expires_at <= now.toISOString()) return null;
  return {
    id: Number(row.id),
    businessId: Number(row.business_id),
    businessName: row.businessName,
    channel: row.channel,
    sentTo: row.sent_to,
    pendingName: row.pending_name,
    pendingEmail: row.pending_email,
    pendingMobile: row.pending_mobile,
    hasPendingPassword: !!row.pending_password_hash,
  };
}

/** BR018 for an email, BR019 for a mobile that already has an account (anywhere: both sign in). */
async function assertFree(db: Db, email: string, mobile: string): Promise<void> {
  if (await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst()) throw new AppError("BR018", undefined, { field: "email" });
  if (await db.selectFrom("users").select("id").where("mobile", "=", mobile).executeTakeFirst()) throw new AppError("BR019", undefined, { field: "mobile" });
}

/** The PIN's subject: the invitation and the mobile it was texted to, so a code only confirms that number. */
function pinSubject(inviteId: number, mobile: string): string {
  return `invite:${inviteId}:${mobile}`;
}

/**
 * Step 1: the invitee's details. Checks the email and mobile are free, keeps the details (password hashed) on
 * the invitation until the mobile is confirmed, and texts a PIN to the mobile.
 */
export async function startInviteAcceptance(
  db: Database,
  invite: UsableInvite,
  details: { name: string; email: string; mobile: string; password: string },
  pin: { sender: string; maxIssues: number; message: (code: string) => string },
  now: Date,
): Promise<IssueResult> {
  const email = details.email.trim().toLowerCase();
  await assertFree(db, email, details.mobile);
  const hash = await hashPassword(details.password);
  const saved = await db
    .updateTable("team_invites")
    .set({ pending_name: details.name.trim(), pending_email: email, pending_mobile: details.mobile, pending_password_hash: hash })
    .where("id", "=", invite.id)
    .where("status", "=", "OPEN")
    .executeTakeFirst();
  if (Number(saved.numUpdatedRows) !== 1) throw new AppError("NF001", undefined, { status: 404 });
  return sendInvitePin(db, { id: invite.id, pendingMobile: details.mobile }, pin, now);
}

/** Texts a (new) PIN to the invitee's mobile, within the re-issue cap. */
export async function sendInvitePin(
  db: Database,
  invite: { id: number; pendingMobile: string | null },
  pin: { sender: string; maxIssues: number; message: (code: string) => string },
  now: Date,
): Promise<IssueResult> {
  if (!invite.pendingMobile) throw new AppError("NF001", undefined, { status: 404 });
  const issued = await issueCode(db, "INVITE", pinSubject(invite.id, invite.pendingMobile), pin.maxIssues, now);
  if (issued.ok) {
    const platformId = await platformAccountId(db, now);
    await db.transaction().execute((trx) =>
      enqueueMessage(
        trx,
        { businessId: platformId, kind: "SYSTEM", audience: { phone: invite.pendingMobile! }, body: pin.message(issued.code), fromPhone: pin.sender },
        { now, sendDelaySeconds: 0 },
      ),
    );
  }
  return issued;
}

export type AcceptResult = { ok: true; userId: number; businessId: number } | Exclude<CheckResult, { ok: true }>;

/**
 * Step 2: the PIN. On success the invitation is used up and the team member created, in one transaction
 * (an invitation revoked, used or expired meanwhile is refused with NF001 404; an email or mobile taken
 * meanwhile with BR018/BR019).
 */
export async function acceptInvite(db: Database, invite: UsableInvite, code: string, now: Date): Promise<AcceptResult> {
  if (!invite.pendingMobile || !invite.pendingEmail || !invite.pendingName) throw new AppError("NF001", undefined, { status: 404 });
  const subject = pinSubject(invite.id, invite.pendingMobile);
  const checked = await checkCode(db, "INVITE", subject, code, now);
  if (!checked.ok) return checked;
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("team_invites")
      .select(["pending_name", "pending_email", "pending_mobile", "pending_password_hash"])
      .where("id", "=", invite.id)
      .where("status", "=", "OPEN")
      .where("expires_at", ">", at)
      .executeTakeFirst();
    if (!row?.pending_password_hash || !row.pending_email || !row.pending_mobile || !row.pending_name) throw new AppError("NF001", undefined, { status: 404 });
    await assertFree(trx, row.pending_email, row.pending_mobile);
    const user = await trx
      .insertInto("users")
      .values({
        business_id: invite.businessId,
        name: row.pending_name,
        email: row.pending_email,
        mobile: row.pending_mobile,
        password_hash: row.pending_password_hash,
        role: "TEAM",
        last_login_at: at,
        last_active_at: at,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const userId = Number(user.id);
    const used = await trx
      .updateTable("team_invites")
      .set({ status: "ACCEPTED", ended_at: at, accepted_user_id: userId, pending_password_hash: null })
      .where("id", "=", invite.id)
      .where("status", "=", "OPEN")
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw new AppError("NF001", undefined, { status: 404 });
    await deleteCodes(trx, "INVITE", subject);
    await recordAudit(trx, { businessId: invite.businessId, userId, action: "team-invite.accepted", subjectType: "team-invite", subjectId: invite.id }, now);
    return { ok: true as const, userId, businessId: invite.businessId };
  });
}

// ---------------------------------------------------------------------------------------------------------
// Removing a team member and handing over the Administrator role

async function activeUserOf(db: Db, businessId: number, userId: number) {
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new AppError("NF001", undefined, { status: 404 });
  const row = await db
    .selectFrom("users")
    .select(["id", "name", "email", "mobile", "role", "disabled"])
    .where("business_id", "=", businessId)
    .where("id", "=", userId)
    .where("removed_at", "is", null)
    .executeTakeFirst();
  if (!row) throw new AppError("NF001", undefined, { status: 404 });
  return row;
}

/** A team member of this business (404 otherwise), for the confirmation questions. */
export async function getTeamMember(db: Database, businessId: number, userId: number): Promise<{ id: number; name: string; role: "ADMIN" | "TEAM" }> {
  const row = await activeUserOf(db, businessId, userId);
  return { id: Number(row.id), name: row.name, role: row.role };
}

/**
 * Removes a team member: they cannot sign in any more and every session of theirs ends now. Their row stays
 * (their name still shows on the texts and campaigns they made); their email and mobile are set aside so the
 * same person can be invited again. The Administrator cannot be removed (FB001): hand the role over first.
 */
export async function removeTeamMember(db: Database, input: { businessId: number; actorId: number | null; userId: number }, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const user = await activeUserOf(trx, input.businessId, input.userId);
    if (user.role === "ADMIN") throw new AppError("FB001", undefined, { status: 403 });
    const at = now.toISOString();
    const tomb = `removed:${user.id}:`;
    await trx
      .updateTable("users")
      .set({ removed_at: at, removed_by_user_id: input.actorId, disabled: 1, email: `${tomb}${user.email}`, mobile: `${tomb}${user.mobile}` })
      .where("id", "=", user.id)
      .where("removed_at", "is", null)
      .execute();
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
    await trx.deleteFrom("admin_access_tokens").where("user_id", "=", user.id).execute();
    await recordAudit(trx, { businessId: input.businessId, userId: input.actorId, action: "team.removed", subjectType: "user", subjectId: Number(user.id) }, now);
  });
}

/**
 * Hands the Administrator role to a team member: in one transaction the current Administrator (the actor)
 * becomes a team member and the chosen member the Administrator, so there is never a moment with none or two.
 * FB001 unless the actor is the Administrator; NF001 (404) for anyone who is not an active team member here.
 */
export async function handOverAdministrator(db: Database, input: { businessId: number; actorId: number; toUserId: number }, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const target = await activeUserOf(trx, input.businessId, input.toUserId);
    if (target.role !== "TEAM" || target.disabled) throw new AppError("NF001", undefined, { status: 404 });
    const stepDown = await trx
      .updateTable("users")
      .set({ role: "TEAM" })
      .where("id", "=", input.actorId)
      .where("business_id", "=", input.businessId)
      .where("role", "=", "ADMIN")
      .where("removed_at", "is", null)
      .executeTakeFirst();
    if (Number(stepDown.numUpdatedRows) !== 1) throw new AppError("FB001", undefined, { status: 403 });
    const stepUp = await trx
      .updateTable("users")
      .set({ role: "ADMIN" })
      .where("id", "=", target.id)
      .where("business_id", "=", input.businessId)
      .where("role", "=", "TEAM")
      .where("removed_at", "is", null)
      .where("disabled", "=", 0)
      .executeTakeFirst();
    if (Number(stepUp.numUpdatedRows) !== 1) throw new AppError("NF001", undefined, { status: 404 });
    const admins = await trx
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("business_id", "=", input.businessId)
      .where("role", "=", "ADMIN")
      .where("removed_at", "is", null)
      .executeTakeFirstOrThrow();
    // Exactly one Administrator, or nothing changes.
    if (Number(admins.n) !== 1) throw new AppError("FB001", undefined, { status: 403 });
    await recordAudit(trx, { businessId: input.businessId, userId: input.actorId, action: "team.administrator-handed-over", subjectType: "user", subjectId: Number(target.id) }, now);
  });
}
