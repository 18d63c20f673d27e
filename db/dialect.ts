// The SQL that the two databases spell differently, in one place (with db/claim.ts for claiming durable work).
//
// - jsonRows: many rows in one statement through one JSON parameter (an array of arrays read as a table). This
//   is how the pipeline inserts and updates thousands of rows per statement without hitting parameter limits.
// - greatest: the larger of two values.
// - unindexed: a column reference the SQLite planner will not use an index for (a unary +), so that a join
//   driven by a JSON list looks rows up by primary key instead of walking a status index.
import { sql, type Kysely, type RawBuilder } from "kysely";
import { isPostgresDb } from "./index";

export interface JsonRows {
  /** The table expression to put after FROM; each row is named `r`. */
  from: RawBuilder<unknown>;
  /** Element `i` of a row, as text. */
  text(i: number): RawBuilder<string>;
  /** Element `i` of a row, as an integer. */
  int(i: number): RawBuilder<number>;
}

export function jsonRows(db: Kysely<any>, json: string): JsonRows {
  if (isPostgresDb(db)) {
    return {
      from: sql`json_array_elements(${json}::json) as r`,
      text: (i) => sql<string>`(r->>${sql.lit(i)})`,
      int: (i) => sql<number>`(r->>${sql.lit(i)})::bigint`,
    };
  }
  return {
    from: sql`json_each(${json}) as r`,
    text: (i) => sql<string>`json_extract(r.value, ${sql.lit(`$[${i}]`)})`,
    int: (i) => sql<number>`json_extract(r.value, ${sql.lit(`$[${i}]`)})`,
  };
}

/** The larger of two values: greatest() on PostgreSQL, the two-argument max() on SQLite. */
export function greatest(db: Kysely<any>, a: RawBuilder<unknown>, b: RawBuilder<unknown> | number): RawBuilder<number> {
  return isPostgresDb(db) ? sql<number>`greatest(${a}, ${b})` : sql<number>`max(${a}, ${b})`;
}

/** A column reference that the SQLite planner will not drive a query from (PostgreSQL needs no hint). */
export function unindexed(db: Kysely<any>, column: string): RawBuilder<unknown> {
  return isPostgresDb(db) ? sql.ref(column) : sql`+${sql.ref(column)}`;
}
