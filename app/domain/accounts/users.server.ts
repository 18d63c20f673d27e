// Users: lookups and the login rules (§4 lockout after too many failed logins, UA003-UA005).
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { verifyPassword } from "~/lib/crypto.server";

export interface LoginPolicy {
  maxFailures: number;
  lockoutMinutes: number;
}

export async function findUserByEmail(db: Database, email: string) {
  return db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
}

/**
 * Checks an email and password. Wrong credentials count towards the lockout; a locked or disabled
 * account is refused before the password is even checked. Returns the user id on success.
 * The same answer (UA003) is given for an unknown email and a wrong password.
 */
export async function verifyLogin(db: Database, email: string, password: string, policy: LoginPolicy, now: Date): Promise<number> {
  const user = await findUserByEmail(db, email);
  if (!user) {
    // Spend comparable time so response timing does not reveal which emails exist.
    await verifyPassword(password, "scrypt$16384$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    throw new AppError("UA003");
  }
  const business = await db.selectFrom("businesses").select("status").where("id", "=", user.business_id).executeTakeFirstOrThrow();
  if (user.disabled || business.status === "DISABLED") throw new AppError("UA005");
  if (user.locked_until && user.locked_until > now.toISOString()) {
    throw new AppError("UA004", { minutes: Math.ceil((Date.parse(user.locked_until) - now.getTime()) / 60000) });
  }
  if (!(await verifyPassword(password, user.password_hash))) {
    const failures = user.failed_logins + 1;
    const lock = failures >= policy.maxFailures;
    await db
      .updateTable("users")
      .set({
        failed_logins: lock ? 0 : failures,
        locked_until: lock ? new Date(now.getTime() + policy.lockoutMinutes * 60000).toISOString() : user.locked_until,
      })
      .where("id", "=", user.id)
      .execute();
    if (lock) throw new AppError("UA004", { minutes: policy.lockoutMinutes });
    throw new AppError("UA003", { attemptsLeft: policy.maxFailures - failures });
  }
  await db
    .updateTable("users")
    .set({ failed_logins: 0, locked_until: null, last_login_at: now.toISOString(), last_active_at: now.toISOString() })
    .where("id", "=", user.id)
    .execute();
  return user.id;
}
