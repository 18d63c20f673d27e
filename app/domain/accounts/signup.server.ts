// Sign-up: Info -> Validate (PIN texted to the mobile) -> Secure (password) -> terms, then the
// business and its administrator are created together. The pending sign-up lives in `signups`, keyed by
// the SHA-256 of a random token the visitor keeps in an HttpOnly cookie.
import crypto from "node:crypto";
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { hashPassword, randomToken, sha256 } from "~/lib/crypto.server";
import { enqueuePlatformText } from "~/domain/messaging/platform.server";
import { grantTrialCredits } from "~/domain/billing/credits.server";
import { checkCode, deleteCodes, issueCode, type CheckResult, type IssueResult } from "./codes.server";

export const SIGNUP_TTL_MINUTES = 60;
export const TRIAL_CREDITS = 50;
export const TRIAL_DAYS = 30;
export const REFERRAL_CODE_LENGTH = 8;
const REFERRAL_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

export interface SignupInfo {
  company: string;
  name: string;
  email: string;
  /** E.164, already checked as a UK mobile. */
  mobile: string;
  referralCode?: string | null;
}

export type Signup = NonNullable<Awaited<ReturnType<typeof findSignup>>>;

export function companyKey(name: string): string {
  return name.trim().replace(/\s+/g, " ").toLowerCase();
}

/** The business a referral code belongs to (case sensitive), or null. */
export async function findReferrer(db: Database, code: string): Promise<{ id: number; name: string } | null> {
  if (!code || code.length > 40) return null;
  const row = await db.selectFrom("businesses").select(["id", "name", "referral_code"]).where("referral_code", "=", code).executeTakeFirst();
  // The rule is case sensitive, whatever collation the database uses.
  return row && row.referral_code === code ? { id: row.id, name: row.name } : null;
}

/** BR018 email, BR019 mobile, BR020 business name: each on its own field. */
export async function assertAvailable(db: Database, info: Pick<SignupInfo, "company" | "email" | "mobile">): Promise<void> {
  if (await db.selectFrom("users").select("id").where("email", "=", info.email.trim().toLowerCase()).executeTakeFirst()) {
    throw new AppError("BR018", undefined, { field: "email" });
  }
  if (await db.selectFrom("users").select("id").where("mobile", "=", info.mobile).executeTakeFirst()) {
    throw new AppError("BR019", undefined, { field: "mobile" });
  }
  if (await db.selectFrom("businesses").select("id").where("name_key", "=", companyKey(info.company)).executeTakeFirst()) {
    throw new AppError("BR020", undefined, { field: "company" });
  }
}

/**
 * Step 1: checks the details are free, replaces any earlier pending sign-up of this visitor and
 * stores the new one. Returns the token for the visitor's cookie.
 */
