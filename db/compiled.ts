// Queries that run on every signed-in page (the session, the business, the unread count, the home
// page's reads) are built and compiled to SQL once per database, then run with each call's values.
// Building a Kysely query and compiling it cost about as much as SQLite took to run it.
import type { Compilable, CompiledQuery } from "kysely";
import type { Database } from "./index";

/** A value a compiled query takes as a parameter. */
export type QueryValue = string | number | null;

const SLOT = "\u0000compiled-query-slot:";

interface Plan {
  query: CompiledQuery;
  /** For each SQL parameter: the index of the call's value it takes, or -1 for a value fixed in the query. */
  slots: number[];
}

/**
 * Wraps `build`, which makes one query from `db` and the call's values, into a function that runs it.
 * `build` is called once per database with placeholders in place of the values: each value must reach
 * the query only as a parameter (a `where`, a `sql` template's `${value}`), never be read, reshaped or
 * concatenated, and the query's shape must not depend on it. A placeholder that does not come out as a
 * parameter of its own is an error at the first call, so a query that cannot be compiled this way is
 * caught by any test that runs it.
 */
export function compiledQuery<A extends QueryValue[], R>(build: (db: Database, ...values: A) => Compilable<R>): (db: Database, ...values: A) => Promise<R[]> {
  const plans = new WeakMap<Database, Plan>();
  return async (db, ...values) => {
    let plan = plans.get(db);
    if (!plan) {
      plan = compile(db, build, values.length);
      plans.set(db, plan);
    }
    const { query, slots } = plan;
    const parameters = slots.map((slot, i) => (slot < 0 ? query.parameters[i] : values[slot]));
    const result = await db.executeQuery<R>({ query: query.query, queryId: query.queryId, sql: query.sql, parameters });
    return result.rows;
  };
}

function compile<A extends QueryValue[], R>(db: Database, build: (db: Database, ...values: A) => Compilable<R>, count: number): Plan {
  const placeholders = Array.from({ length: count }, (_, i) => `${SLOT}${i}`) as A;
  const query = build(db, ...placeholders).compile();
  const seen = new Set<number>();
  const slots = query.parameters.map((p) => {
    if (typeof p !== "string" || !p.includes(SLOT)) return -1;
    const index = p.startsWith(SLOT) ? Number(p.slice(SLOT.length)) : NaN;
    if (!Number.isInteger(index) || p !== placeholders[index]) throw new Error(`compiledQuery: a value was changed before it reached the query (${query.sql})`);
    seen.add(index);
    return index;
  });
  if (seen.size !== count) throw new Error(`compiledQuery: every value must be a parameter of the query (${query.sql})`);
  return { query, slots };
}
