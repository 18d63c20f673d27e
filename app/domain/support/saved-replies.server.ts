// Saved replies: answers the support agents use often, kept once and picked when replying to a chat.
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";

import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX } from "./limits";

export { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX };

export interface SavedReply {
  id: number;
  title: string;
  body: string;
  updatedAt: string;
}

function clean(input: { title: string; body: string }): { title: string; body: string } {
  const title = input.title.trim();
  const body = input.body.replace(/\r\n?/g, "\n").trim();
  if (!title || title.length > SAVED_REPLY_TITLE_MAX) throw new AppError("BR025", undefined, { field: "title" });
  if (!body || body.length > SAVED_REPLY_BODY_MAX) throw new AppError("BR025", undefined, { field: "body" });
  return { title, body };
}

export async function listSavedReplies(db: Database): Promise<SavedReply[]> {
  const rows = await db.selectFrom("saved_replies").select(["id", "title", "body", "updated_at"]).orderBy("title").orderBy("id").limit(200).execute();
  return rows.map((r) => ({ id: Number(r.id), title: r.title, body: r.body, updatedAt: r.updated_at }));
}

export async function getSavedReply(db: Database, id: number): Promise<SavedReply> {
  const r = await db.selectFrom("saved_replies").select(["id", "title", "body", "updated_at"]).where("id", "=", id).executeTakeFirst();
  if (!r) throw new AppError("NF001");
  return { id: Number(r.id), title: r.title, body: r.body, updatedAt: r.updated_at };
}

export async function createSavedReply(db: Database, input: { title: string; body: string }, now: Date): Promise<number> {
  const v = clean(input);
  const at = now.toISOString();
  const row = await db.insertInto("saved_replies").values({ ...v, created_at: at, updated_at: at }).returning("id").executeTakeFirstOrThrow();
  return Number(row.id);
}

export async function updateSavedReply(db: Database, id: number, input: { title: string; body: string }, now: Date): Promise<void> {
  const v = clean(input);
  const r = await db.updateTable("saved_replies").set({ ...v, updated_at: now.toISOString() }).where("id", "=", id).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) throw new AppError("NF001");
}

export async function deleteSavedReply(db: Database, id: number): Promise<string> {
  const r = await db.deleteFrom("saved_replies").where("id", "=", id).returning("title").executeTakeFirst();
  if (!r) throw new AppError("NF001");
  return r.title;
}
