// The per-number sending pace (a UK long code takes about 10 segments a second), shared by every worker
// process through the database, so two workers sending from one number together still keep to it.
//
// It is the generic cell rate algorithm: each number has a theoretical arrival time (TAT). Reserving `n`
// segments moves it to max(TAT, now) + n / rate; the reservation may start once it is no more than one
// second's worth ahead of now (a burst of `rate` segments goes at once, as a full token bucket would).
// The move is one atomic upsert, so concurrent reservations never share a slot.
import { sql, type Kysely } from "kysely";
import { greatest } from "#db/dialect";
import type { DB } from "#db/types";

/** How far ahead of now reservations may run: one second's worth of segments goes at once. */
export const PACE_BURST_MS = 1000;

export class NumberPacer {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly perSecond: number,
  ) {}

  /** Reserves `segments` on `number`; resolves with the milliseconds to wait before sending them (0: now). */
  async reserve(number: string, segments: number, nowMs: number): Promise<number> {
    if (this.perSecond <= 0) return 0;
    const cost = Math.ceil((Math.max(1, segments) * 1000) / this.perSecond);
    const { rows } = await sql<{ tat_ms: number | string }>`
      insert into number_pace (from_phone, tat_ms) values (${number}, ${nowMs + cost})
      on conflict (from_phone) do update set tat_ms = ${greatest(this.db, sql.ref("number_pace.tat_ms"), nowMs)} + ${cost}
      returning tat_ms`.execute(this.db);
    const tat = Number(rows[0].tat_ms);
    return Math.max(0, tat - nowMs - PACE_BURST_MS);
  }
}
