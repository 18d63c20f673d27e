// Emails: queued in the caller's transaction (so an email exists exactly when what it tells was committed),
// sent by the `emails` worker round through the configured provider, retried with backoff when the provider
// says it may help, and kept (with their attachments) for the outbox page.
import { sql } from "kysely";
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { anyFree, claimRows, writeTransaction } from "#db/claim";
import { EmailProviderError, type EmailProvider } from "~/providers/email/types";

type Db = Kysely<DB>;

export interface EmailAttachmentInput {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface EmailInput {
  businessId: number | null;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: EmailAttachmentInput[];
  /** What the email is, for the outbox and for audits: "invoice", "payment-failed"… */
  kind: string;
}

export const EMAIL_MAX_ATTEMPTS = 8;
const LEASE_MS = 2 * 60_000;

/** Queues an email in the caller's transaction (or on its own). Returns its id. */
export async function queueEmail(trx: Db, email: EmailInput, now: Date): Promise<number> {
  const row = await trx
    .insertInto("emails")
    .values({
      business_id: email.businessId,
      kind: email.kind.slice(0, 60),
      to_address: email.to.slice(0, 320),
      subject: email.subject.slice(0, 300),
      text_body: email.text,
      html_body: email.html ?? null,
      attachments: email.attachments?.length
        ? JSON.stringify(email.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, contentBase64: a.content.toString("base64") })))
        : null,
      status: "QUEUED",
      next_attempt_at: now.toISOString(),
      created_at: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

function attachmentsOf(json: string | null): EmailAttachmentInput[] {
  if (!json) return [];
  return (JSON.parse(json) as Array<{ filename: string; contentType: string; contentBase64: string }>).map((a) => ({
    filename: a.filename,
    contentType: a.contentType,
    content: Buffer.from(a.contentBase64, "base64"),
  }));
}

/**
 * One round: claims the emails that are due (and any whose sender died mid-send, once its lease ran out),
 * sends each, and records the outcome. Returns how many it handled.
 */
export async function sendDueEmails(db: Db, provider: EmailProvider, now: Date, limit = 20): Promise<number> {
  const at = now.toISOString();
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  const due = sql`(status = 'QUEUED' and next_attempt_at <= ${at}) or (status = 'SENDING' and lease_until <= ${at})`;
  if (!(await anyFree(db, "emails", due))) return 0;
  const claimed = await writeTransaction(db, (trx) =>
    claimRows<{ id: number | string }>(trx, {
      table: "emails",
      set: sql`status = 'SENDING', lease_until = ${lease}, attempts = attempts + 1`,
      where: sql`(status = 'QUEUED' and next_attempt_at <= ${at}) or (status = 'SENDING' and lease_until <= ${at})`,
      orderBy: sql`next_attempt_at, id`,
      limit,
      returning: sql`id`,
    }),
  );
  for (const { id } of claimed) {
    const email = await db.selectFrom("emails").selectAll().where("id", "=", Number(id)).executeTakeFirst();
    if (!email) continue;
    try {
      const { providerId } = await provider.send({
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        html: email.html_body,
        attachments: attachmentsOf(email.attachments),
        reference: `email-${email.id}`,
      });
      await db
        .updateTable("emails")
        .set({ status: "SENT", provider: provider.name, provider_id: providerId, sent_at: now.toISOString(), lease_until: null, error: null })
        .where("id", "=", email.id)
        .execute();
    } catch (error) {
      const retryable = !(error instanceof EmailProviderError) || error.retryable;
      const giveUp = !retryable || email.attempts >= EMAIL_MAX_ATTEMPTS;
      const backoff = 60_000 * 2 ** Math.min(10, email.attempts);
      await db
        .updateTable("emails")
        .set({
          status: giveUp ? "FAILED" : "QUEUED",
          next_attempt_at: new Date(now.getTime() + backoff).toISOString(),
          lease_until: null,
          provider: provider.name,
          error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        })
        .where("id", "=", email.id)
        .execute();
    }
  }
  return claimed.length;
}

/** The outbox page: every email, newest first, a page at a time. */
export async function listEmails(db: Db, page: number, pageSize = 20) {
  const p = Math.max(1, Math.floor(page) || 1);
  const rows = await db
    .selectFrom("emails")
    .select(["id", "kind", "to_address", "subject", "text_body", "attachments", "status", "created_at", "sent_at", "error"])
    .orderBy("id", "desc")
    .limit(pageSize + 1)
    .offset((p - 1) * pageSize)
    .execute();
  return {
    page: p,
    hasMore: rows.length > pageSize,
    emails: rows.slice(0, pageSize).map((r) => ({
      id: Number(r.id),
      kind: r.kind,
      to: r.to_address,
      subject: r.subject,
      text: r.text_body,
      status: r.status,
      createdAt: r.created_at,
      sentAt: r.sent_at,
      error: r.error,
      attachments: attachmentsOf(r.attachments).map((a, index) => ({ index, filename: a.filename, size: a.content.length })),
    })),
  };
}

/** One attachment of one email, for the outbox's download links. */
export async function emailAttachment(db: Db, emailId: number, index: number): Promise<EmailAttachmentInput | undefined> {
  const row = await db.selectFrom("emails").select("attachments").where("id", "=", emailId).executeTakeFirst();
  return row ? attachmentsOf(row.attachments)[index] : undefined;
}
