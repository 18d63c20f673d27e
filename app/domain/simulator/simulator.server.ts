// The SMS simulator's own screen and JSON: virtual phones, the texts they sent and received, texts a
// person "sends" from a virtual phone to a business number, and the switch that makes number requests
// fail (so onboarding failure can be tried). Only reachable when config.smsProvider is "simulator".
import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";
import { z } from "zod";
import type { Database } from "#db/index";
import { DEMO } from "#db/seed";
import type { Config } from "~/lib/config.server";
import { randomToken } from "~/lib/crypto.server";
import { AppError } from "~/lib/errors";
import { parseUkMobile } from "~/lib/phone";
import { SIM_FAIL_NUMBER_REQUESTS, getSimSetting, setSimSetting } from "~/providers/sms/simulator.server";
import { SIM_BODY_MAX } from "./limits";
import { receiveInbound as recordInboundText } from "~/domain/messaging/inbound.server";

export { SIM_BODY_MAX };
export const PHONES_PER_PAGE = 12;
/** Only the latest texts of each phone are shown on the page. */
export const TEXTS_PER_PHONE = 50;

type SimulatorConfig = Pick<Config, "smsProvider"> & Partial<Pick<Config, "simulatorServed">>;

/**
 * True when the simulator's page and JSON may be served: the simulator is the provider and the server is not
 * exposed beyond this machine (or the operator opted in with SIMULATOR_PUBLIC=true; see config).
 */
export function simulatorEnabled(config: SimulatorConfig): boolean {
  return config.smsProvider === "simulator" && config.simulatorServed !== false;
}

