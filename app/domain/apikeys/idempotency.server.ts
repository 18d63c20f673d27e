// Idempotency records for the public API's POSTs. A client sends an `Idempotency-Key` header; the first request
// with that key reserves a row (the unique index on business and key settles a race between two at once) and,
// when it succeeds, stores its answer. A retry with the same key and the same request gets that answer back and
// does nothing again; the same key with a different request is refused. A request that failed leaves no record,
// so it may be retried as it was. Records are kept for 24 hours, then purged by a worker round.
import type { Kysely } from "kysely";
import type { DB } from "#db/types";

type Db = Kysely<DB>;

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/**
 * A reservation still without an answer after this long belongs to a request that died (a crash between the
 * work and storing its answer): the next retry may take the key over. Sends stay single even then, because DMs
 * and group messages carry the same key in messages.idempotency_key, and a member cannot be added twice (BR021).
 */
export const IDEMPOTENCY_STALE_MS = 60_000;
const PURGE_BATCH = 1000;

export type IdempotencyStart =
  | { state: "NEW"; id: number }
  | { state: "REPLAY"; status: number; body: string | null; location: string | null }
  | { state: "MISMATCH" }
  | { state: "IN_PROGRESS" };

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === "23505" || err?.code === "SQLITE_CONSTRAINT_UNIQUE" || /UNIQUE constraint failed/.test(err?.message ?? "");
}

/** Reserves the key for this request, or says what an earlier request with the same key did. */
export async function beginIdempotent(db: Db, businessId: number, key: string, requestHash: string, now: Date): Promise<IdempotencyStart> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  // An expired record no longer holds the key.
  await db.deleteFrom("api_idempotency").where("business_id", "=", businessId).where("idem_key", "=", key).where("created_at", "<", cutoff).execute();
  try {
    const row = await db
      .insertInto("api_idempotency")
      .values({ business_id: businessId, idem_key: key, request_hash: requestHash, status: null, response_body: null, location: null, created_at: now.toISOString() })
      .returning("id")
      .executeTakeFirstOrThrow();
    return { state: "NEW", id: Number(row.id) };
  } catch (e) {
    if (!isUniqueViolation(e)) throw e;
  }
  const prior = await db
    .selectFrom("api_idempotency")
    .select(["id", "request_hash", "status", "response_body", "location", "created_at"])
    .where("business_id", "=", businessId)
    .where("idem_key", "=", key)
    .executeTakeFirst();
  if (!prior) return beginIdempotent(db, businessId, key, requestHash, now);
  if (prior.request_hash !== requestHash) return { state: "MISMATCH" };
  if (prior.status === null) {
    if (Date.parse(prior.created_at) > now.getTime() - IDEMPOTENCY_STALE_MS) return { state: "IN_PROGRESS" };
    await db.deleteFrom("api_idempotency").where("id", "=", prior.id).where("status", "is", null).execute();
    return beginIdempotent(db, businessId, key, requestHash, now);
  }
  return { state: "REPLAY", status: Number(prior.status), body: prior.response_body, location: prior.location };
}

/** Stores the answer of the request that reserved the key. */
export async function finishIdempotent(db: Db, id: number, answer: { status: number; body: string | null; location: string | null }): Promise<void> {
  await db.updateTable("api_idempotency").set({ status: answer.status, response_body: answer.body, location: answer.location }).where("id", "=", id).execute();
}

/** Frees the key after a request that failed (it changed nothing, so the client may send it again). */
export async function abandonIdempotent(db: Db, id: number): Promise<void> {
  await db.deleteFrom("api_idempotency").where("id", "=", id).execute();
}

/** Deletes records older than 24 hours, a batch at a time; returns how many went. */
export async function purgeIdempotency(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const old = await db.selectFrom("api_idempotency").select("id").where("created_at", "<", cutoff).orderBy("created_at").limit(PURGE_BATCH).execute();
  if (!old.length) return 0;
  const res = await db.deleteFrom("api_idempotency").where("id", "in", old.map((r) => r.id)).executeTakeFirst();
  return Number(res.numDeletedRows);
}
