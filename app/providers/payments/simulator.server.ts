// The built-in payment simulator: an explicit, visible stand-in for a card processor. It accepts only the
// test card numbers listed in TEST_CARDS, records every payment it is asked for (shown at /paymentsimulator),
// and asks for a 3-D Secure confirmation on its own page. No money moves.
import type { Database } from "#db/index";
import { randomToken } from "~/lib/crypto.server";
import { PaymentProviderError, type CardInput, type ChargeRequest, type ChargeResult, type PaymentProvider, type RefundRequest } from "./types";

/** The simulator's test cards and how each behaves. */
export const TEST_CARDS = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declines",
  "4000002500003155": "authenticates", // asks for 3-D Secure on a payment made in person; later renewals succeed
  "4000000000000341": "fails-later", // the first payment succeeds, every later one is declined
} as const;

type Behaviour = (typeof TEST_CARDS)[keyof typeof TEST_CARDS];

const METHOD_PREFIX = "simcard_";

function behaviourOf(number: string): Behaviour | undefined {
  return (TEST_CARDS as Record<string, Behaviour>)[number];
}

export class SimulatorPaymentProvider implements PaymentProvider {
  readonly name = "simulator";
  readonly cardEntry = "form" as const;
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {}

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const seen = await this.db.selectFrom("sim_payments").selectAll().where("idempotency_key", "=", request.idempotencyKey).executeTakeFirst();
    if (seen) return this.retrieve(seen.reference);

    let number: string;
    let firstUse: boolean;
    if (request.card) {
      number = request.card.number.replace(/\D/g, "");
      firstUse = true;
      if (!behaviourOf(number)) return { status: "declined", reference: null, code: "invalid_card" };
      if (expired(request.card, this.now())) return { status: "declined", reference: null, code: "expired_card" };
    } else if (request.paymentMethod?.startsWith(METHOD_PREFIX)) {
      number = request.paymentMethod.slice(METHOD_PREFIX.length);
      firstUse = false;
    } else {
      return { status: "declined", reference: null, code: "invalid_card" };
    }
    const behaviour = behaviourOf(number);
    let status: "SUCCEEDED" | "DECLINED" | "REQUIRES_ACTION";
    if (behaviour === "succeeds") status = "SUCCEEDED";
    else if (behaviour === "authenticates") status = firstUse ? (request.offSession ? "DECLINED" : "REQUIRES_ACTION") : "SUCCEEDED";
    else if (behaviour === "fails-later") status = firstUse ? "SUCCEEDED" : "DECLINED";
    else status = "DECLINED";
    const reference = `simpay_${randomToken(12).replace(/[^A-Za-z0-9]/g, "")}`;
    await this.db
      .insertInto("sim_payments")
      .values({
        business_id: request.customer.businessId,
        reference,
        idempotency_key: request.idempotencyKey,
        card: number,
        amount_pence: request.amountPence,
        description: `${request.description}\n${request.returnUrl}`.slice(0, 500),
        status,
        created_at: this.now().toISOString(),
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    const stored = await this.db.selectFrom("sim_payments").select("reference").where("idempotency_key", "=", request.idempotencyKey).executeTakeFirstOrThrow();
    return this.retrieve(stored.reference);
  }

  async retrieve(reference: string): Promise<ChargeResult> {
    const row = await this.db.selectFrom("sim_payments").selectAll().where("reference", "=", reference).executeTakeFirst();
    if (!row) return { status: "declined", reference: null, code: "card_declined" };
    const paymentMethod = `${METHOD_PREFIX}${row.card}`;
    const cardLabel = `Visa •••• ${row.card.slice(-4)}`;
    switch (row.status) {
      case "SUCCEEDED":
        return { status: "succeeded", reference, paymentMethod, cardLabel };
      case "REQUIRES_ACTION":
        return { status: "requires_action", reference, paymentMethod, cardLabel, actionUrl: `/paymentsimulator/authenticate/${encodeURIComponent(reference)}` };
      case "ABANDONED":
        return { status: "declined", reference, code: "authentication_failed" };
      default:
        return { status: "declined", reference, code: behaviourOf(row.card) === "authenticates" ? "authentication_required" : "card_declined" };
    }
  }

  /** A refund is recorded as its own line on the simulator's page (a negative amount). */
  async refund(request: RefundRequest): Promise<{ reference: string }> {
    const seen = await this.db.selectFrom("sim_payments").select("reference").where("idempotency_key", "=", request.idempotencyKey).executeTakeFirst();
    if (seen) return { reference: seen.reference };
    const charged = await this.db.selectFrom("sim_payments").selectAll().where("reference", "=", request.reference).executeTakeFirst();
    if (!charged || charged.status !== "SUCCEEDED") throw new PaymentProviderError("no successful payment to refund", { retryable: false });
    const reference = `simrefund_${randomToken(12).replace(/[^A-Za-z0-9]/g, "")}`;
    await this.db
      .insertInto("sim_payments")
      .values({
        business_id: charged.business_id,
        reference,
        idempotency_key: request.idempotencyKey,
        card: charged.card,
        amount_pence: -request.amountPence,
        description: `Refund of ${charged.reference}\n/paymenthistory`,
        status: "REFUNDED",
        created_at: this.now().toISOString(),
      })
      .onConflict((oc) => oc.column("idempotency_key").doNothing())
      .execute();
    const stored = await this.db.selectFrom("sim_payments").select("reference").where("idempotency_key", "=", request.idempotencyKey).executeTakeFirstOrThrow();
    return { reference: stored.reference };
  }
}

/** True when the card's MM/YY expiry is before the current month. */
function expired(card: CardInput, now: Date): boolean {
  const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(card.expiry.trim());
  if (!m) return true;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  return year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

/** The payments the simulator has been asked for, newest first, for its page. */
export async function listSimPayments(db: Database, page: number, pageSize = 25) {
  const p = Math.max(1, Math.floor(page) || 1);
  const rows = await db
    .selectFrom("sim_payments")
    .leftJoin("businesses", "businesses.id", "sim_payments.business_id")
    .select(["sim_payments.id", "sim_payments.reference", "sim_payments.card", "sim_payments.amount_pence", "sim_payments.description", "sim_payments.status", "sim_payments.created_at", "businesses.name as business_name"])
    .orderBy("sim_payments.id", "desc")
    .limit(pageSize + 1)
    .offset((p - 1) * pageSize)
    .execute();
  return { rows: rows.slice(0, pageSize), hasMore: rows.length > pageSize, page: p };
}

/** The payment waiting for 3-D Secure, or undefined. */
export async function findPendingAuthentication(db: Database, reference: string) {
  const row = await db.selectFrom("sim_payments").selectAll().where("reference", "=", reference).executeTakeFirst();
  if (!row) return undefined;
  const [description, returnUrl] = row.description.split("\n");
  return { reference: row.reference, amountPence: row.amount_pence, card: row.card, status: row.status, description, returnUrl: safeReturn(returnUrl) };
}

/** Completes or abandons a 3-D Secure confirmation; only a payment still waiting changes. */
export async function answerAuthentication(db: Database, reference: string, complete: boolean): Promise<void> {
  await db
    .updateTable("sim_payments")
    .set({ status: complete ? "SUCCEEDED" : "ABANDONED" })
    .where("reference", "=", reference)
    .where("status", "=", "REQUIRES_ACTION")
    .execute();
}

/** Only a path on this site: never an address elsewhere. */
function safeReturn(url: string | undefined): string {
  return url && url.startsWith("/") && !url.startsWith("//") && !url.includes("\\") ? url : "/subscription";
}
