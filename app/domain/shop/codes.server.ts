// Discount codes for {{shopify.code}}: each recipient of a text gets a code of their own, never given twice.
//
// - Codes are made ahead of a send, outside any transaction, by the "shop-codes" worker round: a durable
//   request (shop_code_requests) says how many a business needs; the round claims it (db/claim.ts), asks the
//   shop for codes in calls of at most 250 (MAX_CODES_PER_CALL), records each code the shop made in shop_codes
//   as it goes, then marks the request READY and hands it back (onReady: the waiting send goes out).
// - A code is reserved for one member of one message inside the send's own transaction (reserveCodes, called by
//   the pipeline's render path): an UPDATE takes free rows (SKIP LOCKED on PostgreSQL; SQLite's single writer
//   serialises), so two sends racing never take the same code; unique (business, code) and (message, member)
//   keep it so. An edit re-rendering the message keeps each member's code.
// - Too few free codes at send time is BR038 "codesShort", which rolls the send back: the caller asks for codes
//   (requestCodes) and waits, or refuses with the message.
// Failures: a shop error the adapter calls retryable is tried again with backoff (up to MAX_ATTEMPTS), any other
// fails the request with its reason, shown where the waiting send is.
import crypto from "node:crypto";
import { sql, type Kysely } from "kysely";
import type { Database } from "#db/index";
import type { DB } from "#db/types";
import { anyFree, claimRows } from "#db/claim";
import { jsonRows } from "#db/dialect";
import { isPostgresDb } from "#db/index";
import { AppError } from "~/lib/errors";
import { MAX_CODES_PER_CALL, ShopProviderError, type ShopProvider } from "~/providers/shop/types";
import { shopCredentials } from "./integration.server";

type Db = Kysely<DB>;

export const SHOP_CODE_TAG = "shopify.code";
/** Letters and digits that cannot be misread (no 0/O, 1/I/L). */
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
/** What a preview shows in place of a member's code: as long as a real one, so segments and credits match. */
export const SAMPLE_CODE = "ABCDE-23456";
/** Tries before a request fails for good on retryable shop errors. */
export const MAX_ATTEMPTS = 6;
const LEASE_MS = 5 * 60_000;
const REQUEST_BATCH = 3;

/** A new random code: XXXXX-XXXXX (about 49 bits). */
export function newCode(): string {
  let s = "";
  for (let i = 0; i < 10; i++) s += ALPHABET[crypto.randomInt(0, ALPHABET.length)];
  return `${s.slice(0, 5)}-${s.slice(5)}`;
}

interface ActiveShop {
  shopDomain: string;
  discountId: string;
}

/** The shop and discount codes come from; BR038 noShop / noDiscount when there is none. */
export async function activeShop(db: Db, businessId: number): Promise<ActiveShop> {
  const r = await db.selectFrom("shop_integrations").select(["shop_domain", "discount_id"]).where("business_id", "=", businessId).executeTakeFirst();
  if (!r) throw new AppError("BR038", { context: "noShop" });
  if (!r.discount_id) throw new AppError("BR038", { context: "noDiscount" });
  return { shopDomain: r.shop_domain, discountId: r.discount_id };
}

