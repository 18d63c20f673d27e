// The payment processor's webhook events, acted on once each. The event's id is written first
// (payment_events, unique per provider and id): an event seen and processed before is answered as a duplicate
// and changes nothing; one whose processing failed half-way (processed_at still empty) is processed again when
// the processor sends it again, which is safe because every step it takes moves a row only once.
//
// What the events do:
//   - a payment's outcome (a PaymentIntent that succeeded or failed, a Checkout page completed or expired): the
//     payment is settled from what the provider answers when asked (the event only says which payment), so a
//     3-D Secure or Checkout payment is recorded even when the owner never comes back to our page, and a
//     renewal paid this way lifts payment-failed as a retry would;
//   - a refund (made by us, or on the processor's dashboard): its credit note is issued, once per refund.
import type { Database } from "#db/index";
import type { PaymentEvent, PaymentProvider } from "~/providers/payments/types";
import { recordProviderRefund } from "./credit-notes.server";
import type { BillingSettings } from "./money";
import { settle } from "./subscription.server";

type Db = Database;

export type EventOutcome = "processed" | "duplicate" | "ignored";

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);
const metadataOf = (o: Record<string, unknown>): Record<string, unknown> => (o.metadata && typeof o.metadata === "object" ? (o.metadata as Record<string, unknown>) : {});

/** Our payment row an event names: by the key we gave the provider (`payment:17`), else by its reference. */
async function paymentFor(db: Db, object: Record<string, unknown>) {
  const key = str(metadataOf(object).textcircle_payment);
  const m = key ? /^payment:(\d{1,12})$/.exec(key) : null;
  if (m) {
    const byKey = await db.selectFrom("payments").selectAll().where("id", "=", Number(m[1])).executeTakeFirst();
    if (byKey) return byKey;
  }
  const ref = str(object.id);
  return ref ? db.selectFrom("payments").selectAll().where("provider_ref", "=", ref).executeTakeFirst() : undefined;
}

export async function handlePaymentEvent(db: Db, provider: PaymentProvider, settings: BillingSettings, event: PaymentEvent, now: Date): Promise<EventOutcome> {
  const at = now.toISOString();
  await db
    .insertInto("payment_events")
    .values({ provider: provider.name, event_id: event.id.slice(0, 255), type: event.type.slice(0, 100), received_at: at, processed_at: null })
    .onConflict((oc) => oc.columns(["provider", "event_id"]).doNothing())
    .execute();
  const row = await db.selectFrom("payment_events").select(["id", "processed_at"]).where("provider", "=", provider.name).where("event_id", "=", event.id.slice(0, 255)).executeTakeFirstOrThrow();
  if (row.processed_at) return "duplicate";

  let outcome: EventOutcome = "ignored";
  const object = event.object;
  switch (event.type) {
    case "payment_intent.succeeded":
    case "payment_intent.payment_failed":
    case "checkout.session.completed":
    case "checkout.session.expired": {
      const payment = await paymentFor(db, object);
      const reference = str(object.id);
      if (!payment || !reference) break;
      if (payment.status === "PENDING" || payment.status === "REQUIRES_ACTION") {
        await settle(db, Number(payment.id), await provider.retrieve(reference), now, settings);
      }
      outcome = "processed";
      break;
    }
    case "refund.created":
    case "refund.updated": {
      const reference = str(object.id);
      const paymentRef = str(object.payment_intent);
      const amount = Number(object.amount);
      if (!reference || !paymentRef || !Number.isSafeInteger(amount) || amount <= 0) break;
      if (object.status === "failed" || object.status === "canceled") break;
      const key = str(metadataOf(object).textcircle_refund);
      const m = key ? /^creditnote:(\d{1,12})$/.exec(key) : null;
      await recordProviderRefund(db, settings, { reference, paymentRef, amountPence: amount, creditNoteId: m ? Number(m[1]) : null }, now);
      outcome = "processed";
      break;
    }
  }
  await db.updateTable("payment_events").set({ processed_at: at }).where("id", "=", row.id).execute();
  return outcome;
}
