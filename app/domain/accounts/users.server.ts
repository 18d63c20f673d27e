// Users: lookups and the login rules (lockout after too many failed logins, UA003-UA005).
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { sha256, verifyPassword } from "~/lib/crypto.server";

export interface LoginPolicy {
  maxFailures: number;
  lockoutMinutes: number;
}

export async function findUserByEmail(db: Database, email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

/** A password hash that matches nothing: checked for unknown emails so they take as long as real ones. */
const NO_USER_HASH = "scrypt$16384$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";

/**
 * Checks an email and password. Returns the user id on success.
 *
 * Every attempt is counted before the password is looked at, in one conditional UPDATE … RETURNING on
 * the user's failure counter, so parallel guesses cannot all read the same count: the attempts past the
 * allowance are refused (UA004) without a password check, and the last allowed wrong one locks the account.
 * A locked or disabled account is refused before the password is checked.
 *
 * An unknown email is answered like a real one: UA003 with the attempts left, then UA004 once the
 * allowance is used up (counted in rate_limits under a hash of the email), so answers do not reveal which
 * emails have accounts.
 */
export async function verifyLogin(db: Database, email: string, password: string, policy: LoginPolicy, now: Date): Promise<number> {
  const user = await findUserByEmail(db, email);
  if (!user) return refuseUnknownEmail(db, email, password, policy, now);
  const business = await db.selectFrom("businesses").select("status").where("id", "=", user.business_id).executeTakeFirstOrThrow();
  // A business an operator disabled or suspended: its logins are refused as disabled (UA005).
  if (user.disabled || business.status === "DISABLED" || business.status === "SUSPENDED") throw new AppError("UA005");

  const at = now.toISOString();
  const counted = await db
    .updateTable("users")
    .set((eb) => ({ failed_logins: eb("failed_logins", "+", 1) }))
    .where("id", "=", user.id)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
    .returning("failed_logins")
    .executeTakeFirst();
  if (!counted) throw await lockedError(db, user.id, policy, now);
  const attempt = counted.failed_logins;
  if (attempt > policy.maxFailures) {
    // A parallel request used up the allowance before this one was counted.
    await lock(db, user.id, policy, now);
    throw await lockedError(db, user.id, policy, now);
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    if (attempt >= policy.maxFailures) {
      await lock(db, user.id, policy, now);
      throw new AppError("UA004", { minutes: policy.lockoutMinutes });
    }
    throw new AppError("UA003", { attemptsLeft: policy.maxFailures - attempt });
  }
  await db
    .updateTable("users")
    .set({ failed_logins: 0, locked_until: null, last_login_at: at, last_active_at: at })
    .where("id", "=", user.id)
    .execute();
  return user.id;
}

/** Locks the account for the lockout period (unless a lock is already running) and starts a fresh count. */
async function lock(db: Database, userId: number, policy: LoginPolicy, now: Date): Promise<void> {
  const at = now.toISOString();
  await db
    .updateTable("users")
    .set({ failed_logins: 0, locked_until: new Date(now.getTime() + policy.lockoutMinutes * 60000).toISOString() })
    .where("id", "=", userId)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", at)]))
    .execute();
}

async function lockedError(db: Database, userId: number, policy: LoginPolicy, now: Date): Promise<AppError> {
  const row = await db.selectFrom("users").select("locked_until").where("id", "=", userId).executeTakeFirst();
  const until = row?.locked_until ? Date.parse(row.locked_until) : now.getTime() + policy.lockoutMinutes * 60000;
  return new AppError("UA004", { minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60000)) });
}

/**
 * The answer for an email without an account, shaped like a real account's: the same password check
 * time, a decreasing number of attempts left, and a lockout of the same length once they are used up.
 * The count lives in rate_limits under a hash of the email; window_start holds when the "lockout" began.
 */
async function refuseUnknownEmail(db: Database, email: string, password: string, policy: LoginPolicy, now: Date): Promise<never> {
  await verifyPassword(password, NO_USER_HASH);
  const key = `login:nouser:${sha256(email.trim().toLowerCase())}`;
  const at = now.toISOString();
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_start: at, count: 1 })
    .onConflict((oc) => oc.column("key").doUpdateSet((eb) => ({ count: eb("rate_limits.count", "+", 1) })))
    .returning(["count", "window_start"])
    .executeTakeFirstOrThrow();
  let count = row.count;
  if (count === policy.maxFailures) {
    await db.updateTable("rate_limits").set({ window_start: at }).where("key", "=", key).execute();
    throw new AppError("UA004", { minutes: policy.lockoutMinutes });
  }
  if (count > policy.maxFailures) {
    const until = Date.parse(row.window_start) + policy.lockoutMinutes * 60000;
    if (until > now.getTime()) throw new AppError("UA004", { minutes: Math.max(1, Math.ceil((until - now.getTime()) / 60000)) });
    // The pretend lockout is over: counting starts again, as it does for a real account.
    await db.updateTable("rate_limits").set({ count: 1, window_start: at }).where("key", "=", key).execute();
    count = 1;
  }
  throw new AppError("UA003", { attemptsLeft: policy.maxFailures - count });
}