/** Codes made for the business's current shop and discount and not yet given to anyone. */
export async function countFreeCodes(db: Db, businessId: number, shop?: ActiveShop): Promise<number> {
  const s = shop ?? (await activeShop(db, businessId));
  const r = await db
    .selectFrom("shop_codes")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("business_id", "=", businessId)
    .where("discount_id", "=", s.discountId)
    .where("shop_domain", "=", s.shopDomain)
    .where("message_id", "is", null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** True when a code is short at send time (the send waits for codes, or is refused). */
export function isCodesShort(error: unknown): error is AppError {
  return error instanceof AppError && error.code === "BR038" && error.data?.context === "codesShort";
}

/** Throws BR038 codesShort (with how many are needed and free) unless `needed` free codes exist. */
export async function assertCodesAvailable(db: Db, businessId: number, needed: number): Promise<void> {
  const shop = await activeShop(db, businessId);
  const free = await countFreeCodes(db, businessId, shop);
  if (free < needed) throw new AppError("BR038", { context: "codesShort", needed, free });
}

/**
 * One code per member for a message, inside the caller's transaction: codes already reserved for this message
 * (an edit re-rendering it) are kept, the others taken from the free ones. BR038 codesShort when too few are free.
 */
export async function reserveCodes(trx: Db, businessId: number, messageId: number, memberIds: readonly number[], now: Date): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (!memberIds.length) return out;
  const existing = await trx.selectFrom("shop_codes").select(["member_id", "code"]).where("message_id", "=", messageId).where("member_id", "in", [...memberIds]).execute();
  for (const e of existing) out.set(Number(e.member_id), e.code);
  const missing = [...new Set(memberIds)].filter((id) => !out.has(id));
  if (!missing.length) return out;
  const shop = await activeShop(trx, businessId);
  const at = now.toISOString();
  const lock = isPostgresDb(trx) ? sql` for update skip locked` : sql``;
  const { rows } = await sql<{ id: number; code: string }>`update shop_codes set message_id = ${messageId}, reserved_at = ${at}
    where id in (select id from shop_codes where business_id = ${businessId} and discount_id = ${shop.discountId} and shop_domain = ${shop.shopDomain}
      and message_id is null order by id limit ${missing.length}${lock})
    and message_id is null
    returning id, code`.execute(trx);
  if (rows.length < missing.length) throw new AppError("BR038", { context: "codesShort", needed: missing.length, free: rows.length });
  const pairs = rows.map((r, i) => [Number(r.id), missing[i]]);
  const j = jsonRows(trx, JSON.stringify(pairs));
  await sql`update shop_codes set member_id = j.mid from (select ${j.int(0)} as cid, ${j.int(1)} as mid from ${j.from}) as j where shop_codes.id = j.cid`.execute(trx);
  rows.forEach((r, i) => out.set(missing[i], r.code));
  return out;
}

/**
 * Asks for codes for a campaign step (a fire) that could not go out: one request per fire. An open request is left
 * to run; a finished one (its codes taken by another send meanwhile) is asked again. Answers the request's state
 * before this call: FAILED means the shop could not make them (the caller gives up), null means there was none.
 */
export async function requestCodesForFire(db: Db, input: { businessId: number; needed: number; fireId: number }, now: Date): Promise<{ status: CodeRequestView["status"]; reason: string | null } | null> {
  const at = now.toISOString();
  const existing = await db.selectFrom("shop_code_requests").select(["id", "status", "error_reason"]).where("business_id", "=", input.businessId).where("fire_id", "=", input.fireId).executeTakeFirst();
  if (existing?.status === "FAILED") return { status: "FAILED", reason: existing.error_reason };
  if (existing?.status === "PENDING" || existing?.status === "MAKING") return { status: existing.status, reason: null };
  const values = { needed: input.needed, made: 0, status: "PENDING" as const, attempts: 0, next_attempt_at: at, lease_until: null, error_reason: null, updated_at: at };
  if (existing) await db.updateTable("shop_code_requests").set(values).where("id", "=", existing.id).execute();
  else await db.insertInto("shop_code_requests").values({ ...values, business_id: input.businessId, draft_id: null, fire_id: input.fireId, created_at: at }).execute();
  return existing ? { status: existing.status, reason: null } : null;
}

/**
 * Asks for codes: a request for `needed` codes (the whole send; the round makes only what the free codes lack).
 * A group message's request is one per draft: asking again resets it.
 */
export async function requestCodes(db: Db, input: { businessId: number; needed: number; draftId: number | null }, now: Date): Promise<number> {
  const at = now.toISOString();
  const values = { needed: input.needed, made: 0, status: "PENDING" as const, attempts: 0, next_attempt_at: at, lease_until: null, error_reason: null, updated_at: at };
  if (input.draftId !== null) {
    const r = await db
      .insertInto("shop_code_requests")
      .values({ ...values, business_id: input.businessId, draft_id: input.draftId, created_at: at })
      .onConflict((oc) => oc.column("draft_id").doUpdateSet(values))
      .returning("id")
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }
  const r = await db
    .insertInto("shop_code_requests")
    .values({ ...values, business_id: input.businessId, draft_id: null, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(r.id);
}

export interface CodeRequestView {
  id: number;
  status: "PENDING" | "MAKING" | "READY" | "FAILED";
  needed: number;
  made: number;
  attempts: number;
  errorReason: string | null;
  updatedAt: string;
}

function view(r: { id: number; status: CodeRequestView["status"]; needed: number; made: number; attempts: number; error_reason: string | null; updated_at: string }): CodeRequestView {
  return { id: Number(r.id), status: r.status, needed: Number(r.needed), made: Number(r.made), attempts: Number(r.attempts), errorReason: r.error_reason, updatedAt: r.updated_at };
}

/** The request a group message draft is waiting on, if any. */
export async function codeRequestForDraft(db: Db, businessId: number, draftId: number): Promise<CodeRequestView | null> {
  const r = await db
    .selectFrom("shop_code_requests")
    .select(["id", "status", "needed", "made", "attempts", "error_reason", "updated_at"])
    .where("business_id", "=", businessId)
    .where("draft_id", "=", draftId)
    .executeTakeFirst();
  return r ? view(r) : null;
}

/** The business's latest requests, newest first (the integrations page). */
export async function recentCodeRequests(db: Db, businessId: number, limit = 10): Promise<(CodeRequestView & { draftId: number | null })[]> {
  const rows = await db
    .selectFrom("shop_code_requests")
    .select(["id", "status", "needed", "made", "attempts", "error_reason", "updated_at", "draft_id"])
    .where("business_id", "=", businessId)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...view(r), draftId: r.draft_id === null ? null : Number(r.draft_id) }));
}

