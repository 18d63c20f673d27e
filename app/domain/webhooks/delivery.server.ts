// The `webhooks` worker round: claims delivery rows that are due (and any whose sender died mid-post, once its
// lease ran out), signs each body with the business's secret, posts it with a time limit, and records what
// happened. A 2xx is success. A network error, a time-out, 408, 429 and 5xx are tried again after an
// exponential backoff with jitter (or after the Retry-After the endpoint asked for), up to MAX_ATTEMPTS, then
// the delivery fails. Any other answer (4xx, or a 3xx: redirects are not followed) fails it at once. An endpoint
// whose deliveries fail for good AUTO_DISABLE_AFTER times in a row is switched off, and the page says why.
import { sql, type Kysely } from "kysely";
import type { DB } from "#db/types";
import { anyFree, claimRows, writeTransaction } from "#db/claim";
import { WebhookTransportError, type WebhookTransport } from "~/providers/webhooks/types";
import { AUTO_DISABLE_AFTER, isRetryableStatus, MAX_ATTEMPTS, retryAfterMs, retryDelayMs, TIMEOUT_MS } from "./model";
import { signWebhook } from "./signing.server";

type Db = Kysely<DB>;

export interface DeliveryDeps {
  db: Db;
  now: () => Date;
  transport: WebhookTransport;
  /** Overrides for tests: attempts before giving up, failures before switching an endpoint off, the time limit. */
  settings?: { maxAttempts?: number; autoDisableAfter?: number; timeoutMs?: number; random?: () => number };
}

/** How long a claimed delivery is this worker's: well beyond one attempt's time limit. */
const LEASE_MS = 5 * 60_000;
const CONCURRENCY = 8;

function dueWhere(at: string) {
  return sql`(status = 'PENDING' and next_attempt_at <= ${at} and endpoint_id in (select e.id from webhook_endpoints e where e.enabled = 1))
    or (status = 'SENDING' and lease_until <= ${at})`;
}

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
async function signingSecrets(db: Db, businessId: number, now: Date): Promise<string[]> {
  const row = await db.selectFrom("webhook_secrets").select(["secret", "previous_secret", "previous_until"]).where("business_id", "=", businessId).executeTakeFirst();
  if (!row) return [];
  return row.previous_secret && row.previous_until && row.previous_until > now.toISOString() ? [row.secret, row.previous_secret] : [row.secret];
}

type Outcome =
  | { kind: "ok"; status: number; durationMs: number }
  | { kind: "retry" | "fail"; status: number | null; durationMs: number; error: string; retryAfter?: string | null };

/** One round. Returns how many deliveries it attempted. */
export async function deliverDue(deps: DeliveryDeps, limit = 25): Promise<number> {
  const { db } = deps;
  const now = deps.now();
  const at = now.toISOString();
  if (!(await anyFree(db, "webhook_deliveries", dueWhere(at)))) return 0;
  const lease = new Date(now.getTime() + LEASE_MS).toISOString();
  const claimed = await writeTransaction(db, (trx) =>
    claimRows<{ id: number | string }>(trx, {
      table: "webhook_deliveries",
      set: sql`status = 'SENDING', lease_until = ${lease}, attempts = attempts + 1`,
      where: dueWhere(at),
      orderBy: sql`next_attempt_at, id`,
      limit,
      returning: sql`id`,
    }),
  );
  const ids = claimed.map((c) => Number(c.id));
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, ids.length) }, async () => {
      while (next < ids.length) await deliverOne(deps, ids[next++], lease);
    }),
  );
  return ids.length;
}

