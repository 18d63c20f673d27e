// Who did what, for actions whose own row does not keep it: a deleted group message, a team member removed,
// the Administrator role handed over, an invitation sent, resent or revoked. Written in the caller's
// transaction, so an event exists exactly when what it records was committed. The user is null for an API
// client or the system.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";

type Db = Kysely<DB>;

export interface AuditEvent {
  businessId: number;
  userId: number | null;
  /** What happened, as "<subject>.<verb>": "group-message.deleted", "team.removed"… */
  action: string;
  subjectType: string;
  subjectId?: number | null;
  /** A short JSON or text note (never a secret). */
  detail?: string | null;
}

export async function recordAudit(trx: Db, event: AuditEvent, now: Date): Promise<void> {
  await trx
    .insertInto("audit_events")
    .values({
      business_id: event.businessId,
      user_id: event.userId,
      action: event.action.slice(0, 60),
      subject_type: event.subjectType.slice(0, 40),
      subject_id: event.subjectId ?? null,
      detail: event.detail ? event.detail.slice(0, 500) : null,
      created_at: now.toISOString(),
    })
    .execute();
}

/** The business's latest events, newest first (for tests and support). */
export async function listAudit(db: Db, businessId: number, limit = 50) {
  return db
    .selectFrom("audit_events")
    .select(["id", "user_id", "action", "subject_type", "subject_id", "detail", "created_at"])
    .where("business_id", "=", businessId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
