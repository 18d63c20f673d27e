// The support inbox: the operators' side of the support chat. Every chat of every business, the unread
// ones first (a user wrote after an operator last read it); an operator takes a chat, answers it, and
// closes it. Operator actions are audited by the caller (domain/ops/audit.server.ts).
import { sql } from "kysely";
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { cleanChatText, threadMessages, type ChatMessage } from "./chat.server";

export const INBOX_PAGE_SIZE = 25;
export type InboxFilter = "open" | "unread" | "mine" | "closed";

export interface InboxRow {
  id: number;
  businessId: number;
  businessName: string;
  userName: string | null;
  status: "OPEN" | "CLOSED";
  assignedTo: string | null;
  lastText: string | null;
  lastAt: string;
  unread: boolean;
}

/** The latest user message after the operators last read the chat. */
const unreadExpr = sql<number>`case when exists (select 1 from support_messages um where um.session_id = support_sessions.id and um.sender = 'USER' and um.created_at > coalesce(support_sessions.agent_read_at, '')) then 1 else 0 end`;

export async function listInbox(db: Database, options: { filter: InboxFilter; operatorId: number; page: number }): Promise<{ rows: InboxRow[]; total: number; pageCount: number; page: number }> {
  let q = db
    .selectFrom("support_sessions")
    .innerJoin("businesses", "businesses.id", "support_sessions.business_id")
    .leftJoin("users", "users.id", "support_sessions.user_id")
    .leftJoin("operators", "operators.id", "support_sessions.assigned_operator_id");
  if (options.filter === "closed") q = q.where("support_sessions.status", "=", "CLOSED");
  else q = q.where("support_sessions.status", "=", "OPEN");
  if (options.filter === "mine") q = q.where("support_sessions.assigned_operator_id", "=", options.operatorId);
  if (options.filter === "unread") q = q.where(sql<boolean>`${unreadExpr} = 1`);
  const { total } = await q.select((eb) => eb.fn.countAll<number>().as("total")).executeTakeFirstOrThrow();
  const count = Number(total);
  const pageCount = Math.max(1, Math.ceil(count / INBOX_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const rows = await q
    .select([
      "support_sessions.id",
      "support_sessions.business_id",
      "support_sessions.status",
      "support_sessions.created_at",
      "businesses.name as businessName",
      "users.name as userName",
      "operators.name as assignedTo",
      unreadExpr.as("unread"),
      sql<string | null>`(select m.text from support_messages m where m.session_id = support_sessions.id order by m.id desc limit 1)`.as("lastText"),
      sql<string | null>`(select m.created_at from support_messages m where m.session_id = support_sessions.id order by m.id desc limit 1)`.as("lastAt"),
    ])
    .orderBy("unread", "desc")
    .orderBy("support_sessions.id", "desc")
    .limit(INBOX_PAGE_SIZE)
    .offset((page - 1) * INBOX_PAGE_SIZE)
    .execute();
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      businessId: Number(r.business_id),
      businessName: r.businessName,
      userName: r.userName,
      status: r.status === "CLOSED" ? "CLOSED" : "OPEN",
      assignedTo: r.assignedTo,
      lastText: r.lastText,
      lastAt: r.lastAt ?? r.created_at,
      unread: Number(r.unread) === 1,
    })),
    total: count,
    pageCount,
    page,
  };
}

/** Open chats with a user message no operator has read yet (the console's badge). */
export async function unreadChats(db: Database): Promise<number> {
  const row = await db
    .selectFrom("support_sessions")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "OPEN")
    .where(sql<boolean>`${unreadExpr} = 1`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface InboxChat {
  id: number;
  businessId: number;
  businessName: string;
  userName: string | null;
  userEmail: string | null;
  status: "OPEN" | "CLOSED";
  assignedOperatorId: number | null;
  assignedTo: string | null;
  createdAt: string;
  messages: ChatMessage[];
}

/** One chat for an operator (NF001 when there is no such chat). */
export async function getInboxChat(db: Database, sessionId: number): Promise<InboxChat> {
  const s = await db
    .selectFrom("support_sessions")
    .innerJoin("businesses", "businesses.id", "support_sessions.business_id")
    .leftJoin("users", "users.id", "support_sessions.user_id")
    .leftJoin("operators", "operators.id", "support_sessions.assigned_operator_id")
    .select([
      "support_sessions.id",
      "support_sessions.business_id",
      "support_sessions.status",
      "support_sessions.created_at",
      "support_sessions.assigned_operator_id",
      "businesses.name as businessName",
      "users.name as userName",
      "users.email as userEmail",
      "operators.name as assignedTo",
    ])
    .where("support_sessions.id", "=", sessionId)
    .executeTakeFirst();
  if (!s) throw new AppError("NF001");
  return {
    id: Number(s.id),
    businessId: Number(s.business_id),
    businessName: s.businessName,
    userName: s.userName,
    userEmail: s.userEmail,
    status: s.status === "CLOSED" ? "CLOSED" : "OPEN",
    assignedOperatorId: s.assigned_operator_id === null ? null : Number(s.assigned_operator_id),
    assignedTo: s.assignedTo,
    createdAt: s.created_at,
    messages: await threadMessages(db, sessionId),
  };
}

/** An operator has read the chat up to now. */
export async function markChatRead(db: Database, sessionId: number, now: Date): Promise<void> {
  await db.updateTable("support_sessions").set({ agent_read_at: now.toISOString() }).where("id", "=", sessionId).execute();
}

/** The operator takes the chat. Returns its business (for the audit). */
export async function assignChat(db: Database, sessionId: number, operatorId: number): Promise<{ businessId: number }> {
  const row = await db.updateTable("support_sessions").set({ assigned_operator_id: operatorId }).where("id", "=", sessionId).returning("business_id").executeTakeFirst();
  if (!row) throw new AppError("NF001");
  return { businessId: Number(row.business_id) };
}

/**
 * The operator answers: the message goes to the user, the chat is theirs if nobody had it, and it counts
 * as read. A closed chat cannot be answered (BR025). Returns its business (for the audit).
 */
export async function replyToChat(db: Database, sessionId: number, operatorId: number, text: string, now: Date): Promise<{ businessId: number }> {
  const clean = cleanChatText(text);
  const s = await db.selectFrom("support_sessions").select(["business_id", "status", "assigned_operator_id"]).where("id", "=", sessionId).executeTakeFirst();
  if (!s) throw new AppError("NF001");
  if (s.status !== "OPEN") throw new AppError("BR025", undefined, { field: "text" });
  const at = now.toISOString();
  await db.insertInto("support_messages").values({ session_id: sessionId, sender: "AGENT", text: clean, created_at: at, operator_id: operatorId }).execute();
  await db
    .updateTable("support_sessions")
    .set({ agent_read_at: at, assigned_operator_id: s.assigned_operator_id ?? operatorId })
    .where("id", "=", sessionId)
    .execute();
  return { businessId: Number(s.business_id) };
}

/** The operator closes the chat. Returns its business (for the audit). */
export async function closeChat(db: Database, sessionId: number, now: Date): Promise<{ businessId: number }> {
  const row = await db
    .updateTable("support_sessions")
    .set({ status: "CLOSED", closed_at: now.toISOString(), agent_read_at: now.toISOString() })
    .where("id", "=", sessionId)
    .returning("business_id")
    .executeTakeFirst();
  if (!row) throw new AppError("NF001");
  return { businessId: Number(row.business_id) };
}
