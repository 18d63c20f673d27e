// Durable work lives in rows; a worker takes rows by claiming them. This module is the one place that knows
// how a claim differs between the two databases:
//
// - PostgreSQL: the candidate rows are locked with FOR UPDATE SKIP LOCKED, so workers sharing the queue take
//   different rows without waiting for each other.
// - SQLite: one writer at a time. The claim runs inside BEGIN IMMEDIATE, which takes the write lock before the
//   candidate rows are read, so two processes can never read the same rows as free.
//
// Either way the claim is one UPDATE … WHERE id IN (candidates) … RETURNING, committed before the work is done
// (claim-then-act): a worker that dies after claiming leaves rows that recovery finds by their lease.
import { sql, type Kysely, type RawBuilder } from "kysely";
import { isPostgresDb } from "./index";

/** The locking clause to put after a candidate SELECT: SKIP LOCKED on PostgreSQL, nothing on SQLite. */
export function skipLocked(db: Kysely<any>): RawBuilder<unknown> {
  return isPostgresDb(db) ? sql` for update skip locked` : sql``;
}

/**
 * Runs `fn` as one write transaction: BEGIN IMMEDIATE on SQLite (the write lock is taken at the start, so reads
 * inside see no rows another writer is about to claim), an ordinary transaction on PostgreSQL.
 */
export async function writeTransaction<D, T>(db: Kysely<D>, fn: (conn: Kysely<D>) => Promise<T>): Promise<T> {
  if (isPostgresDb(db)) return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (error) {
      await sql`ROLLBACK`.execute(conn).catch(() => undefined);
      throw error;
    }
  });
}

export interface ClaimSpec {
  /** The table holding the work; its key column is `id`. */
  table: string;
  /** The assignments that mark rows as claimed, e.g. sql`status = 'SENDING', worker_id = ${me}`. */
  set: RawBuilder<unknown>;
  /** Which rows are free to claim, e.g. sql`status = 'QUEUED' and next_attempt_at <= ${now}`. */
  where: RawBuilder<unknown>;
  /** The order in which free rows are taken, e.g. sql`priority, id`. */
  orderBy: RawBuilder<unknown>;
  limit: number;
  /** The columns to return for each claimed row. */
  returning: RawBuilder<unknown>;
}

/**
 * Claims up to `limit` free rows in one statement and returns them. Call it inside `writeTransaction` (or
 * another transaction the caller owns) when more must happen atomically with the claim; on its own it is a
 * single statement, atomic by itself on PostgreSQL and serialised by the caller's BEGIN IMMEDIATE on SQLite.
 */
export async function claimRows<R>(db: Kysely<any>, spec: ClaimSpec): Promise<R[]> {
  const table = sql.table(spec.table);
  const { rows } = await sql<R>`update ${table} set ${spec.set}
    where id in (select id from ${table} where ${spec.where} order by ${spec.orderBy} limit ${spec.limit}${skipLocked(db)})
    returning ${spec.returning}`.execute(db);
  return rows;
}

/**
 * Whether any row is free to claim: a plain read, taken before a claim by rounds that poll often, so that an idle
 * round never takes the write lock (on SQLite every claim is a write transaction, and an idle worker's claims would
 * otherwise compete with every request that writes).
 */
export async function anyFree(db: Kysely<any>, table: string, where: RawBuilder<unknown>): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} where ${where} limit 1`.execute(db);
  return rows.length > 0;
}
