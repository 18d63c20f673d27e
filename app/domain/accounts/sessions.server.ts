// Sessions for the web (cookie) and for API clients (bearer token). Only a SHA-256 of each token is
// stored, so a database leak does not leak live sessions.
import type { Database } from "#db/index";
import { compiledQuery } from "#db/compiled";
import { randomToken, sha256 } from "~/lib/crypto.server";

export const WEB_SESSION_DAYS = 30;
export const API_TOKEN_HOURS = 24;
/** A session's last use is written at most this often, so most requests only read. */
export const TOUCH_INTERVAL_MS = 60_000;

export interface SessionUser {
  userId: number;
  businessId: number;
  name: string;
  email: string;
  role: "ADMIN" | "TEAM";
  companyName: string;
  adminAccess: boolean;
  sessionKind: "WEB" | "API";
  lastActiveAt: string | null;
}

export async function createSession(
  db: Database,
  userId: number,
  kind: "WEB" | "API",
  now: Date,
  options: { adminAccess?: boolean } = {},
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + (kind === "WEB" ? WEB_SESSION_DAYS * 86400_000 : API_TOKEN_HOURS * 3600_000));
  await db
    .insertInto("sessions")
    .values({
      id: sha256(token),
      user_id: userId,
      kind,
      admin_access: options.adminAccess ? 1 : 0,
      created_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  return { token, expiresAt };
}

/** The session, its user and business, by the token's hash: read for every signed-in request. */
const sessionRow = compiledQuery((db: Database, sessionId: string) =>
  db
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .innerJoin("businesses", "businesses.id", "users.business_id")
    .select([
      "users.id as userId",
      "users.business_id as businessId",
      "users.name",
      "users.email",
      "users.role",
      "users.disabled",
      "businesses.name as companyName",
      "businesses.status as businessStatus",
      "sessions.admin_access as adminAccess",
      "sessions.kind as sessionKind",
      "sessions.expires_at as expiresAt",
      "sessions.created_at as createdAt",
      "sessions.last_seen_at as lastSeenAt",
      "users.last_active_at as lastActiveAt",
    ])
    .where("sessions.id", "=", sessionId),
);

/**
 * The user behind a token, or null when the token is unknown, expired, idle for longer than
 * `idleMinutes` (web sessions only; API tokens just expire), or the user is disabled. A live web session's
 * last use is recorded at most once a minute.
 */
export async function findSessionUser(db: Database, token: string, now: Date, options: { idleMinutes?: number } = {}): Promise<SessionUser | null> {
  if (!token || token.length > 128) return null;
  const [row] = await sessionRow(db, sha256(token));
  if (!row || row.expiresAt <= now.toISOString() || row.disabled || row.businessStatus === "DISABLED" || row.businessStatus === "SUSPENDED") return null;
  if (row.sessionKind === "WEB") {
    const lastSeen = Date.parse(row.lastSeenAt ?? row.createdAt);
    if (options.idleMinutes !== undefined && now.getTime() - lastSeen > options.idleMinutes * 60_000) {
      await deleteSession(db, token);
      return null;
    }
    if (now.getTime() - lastSeen >= TOUCH_INTERVAL_MS) {
      await db.updateTable("sessions").set({ last_seen_at: now.toISOString() }).where("id", "=", sha256(token)).execute();
    }
  }
  return {
    userId: row.userId,
    businessId: row.businessId,
    name: row.name,
    email: row.email,
    role: row.role,
    companyName: row.companyName,
    adminAccess: row.adminAccess === 1,
    sessionKind: row.sessionKind,
    lastActiveAt: row.lastActiveAt,
  };
}

export async function deleteSession(db: Database, token: string): Promise<void> {
  await db.deleteFrom("sessions").where("id", "=", sha256(token)).execute();
}

export async function deleteUserSessions(db: Database, userId: number): Promise<void> {
  await db.deleteFrom("sessions").where("user_id", "=", userId).execute();
}

/** Records the user's last activity (team "last active"): at most one write a minute per user, not one per page. */
export async function touchUser(db: Database, user: { userId: number; lastActiveAt: string | null }, now: Date): Promise<void> {
  if (user.lastActiveAt && now.getTime() - Date.parse(user.lastActiveAt) < 60_000) return;
  await db.updateTable("users").set({ last_active_at: now.toISOString() }).where("id", "=", user.userId).execute();
}
