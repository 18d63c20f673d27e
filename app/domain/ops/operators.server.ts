// Operators: Textcircle's own staff, who use the console at /ops. They live in their own table with their
// own sessions, so nothing about a business's users or sessions ever grants operator rights, nor the
// other way round. Created by `npm run ops:create -- EMAIL` with a one-time password that must be
// changed at the first sign-in. Only SHA-256 hashes of session tokens are stored.
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { hashPassword, randomToken, sha256, verifyPassword } from "~/lib/crypto.server";

export const OPERATOR_SESSION_HOURS = 12;
export const OPERATOR_IDLE_MINUTES = 120;
export const OPERATOR_MAX_FAILURES = 5;
export const OPERATOR_LOCKOUT_MINUTES = 15;

export interface Operator {
  id: number;
  email: string;
  name: string;
  mustChangePassword: boolean;
}

/** A one-time password: 18 random URL-safe characters with every character class the rules ask for. */
export function oneTimePassword(): string {
  return `Tc-${randomToken(12)}9a`;
}

/** Whether a password follows the app's rules (8 to 50 characters, upper and lower case, a digit). */
export function strongPassword(password: string): boolean {
  return password.length >= 8 && password.length <= 50 && /[a-z]/.test(password) && /[A-Z]/.test(password) && /\d/.test(password);
}

/**
 * Creates an operator with a one-time password (or gives an existing one a new one-time password,
 * which also ends their sessions). Returns the password to hand over.
 */
export async function createOperator(db: Database, input: { email: string; name?: string }, now: Date): Promise<{ id: number; password: string; created: boolean }> {
  const email = input.email.trim().toLowerCase();
  if (!/^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/.test(email) || email.length > 254) throw new AppError("BR025", undefined, { field: "email" });
  const password = oneTimePassword();
  const hash = await hashPassword(password);
  const existing = await db.selectFrom("operators").select("id").where("email", "=", email).executeTakeFirst();
  if (existing) {
    await db.updateTable("operators").set({ password_hash: hash, must_change_password: 1, failed_logins: 0, locked_until: null }).where("id", "=", existing.id).execute();
    await db.deleteFrom("operator_sessions").where("operator_id", "=", existing.id).execute();
    return { id: Number(existing.id), password, created: false };
  }
  const row = await db
    .insertInto("operators")
    .values({ email, name: (input.name ?? email.split("@")[0]).slice(0, 80), password_hash: hash, must_change_password: 1, created_at: now.toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), password, created: true };
}

/**
 * Checks an operator's email and password: the operator id, or UA003 (wrong; attempts left) / UA004
 * (locked after too many wrong ones). An unknown email answers like a wrong password.
 */
export async function verifyOperatorLogin(db: Database, emailIn: string, password: string, now: Date): Promise<number> {
  const email = emailIn.trim().toLowerCase();
  const op = await db.selectFrom("operators").selectAll().where("email", "=", email).executeTakeFirst();
  if (!op) {
    await verifyPassword(password, "scrypt$16384$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
    throw new AppError("UA003", { attemptsLeft: OPERATOR_MAX_FAILURES });
  }
  const at = now.toISOString();
  if (op.locked_until && op.locked_until > at) {
    throw new AppError("UA004", { minutes: Math.max(1, Math.ceil((Date.parse(op.locked_until) - now.getTime()) / 60000)) });
  }
  const counted = await db
    .updateTable("operators")
    .set((eb) => ({ failed_logins: eb("failed_logins", "+", 1) }))
    .where("id", "=", op.id)
    .returning("failed_logins")
    .executeTakeFirstOrThrow();
  if (!(await verifyPassword(password, op.password_hash))) {
    if (counted.failed_logins >= OPERATOR_MAX_FAILURES) {
      await db
        .updateTable("operators")
        .set({ failed_logins: 0, locked_until: new Date(now.getTime() + OPERATOR_LOCKOUT_MINUTES * 60000).toISOString() })
        .where("id", "=", op.id)
        .execute();
      throw new AppError("UA004", { minutes: OPERATOR_LOCKOUT_MINUTES });
    }
    throw new AppError("UA003", { attemptsLeft: OPERATOR_MAX_FAILURES - counted.failed_logins });
  }
  await db.updateTable("operators").set({ failed_logins: 0, locked_until: null, last_login_at: at }).where("id", "=", op.id).execute();
  return Number(op.id);
}

export async function createOperatorSession(db: Database, operatorId: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + OPERATOR_SESSION_HOURS * 3600_000);
  await db.insertInto("operator_sessions").values({ id: sha256(token), operator_id: operatorId, created_at: now.toISOString(), expires_at: expiresAt.toISOString() }).execute();
  return { token, expiresAt };
}

/** The operator behind a session token, or null (unknown, expired, or idle for too long). */
export async function findOperatorSession(db: Database, token: string, now: Date): Promise<Operator | null> {
  if (!token || token.length > 128) return null;
  const id = sha256(token);
  const row = await db
    .selectFrom("operator_sessions")
    .innerJoin("operators", "operators.id", "operator_sessions.operator_id")
    .select(["operators.id", "operators.email", "operators.name", "operators.must_change_password", "operator_sessions.expires_at", "operator_sessions.created_at", "operator_sessions.last_seen_at"])
    .where("operator_sessions.id", "=", id)
    .executeTakeFirst();
  if (!row || row.expires_at <= now.toISOString()) return null;
  const lastSeen = Date.parse(row.last_seen_at ?? row.created_at);
  if (now.getTime() - lastSeen > OPERATOR_IDLE_MINUTES * 60_000) {
    await db.deleteFrom("operator_sessions").where("id", "=", id).execute();
    return null;
  }
  if (now.getTime() - lastSeen >= 60_000) await db.updateTable("operator_sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", id).execute();
  return { id: Number(row.id), email: row.email, name: row.name, mustChangePassword: row.must_change_password === 1 };
}

export async function deleteOperatorSession(db: Database, token: string): Promise<void> {
  await db.deleteFrom("operator_sessions").where("id", "=", sha256(token)).execute();
}

/** Sets a new password (the one-time password is then spent). BR023 when it is too weak; UA003 when the current one is wrong. */
export async function changeOperatorPassword(db: Database, operatorId: number, current: string, next: string): Promise<void> {
  const op = await db.selectFrom("operators").select("password_hash").where("id", "=", operatorId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(current, op.password_hash))) throw new AppError("UA003", undefined, { field: "current" });
  if (!strongPassword(next)) throw new AppError("BR023", undefined, { field: "password" });
  await db.updateTable("operators").set({ password_hash: await hashPassword(next), must_change_password: 0 }).where("id", "=", operatorId).execute();
}