export interface CodeRow {
  code: string;
  memberName: string | null;
  memberPhone: string | null;
  reservedAt: string | null;
  createdAt: string;
}

/** A page of the business's codes, newest first, with the member each was given to. */
export async function listCodes(db: Db, businessId: number, page: number, pageSize = 20): Promise<{ rows: CodeRow[]; total: number; free: number; given: number }> {
  const counts = await db
    .selectFrom("shop_codes")
    .select([(eb) => eb.fn.countAll<number>().as("n"), (eb) => eb.fn.count<number>("message_id").as("given")])
    .where("business_id", "=", businessId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("shop_codes as c")
    .leftJoin("members as m", (j) => j.onRef("m.id", "=", "c.member_id").on("m.business_id", "=", businessId))
    .select(["c.code", "c.reserved_at", "c.created_at", "m.full_name", "m.first_name", "m.phone"])
    .where("c.business_id", "=", businessId)
    .orderBy("c.id", "desc")
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  return {
    total: Number(counts.n),
    given: Number(counts.given),
    free: Number(counts.n) - Number(counts.given),
    rows: rows.map((r) => ({ code: r.code, memberName: r.full_name || r.first_name || null, memberPhone: r.phone ?? null, reservedAt: r.reserved_at, createdAt: r.created_at })),
  };
}

export interface ShopCodeDeps {
  db: Database;
  now: () => Date;
  shop: ShopProvider;
  /** The secret the access tokens are sealed with (config.sessionSecret). */
  secret: string;
  /** Called once a request's codes are all made (a waiting group message is sent, a waiting campaign step is due). */
  onReady?: (request: { id: number; businessId: number; draftId: number | null; fireId: number | null }) => Promise<void>;
}

interface Claimed {
  id: number;
  business_id: number;
  draft_id: number | null;
  fire_id: number | null;
  needed: number;
  attempts: number;
}

/** The wait before the next try after `attempts` tries: 30 s, 1 min, 2 min… up to 15 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(15 * 60_000, 30_000 * 2 ** Math.max(0, attempts - 1));
}

/** One worker round: claims due requests and makes their codes. Returns how many requests were handled. */
export async function runShopCodeRequests(deps: ShopCodeDeps, limit = REQUEST_BATCH): Promise<number> {
  const now = deps.now();
  const nowIso = now.toISOString();
  const due = sql`(status = 'PENDING' and next_attempt_at <= ${nowIso}) or (status = 'MAKING' and lease_until < ${nowIso})`;
  if (!(await anyFree(deps.db, "shop_code_requests", due))) return 0;
  const claimed = await claimRows<Claimed>(deps.db, {
    table: "shop_code_requests",
    set: sql`status = 'MAKING', lease_until = ${new Date(now.getTime() + LEASE_MS).toISOString()}, attempts = attempts + 1, updated_at = ${nowIso}`,
    where: due,
    orderBy: sql`next_attempt_at, id`,
    limit,
    returning: sql`id, business_id, draft_id, fire_id, needed, attempts`,
  });
  const idOf = (v: number | null) => (v === null ? null : Number(v));
  for (const r of claimed) await makeCodes(deps, { id: Number(r.id), businessId: Number(r.business_id), draftId: idOf(r.draft_id), fireId: idOf(r.fire_id), needed: Number(r.needed), attempts: Number(r.attempts) });
  return claimed.length;
}

async function setRequest(db: Db, id: number, values: Partial<{ status: CodeRequestView["status"]; made: number; next_attempt_at: string; lease_until: string | null; error_reason: string | null }>, now: Date) {
  await db
    .updateTable("shop_code_requests")
    .set({ ...values, updated_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "MAKING")
    .execute();
}

async function makeCodes(deps: ShopCodeDeps, req: { id: number; businessId: number; draftId: number | null; fireId: number | null; needed: number; attempts: number }): Promise<void> {
  const { db } = deps;
  const fail = (reason: string) => setRequest(db, req.id, { status: "FAILED", error_reason: reason, lease_until: null }, deps.now());
  const creds = await shopCredentials(db, req.businessId, deps.secret);
  if (!creds) return fail("noShop");
  if (!creds.discountId) return fail("noDiscount");
  const shop = { shopDomain: creds.shopDomain, discountId: creds.discountId };
  let made = 0;
  try {
    let short = req.needed - (await countFreeCodes(db, req.businessId, shop));
    while (short > 0) {
      const batch = new Set<string>();
      while (batch.size < Math.min(MAX_CODES_PER_CALL, short)) batch.add(newCode());
      const result = await deps.shop.addCodes(creds, shop.discountId, [...batch]);
      if (result.created.length) {
        const at = deps.now().toISOString();
        await db
          .insertInto("shop_codes")
          .values(result.created.map((code) => ({ business_id: req.businessId, shop_domain: shop.shopDomain, discount_id: shop.discountId, code, request_id: req.id, message_id: null, member_id: null, reserved_at: null, created_at: at })))
          .onConflict((oc) => oc.columns(["business_id", "code"]).doNothing())
          .execute();
      }
      if (!result.created.length) return fail("rejected");
      made += result.created.length;
      short -= result.created.length;
      await setRequest(db, req.id, { made, lease_until: new Date(deps.now().getTime() + LEASE_MS).toISOString() }, deps.now());
    }
  } catch (error) {
    if (!(error instanceof ShopProviderError)) throw error;
    if (error.retryable && req.attempts < MAX_ATTEMPTS) {
      const at = deps.now();
      await setRequest(db, req.id, { status: "PENDING", error_reason: error.reason, lease_until: null, next_attempt_at: new Date(at.getTime() + backoffMs(req.attempts)).toISOString() }, at);
      return;
    }
    return fail(error.reason);
  }
  await setRequest(db, req.id, { status: "READY", made, lease_until: null, error_reason: null }, deps.now());
  if (!deps.onReady) return;
  try {
    await deps.onReady({ id: req.id, businessId: req.businessId, draftId: req.draftId, fireId: req.fireId });
  } catch (error) {
    // The send itself was refused (no credit left, an empty group…): the request shows why.
    if (!(error instanceof AppError)) throw error;
    await db
      .updateTable("shop_code_requests")
      .set({ status: "FAILED", error_reason: error.code, updated_at: deps.now().toISOString() })
      .where("id", "=", req.id)
      .where("status", "=", "READY")
      .execute();
  }
}
