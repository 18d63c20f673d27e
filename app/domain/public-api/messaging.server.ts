// Direct messages, group messages and groups through the public API. Sending goes through the same services as
// the app: a DM through sendDirectMessage (credits charged per segment, BR012 without enough; BR027 to a member
// whose opt-in is pending; BR039 to one who opted out), a group message through createMessage (the sending-soon
// pause, quiet hours, the opt-out line). Reads are the app's own queries, scoped to the business.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { getThread, parseThreadCursor, sendDirectMessage } from "~/domain/conversations/conversations.server";
import { createMessage, type PipelineDeps } from "~/domain/messaging/outbound.server";
import { deleteGroupMessage, getGroupMessage, listGroupMessages, type GroupMessageRow } from "~/domain/group-messages/group-messages.server";
import { findGroup } from "~/domain/group-messages/groups.server";
import { groupMembersPage, listGroups } from "~/domain/groups/groups.server";

type Db = Kysely<DB>;

export const GROUP_MEMBERS_PAGE_MAX = 200;

// ---- direct messages ----

export interface ApiThreadItem {
  id: string;
  direction: "in" | "out";
  text: string;
  at: string;
  state: string;
  kind: string | null;
}

/** A member's conversation, oldest first; `earlier` is the cursor for the page before it (null: none). */
export async function getApiConversation(db: Db, businessId: number, memberId: number, opts: { before?: string; limit?: number }, now: Date) {
  const before = opts.before ? parseThreadCursor(opts.before) : null;
  if (opts.before && !before) throw new AppError("UA002", { reason: "cursor" }, { status: 400, field: "before" });
  const thread = await getThread(db, businessId, memberId, { before, limit: opts.limit }, now);
  // A deleted member is gone for the API, as for the members operations.
  if (thread.member.status === "DELETED") throw new AppError("NF001", undefined, { status: 404 });
  return {
    member: thread.member,
    conversation: thread.conversation,
    items: thread.items.map((i): ApiThreadItem => ({ id: i.key, direction: i.direction, text: i.body, at: i.at, state: i.state, kind: i.kind })),
    earlier: thread.earlier,
  };
}

/** Sends a direct message; the same idempotency key twice sends it once (the first message is answered). */
export async function sendApiDirectMessage(deps: PipelineDeps, input: { businessId: number; memberId: number; text: string; idempotencyKey: string | null }) {
  const { messageId, duplicate } = await sendDirectMessage(deps, {
    businessId: input.businessId,
    memberId: input.memberId,
    body: input.text,
    createdBy: null,
    idempotencyKey: input.idempotencyKey ? `api:${input.idempotencyKey}` : null,
  });
  const msg = await deps.db
    .selectFrom("messages")
    .select(["id", "status", "credits", "editable_until", "created_at"])
    .where("business_id", "=", input.businessId)
    .where("id", "=", messageId)
    .executeTakeFirstOrThrow();
  return { messageId: Number(msg.id), memberId: input.memberId, status: msg.status, credits: Number(msg.credits), sendingAt: msg.editable_until, duplicate };
}

// ---- groups ----

/** The business's groups with their subscribed counts; -1 is every subscribed member. */
export async function listApiGroups(db: Db, businessId: number) {
  const groups = await listGroups(db, businessId);
  return groups.map((g) => ({ id: g.id, name: g.type === "ALL" ? null : g.name, type: g.type, subscribed: g.count }));
}

/** A page of a group's members (subscribed and pending), ids ascending after the cursor. */
export async function listApiGroupMembers(db: Db, businessId: number, groupId: number, opts: { after?: number; limit?: number }) {
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), GROUP_MEMBERS_PAGE_MAX);
  const rows = await groupMembersPage(db, businessId, groupId, opts.after ?? 0, limit + 1);
  const page = rows.slice(0, limit).map((r) => ({ id: Number(r.id), phone: r.phone, firstName: r.first_name, fullName: r.full_name, status: r.status }));
  return { items: page, nextCursor: rows.length > limit ? String(page[page.length - 1].id) : null };
}

// ---- group messages ----

export interface ApiGroupMessage {
  id: number;
  text: string;
  contactGroupId: number;
  contactGroupName: string | null;
  status: string;
  sendAt: string;
  editableUntil: string;
  deletable: boolean;
  recipients: number;
  credits: number;
  sent: number;
  delivered: number;
  failed: number;
  replies: number;
}

function groupMessage(r: GroupMessageRow): ApiGroupMessage {
  return {
    id: r.id,
    text: r.body,
    contactGroupId: r.groupId,
    contactGroupName: r.groupName,
    status: r.status,
    sendAt: r.sendAt,
    editableUntil: r.editableUntil,
    deletable: r.editable,
    recipients: r.recipients,
    credits: r.credits,
    sent: r.sent,
    delivered: r.delivered,
    failed: r.failed,
    replies: r.replies,
  };
}

export async function listApiGroupMessages(db: Db, businessId: number, opts: { contactGroupId?: number; page?: number }, now: Date) {
  const { rows, total, page, pageCount } = await listGroupMessages(db, businessId, { groupId: opts.contactGroupId ?? null, page: opts.page }, now);
  return { items: rows.map(groupMessage), total, page, pageCount };
}

export async function getApiGroupMessage(db: Db, businessId: number, messageId: number, now: Date): Promise<ApiGroupMessage> {
  return groupMessage(await getGroupMessage(db, businessId, messageId, now));
}

/**
 * Creates a group message to a group (-1: every subscribed member), sent after the sending-soon pause or at
 * `sendAt` (BR013 when not in the future). BR026 for a group with nobody to send to, BR012 without the credits.
 */
export async function createApiGroupMessage(
  deps: PipelineDeps,
  input: { businessId: number; contactGroupId: number; text: string; sendAt: Date | null; idempotencyKey: string | null },
): Promise<ApiGroupMessage> {
  const now = deps.now();
  if (input.contactGroupId !== -1 && !(await findGroup(deps.db, input.businessId, input.contactGroupId))) throw new AppError("NF001", undefined, { status: 404, field: "contactGroupId" });
  if (input.sendAt && input.sendAt.getTime() <= now.getTime()) throw new AppError("BR013", undefined, { field: "sendAt" });
  const created = await createMessage(deps, {
    businessId: input.businessId,
    kind: "GROUP",
    body: input.text,
    groupId: input.contactGroupId,
    sendAt: input.sendAt,
    createdBy: null,
    idempotencyKey: input.idempotencyKey ? `api:${input.idempotencyKey}` : null,
  });
  return getApiGroupMessage(deps.db, input.businessId, created.messageId, now);
}

/** Deletes a group message not yet issued, refunding its credits (BR015 once it has gone). */
export async function deleteApiGroupMessage(deps: PipelineDeps, businessId: number, messageId: number): Promise<void> {
  await deleteGroupMessage(deps, { businessId, messageId });
}
