// Many rows in one statement through one JSON parameter: an array of arrays, read as a table. This is how the
// pipeline inserts and updates thousands of rows per statement without hitting parameter limits. The two
// databases spell it differently; this module is the one place that knows how.
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
