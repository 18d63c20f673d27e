// Support chat (the support/session and support/messages API): each signed-in user has at most one
// open support session with an agent; its messages are read newest first.
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";

import { SUPPORT_MESSAGE_MAX } from "./limits";

export { SUPPORT_MESSAGE_MAX };
export const SUPPORT_MESSAGES_LIMIT_MAX = 50;

export type SupportSender = "USER" | "AGENT";

export interface SupportMessage {
  text: string;
  sender: SupportSender;
  createdAt: string;
}

interface Caller {
  userId: number;
  businessId: number;
}

/**
 * The caller's open support session. The oldest open one wins, so that two calls racing to create
 * one (possible on PostgreSQL, where nothing makes the pair unique) still agree on the same id.
 */
export async function findOpenSupportSession(db: Database, caller: Caller): Promise<number | null> {
  const row = await db
    .selectFrom("support_sessions")
    .select("id")
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .where("status", "=", "OPEN")
    .orderBy("id", "asc")
    .limit(1)
    .executeTakeFirst();
  return row ? row.id : null;
}

/** Finds the caller's open support session or starts one; returns its id (the chatSessionId). */
export async function getOrCreateSupportSession(db: Database, caller: Caller, now: Date): Promise<number> {
  const existing = await findOpenSupportSession(db, caller);
  if (existing !== null) return existing;
  await db
    .insertInto("support_sessions")
    .values({ business_id: caller.businessId, user_id: caller.userId, status: "OPEN", created_at: now.toISOString() })
    .execute();
  const id = await findOpenSupportSession(db, caller);
  if (id === null) throw new Error("support session was not created");
  return id;
}

/** Closes a session of the caller's (an ended chat). Another business's or user's id is not found (NF001). */
export async function closeSupportSession(db: Database, caller: Caller, sessionId: number): Promise<void> {
  const result = await db
    .updateTable("support_sessions")
    .set({ status: "CLOSED" })
    .where("id", "=", sessionId)
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw new AppError("NF001");
}

/** Adds a message to one of the caller's sessions (the agent side arrives with the chat screen). */
export async function addSupportMessage(
  db: Database,
  caller: Caller,
  sessionId: number,
  sender: SupportSender,
  text: string,
  now: Date,
): Promise<void> {
  const clean = text.trim();
  if (!clean) throw new AppError("BR025", undefined, { field: "text" });
  if (clean.length > SUPPORT_MESSAGE_MAX) throw new AppError("BR025", undefined, { field: "text" });
  const owned = await db
    .selectFrom("support_sessions")
    .select("id")
    .where("id", "=", sessionId)
    .where("business_id", "=", caller.businessId)
    .where("user_id", "=", caller.userId)
    .executeTakeFirst();
  if (!owned) throw new AppError("NF001");
  await db.insertInto("support_messages").values({ session_id: sessionId, sender, text: clean, created_at: now.toISOString() }).execute();
}

/** The latest messages of the caller's open session, newest first; none when no session is open. */
export async function getSupportMessages(db: Database, caller: Caller, limit: number): Promise<SupportMessage[]> {
  const n = Math.min(Math.max(1, Math.trunc(limit)), SUPPORT_MESSAGES_LIMIT_MAX);
  const sessionId = await findOpenSupportSession(db, caller);
  if (sessionId === null) return [];
  const rows = await db
    .selectFrom("support_messages")
    .select(["text", "sender", "created_at"])
    .where("session_id", "=", sessionId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(n)
    .execute();
  return rows.map((r) => ({ text: r.text, sender: r.sender, createdAt: r.created_at }));
}
