// The operator audit log: one row for every operator action (sign-in, admin access, stopping or lifting
// a business, unlocking a login, chat work, saved replies), written in the same transaction as the action.
import type { Database } from "#db/index";
import type { Operator } from "./operators.server";

export const AUDIT_PAGE_SIZE = 50;

export type AuditAction =
  | "login"
  | "password.change"
  | "adminaccess.open"
  | "business.disable"
  | "business.suspend"
  | "business.lift"
  | "user.unlock"
  | "chat.assign"
  | "chat.reply"
  | "chat.close"
  | "reply.create"
  | "reply.update"
  | "reply.delete";

export async function audit(
  db: Database,
  operator: Pick<Operator, "id" | "email">,
  entry: { action: AuditAction; businessId?: number | null; target?: string | null; detail?: string | null },
  now: Date,
): Promise<void> {
  await db
    .insertInto("operator_audit")
    .values({
      operator_id: operator.id,
      operator_email: operator.email,
      action: entry.action,
      business_id: entry.businessId ?? null,
      target: entry.target?.slice(0, 300) ?? null,
      detail: entry.detail?.slice(0, 500) ?? null,
      created_at: now.toISOString(),
    })
    .execute();
}

export interface AuditRow {
  id: number;
  operatorEmail: string;
  action: string;
  businessId: number | null;
  businessName: string | null;
  target: string | null;
  detail: string | null;
  createdAt: string;
}

/** The log, newest first, optionally for one business. */
export async function listAudit(db: Database, options: { page: number; businessId?: number | null }): Promise<{ rows: AuditRow[]; page: number; pageCount: number }> {
  let q = db.selectFrom("operator_audit").leftJoin("businesses", "businesses.id", "operator_audit.business_id");
  if (options.businessId != null) q = q.where("operator_audit.business_id", "=", options.businessId);
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const pageCount = Math.max(1, Math.ceil(Number(n) / AUDIT_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const rows = await q
    .select([
      "operator_audit.id",
      "operator_audit.operator_email",
      "operator_audit.action",
      "operator_audit.business_id",
      "businesses.name as businessName",
      "operator_audit.target",
      "operator_audit.detail",
      "operator_audit.created_at",
    ])
    .orderBy("operator_audit.id", "desc")
    .limit(AUDIT_PAGE_SIZE)
    .offset((page - 1) * AUDIT_PAGE_SIZE)
    .execute();
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      operatorEmail: r.operator_email,
      action: r.action,
      businessId: r.business_id === null ? null : Number(r.business_id),
      businessName: r.businessName,
      target: r.target,
      detail: r.detail,
      createdAt: r.created_at,
    })),
    page,
    pageCount,
  };
}
