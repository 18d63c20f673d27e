// The health of the pipelines for the operator console: per channel and provider, what is waiting, what
// is failing (being retried, or failed in the last 24 hours) and what was set aside, with the age of the
// oldest waiting item. Read-only counts over the durable work rows.
import { sql } from "kysely";
import type { Database } from "#db/index";

export interface HealthRow {
  channel: "sms-out" | "sms-in" | "email" | "campaign-fires";
  provider: string;
  waiting: number;
  retrying: number;
  failed24h: number;
  setAside: number;
  oldestWaitingAt: string | null;
}

const n = (v: unknown) => Number(v ?? 0);

export async function pipelineHealth(db: Database, providers: { sms: string; email: string }, now: Date): Promise<HealthRow[]> {
  const at = now.toISOString();
  const dayAgo = new Date(now.getTime() - 86400_000).toISOString();
  const out = await db
    .selectFrom("outbound")
    .select([
      sql<number>`sum(case when status = 'QUEUED' and next_attempt_at <= ${at} then 1 else 0 end)`.as("waiting"),
      sql<number>`sum(case when status in ('QUEUED', 'SENDING') and attempts > 0 then 1 else 0 end)`.as("retrying"),
      sql<number>`sum(case when status = 'FAILED' and created_at >= ${dayAgo} then 1 else 0 end)`.as("failed"),
      sql<number>`sum(case when status = 'UNKNOWN' then 1 else 0 end)`.as("unknown"),
      sql<string | null>`min(case when status = 'QUEUED' and next_attempt_at <= ${at} then next_attempt_at end)`.as("oldest"),
    ])
    .where("status", "in", ["QUEUED", "SENDING", "FAILED", "UNKNOWN"])
    .executeTakeFirst();
  const inbound = await db
    .selectFrom("inbound_messages")
    .select([
      sql<number>`sum(case when processed_at is null then 1 else 0 end)`.as("waiting"),
      sql<number>`sum(case when processed_at is null and attempts > 0 then 1 else 0 end)`.as("retrying"),
      sql<number>`sum(case when kind = 'ERROR' then 1 else 0 end)`.as("setAside"),
      sql<string | null>`min(case when processed_at is null then received_at end)`.as("oldest"),
    ])
    .where((eb) => eb.or([eb("processed_at", "is", null), eb("kind", "=", "ERROR")]))
    .executeTakeFirst();
  const email = await db
    .selectFrom("emails")
    .select([
      sql<number>`sum(case when status = 'QUEUED' and next_attempt_at <= ${at} then 1 else 0 end)`.as("waiting"),
      sql<number>`sum(case when status in ('QUEUED', 'SENDING') and attempts > 0 then 1 else 0 end)`.as("retrying"),
      sql<number>`sum(case when status = 'FAILED' and created_at >= ${dayAgo} then 1 else 0 end)`.as("failed"),
      sql<string | null>`min(case when status = 'QUEUED' and next_attempt_at <= ${at} then next_attempt_at end)`.as("oldest"),
    ])
    .where("status", "in", ["QUEUED", "SENDING", "FAILED"])
    .executeTakeFirst();
  const fires = await db
    .selectFrom("campaign_fires")
    .select([
      sql<number>`sum(case when status = 'DUE' and fire_at <= ${at} then 1 else 0 end)`.as("waiting"),
      sql<number>`sum(case when status = 'SKIPPED' and reason like 'SURVEYERROR%' and done_at >= ${dayAgo} then 1 else 0 end)`.as("failed"),
      sql<string | null>`min(case when status = 'DUE' and fire_at <= ${at} then fire_at end)`.as("oldest"),
    ])
    .where((eb) => eb.or([eb("status", "=", "DUE"), eb("done_at", ">=", dayAgo)]))
    .executeTakeFirst();
  return [
    { channel: "sms-out", provider: providers.sms, waiting: n(out?.waiting), retrying: n(out?.retrying), failed24h: n(out?.failed), setAside: n(out?.unknown), oldestWaitingAt: out?.oldest ?? null },
    { channel: "sms-in", provider: providers.sms, waiting: n(inbound?.waiting), retrying: n(inbound?.retrying), failed24h: 0, setAside: n(inbound?.setAside), oldestWaitingAt: inbound?.oldest ?? null },
    { channel: "email", provider: providers.email, waiting: n(email?.waiting), retrying: n(email?.retrying), failed24h: n(email?.failed), setAside: 0, oldestWaitingAt: email?.oldest ?? null },
    { channel: "campaign-fires", provider: "engine", waiting: n(fires?.waiting), retrying: 0, failed24h: n(fires?.failed), setAside: 0, oldestWaitingAt: fires?.oldest ?? null },
  ];
}
