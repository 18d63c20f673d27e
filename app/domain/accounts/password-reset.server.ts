// Forgotten login: a code texted to the account's mobile, then a new password. Every answer is
// the same whether or not an account matches, so the flow cannot be used to find out who has one.
import type { Database } from "#db/index";
import { hashPassword } from "~/lib/crypto.server";
import { parseUkMobile } from "~/lib/phone";
import { enqueuePlatformText } from "~/domain/messaging/platform.server";
import { withinRateLimit } from "~/domain/ratelimit.server";
import { checkCode, CODE_ISSUE_WINDOW_MINUTES, deleteCodes, issueCode } from "./codes.server";

export type Identifier = { kind: "email"; value: string } | { kind: "mobile"; value: string };

/** An email address or a UK mobile, normalised (lower-case email, E.164 mobile), or null. */
export function parseIdentifier(input: string): Identifier | null {
  const v = input.trim();
  if (!v || v.length > 254) return null;
  if (v.includes("@")) {
    return /^[^\s@<>"'`]+@[^\s@<>"'`]+\.[^\s@<>"'`]+$/.test(v) ? { kind: "email", value: v.toLowerCase() } : null;
  }
  const mobile = parseUkMobile(v);
  return mobile ? { kind: "mobile", value: mobile } : null;
}

export function identifierKey(id: Identifier): string {
  return `${id.kind}:${id.value}`;
}

async function findUser(db: Database, id: Identifier) {
  return db
    .selectFrom("users")
    .innerJoin("businesses", "businesses.id", "users.business_id")
    .select(["users.id", "users.mobile", "users.disabled", "businesses.status"])
    .where(id.kind === "email" ? "users.email" : "users.mobile", "=", id.value)
    .executeTakeFirst();
}

export type ResetRequestResult = { ok: true; issuesLeft: number } | { ok: false; retryAt: Date };

/**
 * Counts a code request for this identifier (at most `maxIssues` an hour, whether or not an account
 * matches) and, when an active account matches, texts it a new code.
 */
export async function requestPasswordReset(
  db: Database,
  /** The platform's system sender (config.systemSender). */
  sender: string,
  id: Identifier,
  maxIssues: number,
  message: (code: string) => string,
  now: Date,
): Promise<ResetRequestResult> {
  const key = `reset:issue:${identifierKey(id)}`;
  const windowSeconds = CODE_ISSUE_WINDOW_MINUTES * 60;
  const allowed = await withinRateLimit(db, key, maxIssues, windowSeconds, now);
  const counter = await db.selectFrom("rate_limits").select(["count", "window_start"]).where("key", "=", key).executeTakeFirstOrThrow();
  if (!allowed) return { ok: false, retryAt: new Date(Date.parse(counter.window_start) + windowSeconds * 1000) };
  const user = await findUser(db, id);
  if (user && !user.disabled && user.status !== "DISABLED") {
    const issued = await issueCode(db, "RESET", String(user.id), maxIssues, now);
    if (issued.ok) {
      // Queued in the pipeline, which sends it at top priority and retries it.
      await enqueuePlatformText(db, { to: user.mobile, body: message(issued.code), from: sender, now });
    }
  }
  return { ok: true, issuesLeft: Math.max(0, maxIssues - counter.count) };
}

/**
 * Checks the code and sets the new password (already checked against the rules). Clears any
 * lockout and ends every session of the user. Returns the user id, or null for any failure.
 */
export async function resetPassword(db: Database, id: Identifier, code: string, password: string, now: Date): Promise<number | null> {
  const user = await findUser(db, id);
  if (!user || user.disabled || user.status === "DISABLED") return null;
  const check = await checkCode(db, "RESET", String(user.id), code, now);
  if (!check.ok) return null;
  const hash = await hashPassword(password);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("users").set({ password_hash: hash, failed_logins: 0, locked_until: null }).where("id", "=", user.id).execute();
    await trx.deleteFrom("sessions").where("user_id", "=", user.id).execute();
    await deleteCodes(trx, "RESET", String(user.id));
  });
  return user.id;
}

/** How many more codes may be asked for this identifier in the current hour (the same for every identifier). */
export async function resetIssueAllowance(db: Database, id: Identifier, maxIssues: number, now: Date): Promise<{ issuesLeft: number; retryAt: Date | null }> {
  const windowMs = CODE_ISSUE_WINDOW_MINUTES * 60_000;
  const start = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const row = await db.selectFrom("rate_limits").select(["count", "window_start"]).where("key", "=", `reset:issue:${identifierKey(id)}`).executeTakeFirst();
  const used = row && row.window_start === start.toISOString() ? row.count : 0;
  const issuesLeft = Math.max(0, maxIssues - used);
  return { issuesLeft, retryAt: issuesLeft === 0 ? new Date(start.getTime() + windowMs) : null };
}

/** The cookie value carrying the identifier between the two forgotten-login pages. */
export function parseIdentifierKey(key: string | null): Identifier | null {
  if (!key) return null;
  const m = /^(email|mobile):(.{1,254})$/.exec(key);
  if (!m) return null;
  const parsed = parseIdentifier(m[2]);
  return parsed && parsed.kind === m[1] ? parsed : null;
}

export const RESET_COOKIE = "tc_reset";

export function resetCookieHeader(id: Identifier, secure: boolean): string {
  return `${RESET_COOKIE}=${encodeURIComponent(identifierKey(id))}; Path=/forgotten-login; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=3600`;
}

export function clearResetCookieHeader(secure: boolean): string {
  return `${RESET_COOKIE}=; Path=/forgotten-login; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=0`;
}
