// The webhooks page's services: a business's endpoints, its signing secret, the test event and the delivery
// log. Every query names the business, so another business's endpoint or delivery id is simply not found
// (NF001, a 404). Only the Administrator reaches these (the page's `integrations:manage` permission).
import type { Kysely } from "kysely";
import type { DB, WebhookEndpointsTable } from "#db/types";
import type { Selectable } from "kysely";
import { AppError } from "~/lib/errors";
import { recordEvents } from "./events.server";
import { EVENT_TYPES, MAX_ENDPOINTS, ROLL_OVERLAP_HOURS, TEST_EVENT, type DeliveryState, type EventType } from "./model";
import { generateSecret, SECRET_PREFIX } from "./signing.server";
import { endpointUrlProblem } from "./url";

type Db = Kysely<DB>;

export interface EndpointInput {
  url: string;
  description?: string | null;
  events: readonly string[];
}

export interface WebhookSettings {
  /** Accept private and loopback addresses (and http:// to loopback): outside production only. */
  allowPrivate: boolean;
}

export interface Endpoint {
  id: number;
  url: string;
  description: string | null;
  events: EventType[];
  enabled: boolean;
  disabledReason: "MANUAL" | "FAILING" | null;
  consecutiveFailures: number;
  createdAt: string;
}

function toEndpoint(row: Selectable<WebhookEndpointsTable>): Endpoint {
  return {
    id: Number(row.id),
    url: row.url,
    description: row.description,
    events: row.events.split(" ").filter((e): e is EventType => (EVENT_TYPES as readonly string[]).includes(e)),
    enabled: Number(row.enabled) === 1,
    disabledReason: row.disabled_reason,
    consecutiveFailures: Number(row.consecutive_failures),
    createdAt: row.created_at,
  };
}

const notFound = () => new AppError("NF001", undefined, { status: 404 });

