// Webhook events: one delivery row per subscribed, enabled endpoint of the business, written inside the
// transaction that made the event happen. When that transaction rolls back, no webhook is sent for what did
// not happen; when it commits, the delivery round sends the rows (delivery.server.ts).
//
// The three sources each have one writer: the inbound processing (a text stored and routed), the consent
// service (a member opted out: registered below through its member-change hook) and the outbound pipeline
// (a text's delivery state: accepted by the provider, delivered, failed, undelivered).
import crypto from "node:crypto";
import type { Insertable, Kysely } from "kysely";
import type { DB, WebhookDeliveriesTable } from "#db/types";
import { onMemberChange } from "~/domain/consent/consent.server";
import type { EventType, MessageState } from "./model";

type Db = Kysely<DB>;

export interface WebhookEvent {
  businessId: number;
  type: EventType | "webhook.test";
  /** The event's own fields; only ever this business's data. */
  data: Record<string, unknown>;
}

/** A new event id (the webhook-id header): "msg_" and 128 random bits. */
export function newEventId(): string {
  return `msg_${crypto.randomBytes(16).toString("base64url")}`;
}

/** The JSON body of an event, with its keys always in this order: type, id, timestamp, data. */
export function eventBody(type: string, id: string, at: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, id, timestamp: at.toISOString(), data });
}

const CHUNK = 500;

/**
 * Records events for delivery inside the caller's transaction: one row per event and endpoint of its business
 * that is enabled and subscribed to its type. One query finds the endpoints of every business concerned.
 * Returns the number of delivery rows written.
 */
export async function recordEvents(trx: Db, events: readonly WebhookEvent[], now: Date, onlyEndpointId?: number): Promise<number> {
  if (!events.length) return 0;
  const businessIds = [...new Set(events.map((e) => e.businessId))];
  let query = trx.selectFrom("webhook_endpoints").select(["id", "business_id", "events"]).where("enabled", "=", 1);
  query = businessIds.length === 1 ? query.where("business_id", "=", businessIds[0]) : query.where("business_id", "in", businessIds);
  if (onlyEndpointId !== undefined) query = query.where("id", "=", onlyEndpointId);
  const endpoints = await query.execute();
  if (!endpoints.length) return 0;
  const byBusiness = new Map<number, Array<{ id: number; events: Set<string> }>>();
  for (const e of endpoints) {
    const list = byBusiness.get(Number(e.business_id)) ?? [];
    list.push({ id: Number(e.id), events: new Set(e.events.split(" ")) });
    byBusiness.set(Number(e.business_id), list);
  }
  const at = now.toISOString();
  const rows: Array<Insertable<WebhookDeliveriesTable>> = [];
  for (const event of events) {
    const targets = (byBusiness.get(event.businessId) ?? []).filter((e) => onlyEndpointId !== undefined || e.events.has(event.type));
    if (!targets.length) continue;
    const id = newEventId();
    const payload = eventBody(event.type, id, now, event.data);
    for (const target of targets) {
      rows.push({
        business_id: event.businessId,
        endpoint_id: target.id,
        event_id: id,
        event_type: event.type,
        payload,
        status: "PENDING",
        next_attempt_at: at,
        created_at: at,
      });
    }
  }
  for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto("webhook_deliveries").values(rows.slice(i, i + CHUNK)).execute();
  return rows.length;
}

// ---- the sources ----

export interface InboundEventInput {
  businessId: number;
  inboundId: number;
  from: string;
  to: string | null;
  body: string;
  receivedAt: string;
  memberId: number | null;
  /** What the text was taken to be: STOP, START, HELP, JOIN, MESSAGE… */
  kind: string;
}

/** message.received for texts the inbound processing has just routed (same transaction). */
export function recordInboundEvents(trx: Db, texts: readonly InboundEventInput[], now: Date): Promise<number> {
  return recordEvents(
    trx,
    texts.map((t) => ({
      businessId: t.businessId,
      type: "message.received",
      data: { messageId: t.inboundId, from: t.from, to: t.to, body: t.body, receivedAt: t.receivedAt, memberId: t.memberId, kind: t.kind },
    })),
    now,
  );
}

export interface StatusEventInput {
  businessId: number;
  outboundId: number;
  messageId: number;
  memberId: number | null;
  to: string;
  state: MessageState;
  errorCode: string | null;
}

/** message.status for outbound rows whose state the pipeline has just changed (same transaction). */
export function recordStatusEvents(trx: Db, changes: readonly StatusEventInput[], now: Date): Promise<number> {
  return recordEvents(
    trx,
    changes.map((c) => ({
      businessId: c.businessId,
      type: "message.status",
      data: { messageId: c.messageId, recipientId: c.outboundId, memberId: c.memberId, to: c.to, status: c.state, errorCode: c.errorCode, at: now.toISOString() },
    })),
    now,
  );
}

// member.opted_out: every opt-out goes through the consent service, which calls this inside its transaction.
onMemberChange(async (trx, change, now) => {
  if (change.to !== "OPTED_OUT") return;
  await recordEvents(
    trx,
    [{ businessId: change.businessId, type: "member.opted_out", data: { memberId: change.memberId, phone: change.phone, previousStatus: change.from, optedOutAt: now.toISOString() } }],
    now,
  );
});