/** Throws a 404 response unless the simulator may be served (see simulatorEnabled). */
export function requireSimulator(config: SimulatorConfig, json = false): void {
  if (simulatorEnabled(config)) return;
  throw json
    ? Response.json({ responseCode: "NF001", data: null, errorStatuses: [{ responseCode: "NF001" }] }, { status: 404 })
    : new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** Ofcom's range for drama and testing (07700 900000-900999): not "valid" to libphonenumber, but real-looking. */
const DRAMA = /^\+447700900[0-9]{3}$/;

/** A valid E.164 mobile number (any country, any UK mobile, or the UK drama range), or null: virtual phones are mobiles. */
export function parseE164(input: unknown): string | null {
  if (typeof input !== "string" || !/^\+[1-9][0-9]{6,14}$/.test(input)) return null;
  if (DRAMA.test(input)) return input;
  if (input.startsWith("+44")) return parseUkMobile(input) === input ? input : null;
  const parsed = parsePhoneNumberFromString(input);
  return parsed && parsed.isValid() && parsed.number === input ? input : null;
}

export const inboundSchema = z.object({
  from: z.string().refine((v) => parseE164(v) !== null),
  to: z.string().regex(/^\+[1-9][0-9]{6,14}$/),
  body: z.string().min(1).max(SIM_BODY_MAX).refine((v) => v.trim().length > 0 && !CONTROL.test(v)),
});

export interface SimText {
  id: number;
  direction: "TO_PHONE" | "FROM_PHONE";
  businessNumber: string;
  body: string;
  at: string;
}

export interface SimPhone {
  phone: string;
  lastAt: string;
  texts: SimText[];
}

export interface SimNumber {
  number: string;
  /** The business the number belongs to, or null while no business holds it. */
  businessName: string | null;
}

/**
 * The business numbers the simulator handed out, with their businesses' names: the demo business first
 * (the one a tester texts), then the newest.
 */
export async function listSimNumbers(db: Database): Promise<SimNumber[]> {
  const rows = await db
    .selectFrom("sim_numbers")
    .leftJoin("businesses", "businesses.phone_number", "sim_numbers.number")
    .select(["sim_numbers.number", "businesses.name"])
    .orderBy("sim_numbers.assigned_at", "desc")
    .orderBy("sim_numbers.number")
    .execute();
  const list = rows.map((r) => ({ number: r.number, businessName: r.name ?? null }));
  const demo = list.findIndex((n) => n.number === DEMO.number);
  if (demo > 0) list.unshift(...list.splice(demo, 1));
  return list;
}

/** Every virtual phone, newest activity first, with its latest texts in both directions (oldest first). */
export async function listPhones(db: Database, page: number): Promise<{ phones: SimPhone[]; page: number; pageCount: number; total: number }> {
  const totalRow = await db.selectFrom("sim_messages").select((eb) => eb.fn.count<number>("phone").distinct().as("n")).executeTakeFirst();
  const total = Number(totalRow?.n ?? 0);
  const pageCount = Math.max(1, Math.ceil(total / PHONES_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pageCount);
  const heads = await db
    .selectFrom("sim_messages")
    .select((eb) => ["phone", eb.fn.max("id").as("last_id"), eb.fn.max("created_at").as("last_at")])
    .groupBy("phone")
    .orderBy("last_id", "desc")
    .limit(PHONES_PER_PAGE)
    .offset((current - 1) * PHONES_PER_PAGE)
    .execute();
  if (heads.length === 0) return { phones: [], page: current, pageCount, total };
  const rows = await db
    .selectFrom("sim_messages")
    .select(["id", "phone", "direction", "business_number", "body", "created_at"])
    .where(
      "phone",
      "in",
      heads.map((h) => h.phone),
    )
    .orderBy("id", "asc")
    .execute();
  const byPhone = new Map<string, SimText[]>();
  for (const r of rows) {
    const list = byPhone.get(r.phone) ?? [];
    list.push({ id: r.id, direction: r.direction, businessNumber: r.business_number, body: r.body, at: r.created_at });
    byPhone.set(r.phone, list);
  }
  return {
    phones: heads.map((h) => ({ phone: h.phone, lastAt: String(h.last_at), texts: (byPhone.get(h.phone) ?? []).slice(-TEXTS_PER_PHONE) })),
    page: current,
    pageCount,
    total,
  };
}

/** Texts a virtual phone received (TO_PHONE), oldest first, in the JSON shape tests and tools read. */
export async function textsReceivedBy(db: Database, phone: string): Promise<{ from: string; to: string; body: string; sentAt: string }[]> {
  const rows = await db
    .selectFrom("sim_messages")
    .select(["business_number", "phone", "body", "created_at"])
    .where("phone", "=", phone)
    .where("direction", "=", "TO_PHONE")
    .orderBy("id", "asc")
    .execute();
  return rows.map((r) => ({ from: r.business_number, to: r.phone, body: r.body, sentAt: r.created_at }));
}

/**
 * A virtual phone texts a business number. Recorded and shown; the messaging engine will later route
 * it to the business. BR025 when the input is not right (a field says which).
 */
export async function receiveInbound(db: Database, input: { from: unknown; to: unknown; body: unknown }, now: Date): Promise<{ sid: string }> {
  const parsed = inboundSchema.safeParse(input);
  if (!parsed.success) throw new AppError("BR025", undefined, { field: String(parsed.error.issues[0]?.path[0] ?? "") || undefined });
  const { from, to, body } = parsed.data;
  const known = await db.selectFrom("sim_numbers").select("number").where("number", "=", to).executeTakeFirst();
  if (!known) throw new AppError("BR025", undefined, { field: "to" });
  const sid = `SM${randomToken(16)}`;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("sim_messages")
      .values({ sid, direction: "FROM_PHONE", phone: from, business_number: to, body, status: "received", created_at: now.toISOString() })
      .execute();
    // Feed the messaging engine's inbound pipeline, exactly as the provider's webhook would (JOIN, YES, STOP…).
    await recordInboundText({ db: trx }, { providerId: sid, from, to, body, receivedAt: now });
  });
  return { sid };
}

export async function refusesNumberRequests(db: Database): Promise<boolean> {
  return (await getSimSetting(db, SIM_FAIL_NUMBER_REQUESTS)) === "true";
}

export async function setRefuseNumberRequests(db: Database, refuse: boolean): Promise<void> {
  await setSimSetting(db, SIM_FAIL_NUMBER_REQUESTS, refuse ? "true" : "false");
}
