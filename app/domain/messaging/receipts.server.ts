// Delivery receipts: the provider's status callbacks, one row per (message, status) — a repeated
// callback changes nothing. The sending pipeline applies them to its message rows.
import type { Database } from "#db/index";
import { businessForNumber } from "./inbound.server";
import { applyDeliveryReceipt } from "./send.server";

export interface DeliveryStatusInput {
  /** The provider's message id (Twilio's MessageSid). */
  providerId: string;
  /** The provider's status word, lower case ("sent", "delivered", "undelivered", "failed"…). */
  status: string;
  errorCode: string | null;
  /** The business number the message was sent from, when the provider says; must belong to a business. */
  from?: string | null;
  receivedAt: Date;
}

export type DeliveryStatusResult = { outcome: "stored"; id: number } | { outcome: "duplicate" } | { outcome: "unknown-number" };

export async function recordDeliveryStatus(deps: { db: Database }, input: DeliveryStatusInput): Promise<DeliveryStatusResult> {
  const { db } = deps;
  let businessId: number | null = null;
  if (input.from) {
    businessId = await businessForNumber(db, input.from);
    if (businessId === null) return { outcome: "unknown-number" };
  }
  const inserted = await db
    .insertInto("delivery_receipts")
    .values({
      business_id: businessId,
      provider_id: input.providerId,
      status: input.status,
      error_code: input.errorCode,
      received_at: input.receivedAt.toISOString(),
    })
    .onConflict((oc) => oc.columns(["provider_id", "status"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return { outcome: "duplicate" };
  // The pipeline's row for this provider id becomes DELIVERED or FAILED (a receipt that arrives before
  // the worker recorded the id is applied by the worker when it does).
  await applyDeliveryReceipt(db, { providerId: input.providerId, status: input.status, errorCode: input.errorCode }, input.receivedAt);
  return { outcome: "stored", id: inserted.id };
}

/** Every receipt for a message, in the order they arrived. */
export async function receiptsFor(db: Database, providerId: string) {
  return db.selectFrom("delivery_receipts").selectAll().where("provider_id", "=", providerId).orderBy("id").execute();
}
