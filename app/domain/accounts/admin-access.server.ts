// Admin access: a Textcircle administrator signs in as a customer through a single-use link
// that expires after 10 minutes. Only a SHA-256 of the token is stored.
import type { Database } from "#db/index";
import { randomToken, sha256 } from "~/lib/crypto.server";

export const ADMIN_ACCESS_MINUTES = 10;

/** Creates a link token for the user with this email; null when there is no such (enabled) user. */
export async function createAdminAccessToken(db: Database, email: string, now: Date): Promise<{ token: string; userId: number; expiresAt: Date } | null> {
  const user = await db
    .selectFrom("users")
    .select(["id", "disabled"])
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user || user.disabled) return null;
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + ADMIN_ACCESS_MINUTES * 60_000);
  await db.insertInto("admin_access_tokens").values({ id: sha256(token), user_id: user.id, used_at: null, expires_at: expiresAt.toISOString() }).execute();
  return { token, userId: user.id, expiresAt };
}

/**
 * Uses a token: the user id when it is known, unused and unexpired, else null. A conditional UPDATE
 * marks it used, so two requests with the same token can never both succeed.
 */
export async function consumeAdminAccessToken(db: Database, token: string, now: Date): Promise<number | null> {
  if (!/^[A-Za-z0-9_-]{16,128}$/.test(token)) return null;
  const id = sha256(token);
  const at = now.toISOString();
  const used = await db
    .updateTable("admin_access_tokens")
    .set({ used_at: at })
    .where("id", "=", id)
    .where("used_at", "is", null)
    .where("expires_at", ">", at)
    .executeTakeFirst();
  if (Number(used.numUpdatedRows) !== 1) return null;
  const row = await db
    .selectFrom("admin_access_tokens")
    .innerJoin("users", "users.id", "admin_access_tokens.user_id")
    .select(["users.id", "users.disabled"])
    .where("admin_access_tokens.id", "=", id)
    .executeTakeFirst();
  return row && !row.disabled ? row.id : null;
}
