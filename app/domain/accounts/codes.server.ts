// Single-use codes texted to a phone (sign-up PIN, forgotten login): issuing with a cap per hour,
// checking with a cap on wrong tries per code, expiry and single use. Only a hash of each code is kept.
import type { Database } from "#db/index";
import { randomDigits, safeEqual, sha256 } from "~/lib/crypto.server";
import { withinRateLimit } from "~/domain/ratelimit.server";

/** System texts (PINs, codes) come from this sender: the SMS simulator's system number. */
export const SYSTEM_SENDER = "+447700900000";

export const CODE_LENGTH = 6;
export const CODE_TTL_MINUTES = 10;
/** Wrong tries allowed on one code; after that it is void and a new one must be requested. */
export const CODE_MAX_ATTEMPTS = 5;
/** The re-issue cap (config.pinMaxIssues) counts codes issued within this window. */
export const CODE_ISSUE_WINDOW_MINUTES = 60;

/** What a code is for: sign-up, a forgotten login, or a number that objected rejoining from its member form. */
export type CodePurpose = "SIGNUP" | "RESET" | "REJOIN" | "CANCEL" | "INVITE";

export type IssueResult =
  | { ok: true; code: string; expiresAt: Date; issuesLeft: number }
  | { ok: false; retryAt: Date };

export type CheckResult =
  | { ok: true }
  | { ok: false; reason: "wrong"; attemptsLeft: number }
  | { ok: false; reason: "expired" | "exhausted" | "missing" };

function hashCode(purpose: CodePurpose, subject: string, code: string): string {
  return sha256(`${purpose}:${subject}:${code}`);
}

function windowStart(now: Date): string {
  return new Date(now.getTime() - CODE_ISSUE_WINDOW_MINUTES * 60_000).toISOString();
}

/** How many more codes may be issued to this subject in the current hour, and when the next frees up. */
export async function issueAllowance(db: Database, purpose: CodePurpose, subject: string, maxIssues: number, now: Date): Promise<{ issuesLeft: number; retryAt: Date | null }> {
  const recent = await db
    .selectFrom("verification_codes")
    .select("created_at")
    .where("purpose", "=", purpose)
    .where("subject", "=", subject)
    .where("created_at", ">", windowStart(now))
    .orderBy("created_at", "asc")
    .execute();
  const issuesLeft = Math.max(0, maxIssues - recent.length);
  // The oldest code in the window leaves it an hour after it was issued.
  const retryAt = issuesLeft === 0 && recent.length ? new Date(Date.parse(recent[0].created_at) + CODE_ISSUE_WINDOW_MINUTES * 60_000) : null;
  return { issuesLeft, retryAt };
}

/**
 * Issues a new code for a subject, voiding any earlier unused one. Refused (ok: false) when
 * `maxIssues` codes were already issued within the hour; the last code then still works until it expires.
 */
export async function issueCode(db: Database, purpose: CodePurpose, subject: string, maxIssues: number, now: Date): Promise<IssueResult> {
  return db.transaction().execute(async (trx) => {
    const allowance = await issueAllowance(trx, purpose, subject, maxIssues, now);
    if (allowance.issuesLeft === 0) return { ok: false, retryAt: allowance.retryAt ?? new Date(now.getTime() + CODE_ISSUE_WINDOW_MINUTES * 60_000) };
    await trx
      .updateTable("verification_codes")
      .set({ used_at: now.toISOString() })
      .where("purpose", "=", purpose)
      .where("subject", "=", subject)
      .where("used_at", "is", null)
      .execute();
    const code = randomDigits(CODE_LENGTH);
    const expiresAt = new Date(now.getTime() + CODE_TTL_MINUTES * 60_000);
    await trx
      .insertInto("verification_codes")
      .values({
        purpose,
        subject,
        code_hash: hashCode(purpose, subject, code),
        attempts: 0,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
    return { ok: true, code, expiresAt, issuesLeft: allowance.issuesLeft - 1 };
  });
}

/**
 * Checks a code against the subject's newest code. A wrong try counts against that code; a right one
 * uses it up (exactly once, even under concurrent requests).
 */
export async function checkCode(db: Database, purpose: CodePurpose, subject: string, code: string, now: Date): Promise<CheckResult> {
  const row = await db
    .selectFrom("verification_codes")
    .selectAll()
    .where("purpose", "=", purpose)
    .where("subject", "=", subject)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (!row || row.used_at) return { ok: false, reason: "missing" };
  if (row.expires_at <= now.toISOString()) return { ok: false, reason: "expired" };
  if (row.attempts >= CODE_MAX_ATTEMPTS) return { ok: false, reason: "exhausted" };
  if (safeEqual(hashCode(purpose, subject, code), row.code_hash)) {
    const used = await db
      .updateTable("verification_codes")
      .set({ used_at: now.toISOString() })
      .where("id", "=", row.id)
      .where("used_at", "is", null)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) === 1 ? { ok: true } : { ok: false, reason: "missing" };
  }
  const counted = await db
    .updateTable("verification_codes")
    .set((eb) => ({ attempts: eb("attempts", "+", 1) }))
    .where("id", "=", row.id)
    .where("attempts", "<", CODE_MAX_ATTEMPTS)
    .returning("attempts")
    .executeTakeFirst();
  if (!counted) return { ok: false, reason: "exhausted" };
  return { ok: false, reason: "wrong", attemptsLeft: Math.max(0, CODE_MAX_ATTEMPTS - counted.attempts) };
}

/** Deletes every code of a subject (after the sign-up or reset it served is complete). */
export async function deleteCodes(db: Database, purpose: CodePurpose, subject: string): Promise<void> {
  await db.deleteFrom("verification_codes").where("purpose", "=", purpose).where("subject", "=", subject).execute();
}

/** Request limits for the account flows (per client address and per phone or identifier). */
export const LIMITS = {
  signupStartIp: { limit: 20, windowSeconds: 3600 },
  signupStartMobile: { limit: 5, windowSeconds: 3600 },
  codeVerifyIp: { limit: 60, windowSeconds: 600 },
  codeVerifySubject: { limit: 20, windowSeconds: 600 },
  codeResendIp: { limit: 20, windowSeconds: 3600 },
  codeResendMobile: { limit: 10, windowSeconds: 3600 },
  resetIp: { limit: 20, windowSeconds: 3600 },
} as const;

/** True when every key is within its limit. Each key is counted, so all of them see the attempt. */
export async function withinLimits(db: Database, checks: Array<[key: string, rule: { limit: number; windowSeconds: number }]>, now: Date): Promise<boolean> {
  let ok = true;
  for (const [key, rule] of checks) {
    if (!(await withinRateLimit(db, key, rule.limit, rule.windowSeconds, now))) ok = false;
  }
  return ok;
}