/** Runs in the caller's transaction when there is one, else in a new one. */
function inTransaction<T>(db: Db, fn: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

/** Checks and normalises an endpoint's fields; BR025 on the field at fault. */
function clean(input: EndpointInput, settings: WebhookSettings) {
  const url = input.url.trim();
  const problem = endpointUrlProblem(url, settings);
  if (problem) throw new AppError("BR025", { context: `webhookUrl_${problem}` }, { field: "url" });
  const events = EVENT_TYPES.filter((e) => input.events.includes(e));
  if (!events.length) throw new AppError("BR025", { context: "webhookEvents" }, { field: "events" });
  const description = input.description?.trim() || null;
  if (description && description.length > 200) throw new AppError("BR025", { context: "tooLong", max: 200 }, { field: "description" });
  return { url, events: events.join(" "), description };
}

export async function listEndpoints(db: Db, businessId: number): Promise<Endpoint[]> {
  const rows = await db.selectFrom("webhook_endpoints").selectAll().where("business_id", "=", businessId).orderBy("id").execute();
  return rows.map(toEndpoint);
}

export async function getEndpoint(db: Db, businessId: number, id: number): Promise<Endpoint> {
  const row = await db.selectFrom("webhook_endpoints").selectAll().where("business_id", "=", businessId).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound();
  return toEndpoint(row);
}

/**
 * Adds an endpoint. The business's signing secret is made with its first endpoint; `secret` is then returned,
 * once, for the page to show (only the last four characters are ever shown again).
 */
export async function createEndpoint(
  db: Db,
  businessId: number,
  userId: number | null,
  input: EndpointInput,
  settings: WebhookSettings,
  now: Date,
): Promise<{ endpoint: Endpoint; secret: string | null }> {
  const fields = clean(input, settings);
  return inTransaction(db, async (trx) => {
    const count = await trx.selectFrom("webhook_endpoints").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS) throw new AppError("BR025", { context: "webhookLimit", max: MAX_ENDPOINTS });
    // The same address twice would send every event twice (and a form posted again would add it again).
    const same = await trx.selectFrom("webhook_endpoints").select("id").where("business_id", "=", businessId).where("url", "=", fields.url).executeTakeFirst();
    if (same) throw new AppError("BR025", { context: "webhookDuplicate" }, { field: "url" });
    let secret: string | null = null;
    const existing = await trx.selectFrom("webhook_secrets").select("id").where("business_id", "=", businessId).executeTakeFirst();
    if (!existing) {
      secret = generateSecret();
      await trx.insertInto("webhook_secrets").values({ business_id: businessId, secret, created_at: now.toISOString() }).execute();
    }
    const row = await trx
      .insertInto("webhook_endpoints")
      .values({ business_id: businessId, ...fields, enabled: 1, created_by: userId, created_at: now.toISOString(), updated_at: now.toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return { endpoint: toEndpoint(row), secret };
  });
}

export async function updateEndpoint(db: Db, businessId: number, id: number, input: EndpointInput, settings: WebhookSettings, now: Date): Promise<Endpoint> {
  const fields = clean(input, settings);
  const same = await db.selectFrom("webhook_endpoints").select("id").where("business_id", "=", businessId).where("url", "=", fields.url).where("id", "!=", id).executeTakeFirst();
  if (same) throw new AppError("BR025", { context: "webhookDuplicate" }, { field: "url" });
  const row = await db
    .updateTable("webhook_endpoints")
    .set({ ...fields, updated_at: now.toISOString() })
    .where("business_id", "=", businessId)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound();
  return toEndpoint(row);
}

/** Switches an endpoint on (its failure count starts again) or off. */
export async function setEndpointEnabled(db: Db, businessId: number, id: number, enabled: boolean, now: Date): Promise<Endpoint> {
  const row = await db
    .updateTable("webhook_endpoints")
    .set(enabled ? { enabled: 1, disabled_reason: null, consecutive_failures: 0, updated_at: now.toISOString() } : { enabled: 0, disabled_reason: "MANUAL", updated_at: now.toISOString() })
    .where("business_id", "=", businessId)
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound();
  return toEndpoint(row);
}

/** Deletes an endpoint and its delivery log. */
export async function deleteEndpoint(db: Db, businessId: number, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("webhook_endpoints").select("id").where("business_id", "=", businessId).where("id", "=", id).executeTakeFirst();
    if (!row) throw notFound();
    await trx.deleteFrom("webhook_deliveries").where("business_id", "=", businessId).where("endpoint_id", "=", id).execute();
    await trx.deleteFrom("webhook_endpoints").where("business_id", "=", businessId).where("id", "=", id).execute();
  });
}

/** Queues a webhook.test event for one enabled endpoint; the delivery round sends it within seconds. */
export async function sendTestEvent(db: Db, businessId: number, id: number, now: Date): Promise<void> {
  await inTransaction(db, async (trx) => {
    const endpoint = await getEndpoint(trx, businessId, id);
    if (!endpoint.enabled) throw new AppError("BR025", { context: "webhookDisabled" });
    await recordEvents(trx, [{ businessId, type: TEST_EVENT, data: { endpointId: id, message: "This is a test event from Textcircle." } }], now, id);
  });
}

// ---- the secret ----

export interface SecretInfo {
  /** "whsec_…" and the last four characters. */
  hint: string;
  createdAt: string;
  rolledAt: string | null;
  /** Until when the previous secret still signs beside this one (after a roll). */
  previousUntil: string | null;
}

export async function secretInfo(db: Db, businessId: number, now: Date): Promise<SecretInfo | null> {
  const row = await db.selectFrom("webhook_secrets").selectAll().where("business_id", "=", businessId).executeTakeFirst();
  if (!row) return null;
  return {
    hint: `${SECRET_PREFIX}…${row.secret.slice(-4)}`,
    createdAt: row.created_at,
    rolledAt: row.rolled_at,
    previousUntil: row.previous_until && row.previous_until > now.toISOString() ? row.previous_until : null,
  };
}

/**
 * Replaces the signing secret and returns the new one (shown once). For ROLL_OVERLAP_HOURS every delivery
 * carries two signatures, one per secret, so receivers can switch to the new secret without dropping events.
 */
