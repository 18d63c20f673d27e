// The built-in SMS simulator: an explicit, visible stand-in for a real provider. It hands out numbers
// from Ofcom's drama range (07700 900xxx) and "delivers" texts to virtual phones kept in the database,
// which a person sees at /simulator.
import type { Database } from "#db/index";
import { randomToken } from "~/lib/crypto.server";
import { SmsProviderError, type FoundMessage, type OutboundSms, type ReferenceQuery, type SendOutcome, type SendResult, type SmsProvider } from "./types";

export const SIM_FAIL_NUMBER_REQUESTS = "fail_number_requests";
/** Fault injection for the sending pipeline (sim_settings keys). */
export const SIM_FAULT_TRANSIENT_NEXT = "fault_transient_next"; // the next N texts are refused with a retryable 503
export const SIM_FAULT_TRANSIENT_RATE = "fault_transient_rate"; // 0..1: share of texts refused with a retryable 503
export const SIM_FAULT_TIMEOUT_NEXT = "fault_timeout_next"; // the next N texts are accepted but the caller sees a time-out
export const SIM_FAULT_INVALID_NUMBERS = "fault_invalid_numbers"; // comma-separated: permanent 21211
export const SIM_FAULT_OPTED_OUT_NUMBERS = "fault_opted_out_numbers"; // comma-separated: permanent 21610 (recipient sent STOP)
export const SIM_FAULT_RECEIPT_FAILURE_RATE = "fault_receipt_failure_rate"; // 0..1: accepted, receipt says undelivered
export const SIM_RATE_PER_SECOND = "rate_per_second"; // per from-number; 0 or unset = unlimited

/**
 * Simulator message ids: "SM", a time prefix, a counter and random letters. Increasing ids keep the
 * unique index (and the pipeline's provider_id index) appending instead of touching random pages.
 */
let sidCounter = 0;
function nextSid(): string {
  sidCounter = (sidCounter + 1) % 1679616;
  return `SM${Date.now().toString(36).padStart(9, "0")}${sidCounter.toString(36).padStart(4, "0")}${randomToken(9)}`;
}

interface SimFaults {
  transientNext: number;
  transientRate: number;
  timeoutNext: number;
  invalidNumbers: Set<string>;
  optedOutNumbers: Set<string>;
  receiptFailureRate: number;
  ratePerSecond: number;
}

async function loadSimFaults(db: Database): Promise<SimFaults> {
  const rows = await db.selectFrom("sim_settings").select(["key", "value"]).where((eb) => eb.or([eb("key", "like", "fault_%"), eb("key", "=", SIM_RATE_PER_SECOND)])).execute();
  const v = new Map(rows.map((r) => [r.key, r.value]));
  const num = (k: string) => {
    const n = Number(v.get(k) ?? 0);
    return Number.isFinite(n) && n > 0 ? n : 0;
  };
  const list = (k: string) => new Set((v.get(k) ?? "").split(",").map((x) => x.trim()).filter(Boolean));
  return {
    transientNext: Math.floor(num(SIM_FAULT_TRANSIENT_NEXT)),
    transientRate: Math.min(1, num(SIM_FAULT_TRANSIENT_RATE)),
    timeoutNext: Math.floor(num(SIM_FAULT_TIMEOUT_NEXT)),
    invalidNumbers: list(SIM_FAULT_INVALID_NUMBERS),
    optedOutNumbers: list(SIM_FAULT_OPTED_OUT_NUMBERS),
    receiptFailureRate: Math.min(1, num(SIM_FAULT_RECEIPT_FAILURE_RATE)),
    ratePerSecond: num(SIM_RATE_PER_SECOND),
  };
}
/** Numbers 07700 900000-900999; the demo business is given 900123. */
const FIRST = 900200;
const LAST = 900999;

export class SimulatorSmsProvider implements SmsProvider {
  readonly name = "simulator" as const;
  /** Per from-number counters for the simulated rate limit (one-second windows). */
  private readonly rateWindows = new Map<string, { second: number; count: number }>();
  constructor(private readonly db: Database, private readonly now: () => Date = () => new Date()) {}

  async send(message: OutboundSms): Promise<SendResult> {
    const [outcome] = await this.sendMany([message]);
    if (!outcome.ok) throw outcome.error;
    return outcome.result;
  }