export async function startSignup(db: Database, info: SignupInfo, previousToken: string | null, now: Date): Promise<{ token: string; signupId: string; expiresAt: Date }> {
  await assertAvailable(db, info);
  const referral = info.referralCode ? await findReferrer(db, info.referralCode) : null;
  const token = randomToken(32);
  const signupId = sha256(token);
  const expiresAt = new Date(now.getTime() + SIGNUP_TTL_MINUTES * 60_000);
  await db.transaction().execute(async (trx) => {
    if (previousToken) await removeSignup(trx, sha256(previousToken));
    await trx
      .insertInto("signups")
      .values({
        id: signupId,
        company: info.company.trim(),
        name: info.name.trim(),
        email: info.email.trim().toLowerCase(),
        mobile: info.mobile,
        referral_code: referral ? info.referralCode! : null,
        verified_at: null,
        password_hash: null,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
  });
  return { token, signupId, expiresAt };
}

/** The visitor's pending sign-up, unless it has expired. */
export async function findSignup(db: Database, token: string | null, now: Date) {
  if (!token || token.length > 128) return null;
  const row = await db.selectFrom("signups").selectAll().where("id", "=", sha256(token)).executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return null;
  return row;
}

async function removeSignup(db: Database, signupId: string): Promise<void> {
  await deleteCodes(db, "SIGNUP", signupId);
  await db.deleteFrom("signups").where("id", "=", signupId).execute();
}

/** Texts a new PIN to the sign-up's mobile, within the re-issue cap. `message` words the text. */
export async function sendSignupPin(
  db: Database,
  /** The platform's system sender (config.systemSender). */
  sender: string,
  signup: { id: string; mobile: string },
  maxIssues: number,
  message: (code: string) => string,
  now: Date,
): Promise<IssueResult> {
  const issued = await issueCode(db, "SIGNUP", signup.id, maxIssues, now);
  // Queued in the pipeline, which sends it at top priority and retries it.
  if (issued.ok) await enqueuePlatformText(db, { to: signup.mobile, body: message(issued.code), from: sender, now });
  return issued;
}

/** Step 2: the PIN. On success the sign-up is marked verified. */
export async function verifySignupPin(db: Database, signup: { id: string }, code: string, now: Date): Promise<CheckResult> {
  const result = await checkCode(db, "SIGNUP", signup.id, code, now);
  if (result.ok) await db.updateTable("signups").set({ verified_at: now.toISOString() }).where("id", "=", signup.id).execute();
  return result;
}

/** Step 3: the password (already checked against the rules), kept hashed until the terms are accepted. */
export async function setSignupPassword(db: Database, signup: { id: string; verified_at: string | null }, password: string): Promise<void> {
  if (!signup.verified_at) throw new AppError("BR008", undefined, { field: "code" });
  const hash = await hashPassword(password);
  await db.updateTable("signups").set({ password_hash: hash }).where("id", "=", signup.id).execute();
}

export function newReferralCode(): string {
  let out = "";
  for (let i = 0; i < REFERRAL_CODE_LENGTH; i++) out += REFERRAL_ALPHABET[crypto.randomInt(0, REFERRAL_ALPHABET.length)];
  return out;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return e?.code === "23505" || e?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/i.test(e?.message ?? "");
}

/**
 * Terms accepted: creates the business (trial, 50 credits, 30 days, onboarding NEW, referral link)
 * and its administrator in one transaction, then removes the pending sign-up. Returns the new ids.
 */
export async function completeSignup(db: Database, signup: Signup, termsVersion: string, now: Date): Promise<{ businessId: number; userId: number }> {
  if (!signup.verified_at) throw new AppError("BR008", undefined, { field: "code" });
  if (!signup.password_hash) throw new AppError("BR023", undefined, { field: "password" });
  const passwordHash = signup.password_hash;
  for (let attempt = 0; ; attempt++) {
    try {
      return await db.transaction().execute(async (trx) => {
        await assertAvailable(trx, signup);
        const referrer = signup.referral_code ? await findReferrer(trx, signup.referral_code) : null;
        let referralCode = newReferralCode();
        while (await trx.selectFrom("businesses").select("id").where("referral_code", "=", referralCode).executeTakeFirst()) referralCode = newReferralCode();
        const business = await trx
          .insertInto("businesses")
          .values({
            name: signup.company,
            name_key: companyKey(signup.company),
            onboarding: "NEW",
            status: "TRIAL",
            trial_credits: 0, // granted through the ledger below
            trial_ends_at: new Date(now.getTime() + TRIAL_DAYS * 86400_000).toISOString(),
            referral_code: referralCode,
            referred_by_id: referrer?.id ?? null,
            terms_version: termsVersion,
            created_at: now.toISOString(),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        const user = await trx
          .insertInto("users")
          .values({
            business_id: business.id,
            name: signup.name,
            email: signup.email,
            mobile: signup.mobile,
            password_hash: passwordHash,
            role: "ADMIN",
            created_at: now.toISOString(),
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await grantTrialCredits(trx, Number(business.id), TRIAL_CREDITS, now);
        await removeSignup(trx, signup.id);
        return { businessId: business.id, userId: user.id };
      });
    } catch (error) {
      if (error instanceof AppError || !isUniqueViolation(error) || attempt >= 2) {
        // A race with another sign-up: say which detail was taken.
        if (!(error instanceof AppError) && isUniqueViolation(error)) await assertAvailable(db, signup);
        throw error;
      }
    }
  }
}

export async function hasAcceptedTerms(db: Database, businessId: number, version: string): Promise<boolean> {
  const row = await db.selectFrom("businesses").select("terms_version").where("id", "=", businessId).executeTakeFirst();
  return row?.terms_version === version;
}

/** /termsupdated: the business accepts the current terms. */
export async function acceptTerms(db: Database, businessId: number, version: string): Promise<void> {
  await db.updateTable("businesses").set({ terms_version: version }).where("id", "=", businessId).execute();
}