export async function rollSecret(db: Db, businessId: number, now: Date): Promise<string> {
  const secret = generateSecret();
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const row = await trx.selectFrom("webhook_secrets").select(["id", "secret"]).where("business_id", "=", businessId).executeTakeFirst();
    if (!row) {
      await trx.insertInto("webhook_secrets").values({ business_id: businessId, secret, created_at: at }).execute();
      return secret;
    }
    await trx
      .updateTable("webhook_secrets")
      .set({ secret, previous_secret: row.secret, previous_until: new Date(now.getTime() + ROLL_OVERLAP_HOURS * 3_600_000).toISOString(), rolled_at: at })
      .where("id", "=", row.id)
      .execute();
    return secret;
  });
}

// ---- the delivery log ----

export interface DeliveryLogEntry {
  id: number;
  eventId: string;
  eventType: string;
  endpointId: number;
  endpointUrl: string;
  status: DeliveryState;
  attempts: number;
  lastStatusCode: number | null;
  lastDurationMs: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
}

export const LOG_PAGE_SIZE = 20;

/** A page of the business's deliveries, newest first, with the number of pages. */
export async function listDeliveries(db: Db, businessId: number, page: number, pageSize = LOG_PAGE_SIZE): Promise<{ page: number; pageCount: number; entries: DeliveryLogEntry[] }> {
  const total = await db.selectFrom("webhook_deliveries").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).executeTakeFirstOrThrow();
  const pageCount = Math.max(1, Math.ceil(Number(total.n) / pageSize));
  const p = Math.min(pageCount, Math.max(1, Math.floor(page) || 1));
  const rows = await db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhook_endpoints as e", "e.id", "d.endpoint_id")
    .select(["d.id", "d.event_id", "d.event_type", "d.endpoint_id", "e.url", "d.status", "d.attempts", "d.last_status_code", "d.last_duration_ms", "d.last_error", "d.last_attempt_at", "d.next_attempt_at", "d.created_at"])
    .where("d.business_id", "=", businessId)
    .orderBy("d.id", "desc")
    .limit(pageSize)
    .offset((p - 1) * pageSize)
    .execute();
  return {
    page: p,
    pageCount,
    entries: rows.map((r) => ({
      id: Number(r.id),
      eventId: r.event_id,
      eventType: r.event_type,
      endpointId: Number(r.endpoint_id),
      endpointUrl: r.url,
      status: r.status,
      attempts: Number(r.attempts),
      lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
      lastDurationMs: r.last_duration_ms === null ? null : Number(r.last_duration_ms),
      lastError: r.last_error,
      lastAttemptAt: r.last_attempt_at,
      nextAttemptAt: r.status === "PENDING" ? r.next_attempt_at : null,
      createdAt: r.created_at,
    })),
  };
}

/** One delivery with its exact body, for the log's payload view. */
export async function getDelivery(db: Db, businessId: number, id: number) {
  const row = await db.selectFrom("webhook_deliveries").select(["id", "event_id", "event_type", "payload", "status"]).where("business_id", "=", businessId).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound();
  return { id: Number(row.id), eventId: row.event_id, eventType: row.event_type, payload: row.payload, status: row.status };
}

/**
 * "Retry now": a waiting or failed delivery is due at once (a failed one gets one more attempt). A delivery that
 * succeeded or is being sent right now is left alone.
 */
export async function retryDelivery(db: Db, businessId: number, id: number, now: Date): Promise<boolean> {
  const row = await db.selectFrom("webhook_deliveries").select(["id", "status"]).where("business_id", "=", businessId).where("id", "=", id).executeTakeFirst();
  if (!row) throw notFound();
  const result = await db
    .updateTable("webhook_deliveries")
    .set({ status: "PENDING", next_attempt_at: now.toISOString(), completed_at: null })
    .where("business_id", "=", businessId)
    .where("id", "=", id)
    .where("status", "in", ["PENDING", "FAILED"])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