async function deliverOne(deps: DeliveryDeps, id: number, lease: string): Promise<void> {
  const { db } = deps;
  const row = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["d.id", "d.business_id", "d.endpoint_id", "d.event_id", "d.payload", "d.attempts", "e.url"])
    .where("d.id", "=", id)
    .where("d.status", "=", "SENDING")
    .where("d.lease_until", "=", lease)
    .executeTakeFirst();
  if (!row) return;
  const signedAt = deps.now();
  const secrets = await signingSecrets(db, Number(row.business_id), signedAt);
  let outcome: Outcome;
  if (!secrets.length) {
    outcome = { kind: "fail", status: null, durationMs: 0, error: "no signing secret" };
  } else {
    const headers = {
      "content-type": "application/json",
      "user-agent": "Textcircle-Webhooks/1.0",
      ...signWebhook(secrets, row.event_id, row.payload, signedAt),
    };
    try {
      const res = await deps.transport.post({ url: row.url, headers, body: row.payload, timeoutMs: deps.settings?.timeoutMs ?? TIMEOUT_MS });
      if (res.status >= 200 && res.status < 300) outcome = { kind: "ok", status: res.status, durationMs: res.durationMs };
      else outcome = { kind: isRetryableStatus(res.status) ? "retry" : "fail", status: res.status, durationMs: res.durationMs, error: `HTTP ${res.status}`, retryAfter: res.retryAfter };
    } catch (error) {
      const blocked = error instanceof WebhookTransportError && error.blocked;
      outcome = {
        kind: blocked ? "fail" : "retry",
        status: null,
        durationMs: error instanceof WebhookTransportError ? error.durationMs : 0,
        error: (error instanceof Error ? error.message : String(error)).slice(0, 300),
      };
    }
  }
  await record(deps, { id, endpointId: Number(row.endpoint_id), attempts: Number(row.attempts), lease }, outcome);
}

async function record(deps: DeliveryDeps, d: { id: number; endpointId: number; attempts: number; lease: string }, outcome: Outcome): Promise<void> {
  const now = deps.now();
  const at = now.toISOString();
  const maxAttempts = deps.settings?.maxAttempts ?? MAX_ATTEMPTS;
  const giveUp = outcome.kind === "fail" || (outcome.kind === "retry" && d.attempts >= maxAttempts);
  await deps.db.transaction().execute(async (trx) => {
    const mine = trx.updateTable("webhook_deliveries").where("id", "=", d.id).where("status", "=", "SENDING").where("lease_until", "=", d.lease);
    const common = { lease_until: null, last_attempt_at: at, last_status_code: outcome.status, last_duration_ms: outcome.durationMs };
    let changed;
    if (outcome.kind === "ok") {
      changed = await mine.set({ ...common, status: "SUCCEEDED", last_error: null, completed_at: at }).executeTakeFirst();
    } else if (!giveUp) {
      const wait = retryAfterMs(outcome.retryAfter, now) ?? retryDelayMs(d.attempts, deps.settings?.random);
      changed = await mine.set({ ...common, status: "PENDING", last_error: outcome.error, next_attempt_at: new Date(now.getTime() + wait).toISOString() }).executeTakeFirst();
    } else {
      changed = await mine.set({ ...common, status: "FAILED", last_error: outcome.error, completed_at: at }).executeTakeFirst();
    }
    if (Number(changed.numUpdatedRows) === 0) return;
    if (outcome.kind === "ok") {
      await trx.updateTable("webhook_endpoints").set({ consecutive_failures: 0 }).where("id", "=", d.endpointId).where("consecutive_failures", ">", 0).execute();
    } else if (giveUp) {
      // Failed for good: one more in a row. At the threshold the endpoint is switched off until someone switches
      // it on again on the webhooks page (which says why it is off).
      const threshold = deps.settings?.autoDisableAfter ?? AUTO_DISABLE_AFTER;
      await trx
        .updateTable("webhook_endpoints")
        .set((eb) => ({ consecutive_failures: eb("consecutive_failures", "+", 1), updated_at: at }))
        .where("id", "=", d.endpointId)
        .execute();
      await trx
        .updateTable("webhook_endpoints")
        .set({ enabled: 0, disabled_reason: "FAILING", updated_at: at })
        .where("id", "=", d.endpointId)
        .where("enabled", "=", 1)
        .where("consecutive_failures", ">=", threshold)
        .execute();
    }
  });
}