  /**
   * Sends a batch in one database transaction, applying the configured faults (see SIM_FAULT_*):
   * transient refusals (HTTP 5xx), time-outs after acceptance (the text IS delivered but the caller
   * is told it timed out, so it must reconcile), permanent refusals per number, a per-number rate
   * limit and failed delivery receipts. Each text keeps the caller's reference for findByReferences.
   */
  async sendMany(messages: OutboundSms[]): Promise<SendOutcome[]> {
    const faults = await loadSimFaults(this.db);
    const at = this.now();
    const createdAt = at.toISOString();
    const outcomes: SendOutcome[] = [];
    const rows: Array<{ sid: string; direction: "TO_PHONE"; phone: string; business_number: string; body: string; status: string; created_at: string; reference: string | null; error_code: string | null }> = [];
    let transientLeft = faults.transientNext;
    let timeoutLeft = faults.timeoutNext;
    const second = Math.floor(at.getTime() / 1000);
    for (const m of messages) {
      if (transientLeft > 0 || (faults.transientRate > 0 && Math.random() < faults.transientRate)) {
        if (transientLeft > 0) transientLeft--;
        outcomes.push({ ok: false, error: new SmsProviderError("Simulated provider outage (HTTP 503)", { retryable: true, providerCode: "503", reason: "unavailable", httpStatus: 503 }) });
        continue;
      }
      if (faults.optedOutNumbers.has(m.to)) {
        outcomes.push({ ok: false, error: new SmsProviderError("Attempt to send to unsubscribed recipient", { retryable: false, providerCode: "21610", reason: "opted-out" }) });
        continue;
      }
      if (faults.invalidNumbers.has(m.to)) {
        outcomes.push({ ok: false, error: new SmsProviderError("The 'To' number is not a valid phone number", { retryable: false, providerCode: "21211", reason: "invalid-number" }) });
        continue;
      }
      if (faults.ratePerSecond > 0) {
        const key = m.from;
        const window = this.rateWindows.get(key);
        if (!window || window.second !== second) this.rateWindows.set(key, { second, count: 1 });
        else if (window.count >= faults.ratePerSecond) {
          outcomes.push({ ok: false, error: new SmsProviderError("Too many requests for this number", { retryable: true, providerCode: "20429", reason: "rate-limited", httpStatus: 429 }) });
          continue;
        } else window.count++;
      }
      const sid = nextSid();
      const failed = faults.receiptFailureRate > 0 && Math.random() < faults.receiptFailureRate;
      rows.push({
        sid,
        direction: "TO_PHONE",
        phone: m.to,
        business_number: m.from,
        body: m.body,
        status: failed ? "undelivered" : "delivered",
        created_at: createdAt,
        reference: m.reference ?? null,
        error_code: failed ? "30003" : null,
      });
      if (timeoutLeft > 0) {
        timeoutLeft--;
        outcomes.push({ ok: false, error: new SmsProviderError("Simulated time-out after acceptance", { retryable: true, providerCode: "TIMEOUT", reason: "timeout", outcomeUnknown: true }) });
        continue;
      }
      outcomes.push({ ok: true, result: failed ? { providerId: sid, status: "failed", errorCode: "30003" } : { providerId: sid, status: "delivered" } });
    }
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 500) await trx.insertInto("sim_messages").values(rows.slice(i, i + 500)).execute();
      if (transientLeft !== faults.transientNext) await setSimSetting(trx, SIM_FAULT_TRANSIENT_NEXT, String(transientLeft));
      if (timeoutLeft !== faults.timeoutNext) await setSimSetting(trx, SIM_FAULT_TIMEOUT_NEXT, String(timeoutLeft));
    });
    return outcomes;
  }

  /** Reconciliation: texts this simulator accepted with these references. */
  async findByReferences(queries: ReferenceQuery[]): Promise<Map<string, FoundMessage>> {
    const found = new Map<string, FoundMessage>();
    const refs = queries.map((q) => q.reference);
    for (let i = 0; i < refs.length; i += 500) {
      const rows = await this.db
        .selectFrom("sim_messages")
        .select(["sid", "reference", "status", "error_code"])
        .where("direction", "=", "TO_PHONE")
        .where("reference", "in", refs.slice(i, i + 500))
        .orderBy("id")
        .execute();
      for (const r of rows) {
        if (!r.reference || found.has(r.reference)) continue;
        found.set(r.reference, { providerId: r.sid, status: r.status === "delivered" ? "delivered" : r.status === "undelivered" ? "failed" : "sent", errorCode: r.error_code });
      }
    }
    return found;
  }

  async releaseNumber(number: string): Promise<void> {
    await this.db.deleteFrom("sim_numbers").where("number", "=", number).execute();
  }

  async provisionNumber(): Promise<{ number: string }> {
    if (await getSimSetting(this.db, SIM_FAIL_NUMBER_REQUESTS) === "true") {
      throw new SmsProviderError("The simulator was told to refuse number requests", { retryable: false, providerCode: "SIM_REFUSED" });
    }
    const taken = new Set((await this.db.selectFrom("sim_numbers").select("number").execute()).map((r) => r.number));
    // Numbers a business already holds (for instance set up by hand) are never handed out again.
    for (const r of await this.db.selectFrom("businesses").select("phone_number").where("phone_number", "is not", null).execute()) {
      if (r.phone_number) taken.add(r.phone_number);
    }
    for (let n = FIRST; n <= LAST; n++) {
      const number = `+447700${n}`;
      if (taken.has(number)) continue;
      const inserted = await this.db
        .insertInto("sim_numbers")
        .values({ number, assigned_at: this.now().toISOString() })
        .onConflict((oc) => oc.column("number").doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { number };
    }
    throw new SmsProviderError("The simulator has no numbers left", { retryable: false, providerCode: "SIM_EXHAUSTED" });
  }
}

export async function getSimSetting(db: Database, key: string): Promise<string | undefined> {
  const row = await db.selectFrom("sim_settings").select("value").where("key", "=", key).executeTakeFirst();
  return row?.value;
}

export async function setSimSetting(db: Database, key: string, value: string): Promise<void> {
  await db
    .insertInto("sim_settings")
    .values({ key, value })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value }))
    .execute();
}

/** Reserves a specific simulator number (the demo business's). */
export async function reserveSimNumber(db: Database, number: string, at: Date): Promise<void> {
  await db
    .insertInto("sim_numbers")
    .values({ number, assigned_at: at.toISOString() })
    .onConflict((oc) => oc.column("number").doNothing())
    .execute();
}
