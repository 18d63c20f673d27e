// A fixed-window rate limiter kept in the database, so every web process shares the same counts.
import type { Database } from "#db/index";

export async function withinRateLimit(db: Database, key: string, limit: number, windowSeconds: number, now: Date): Promise<boolean> {
  const windowStart = new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000).toISOString();
  const row = await db
    .insertInto("rate_limits")
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.column("key").doUpdateSet((eb) => ({
        count: eb.case().when("rate_limits.window_start", "=", windowStart).then(eb("rate_limits.count", "+", 1)).else(1).end(),
        window_start: windowStart,
      })),
    )
    .returning("count")
    .executeTakeFirstOrThrow();
  return row.count <= limit;
}

/** Whether `key` has already used its `limit` in the current window (counts nothing itself). */
export async function rateLimitReached(db: Database, key: string, limit: number, windowSeconds: number, now: Date): Promise<boolean> {
  const windowStart = new Date(Math.floor(now.getTime() / (windowSeconds * 1000)) * windowSeconds * 1000).toISOString();
  const row = await db.selectFrom("rate_limits").select(["count", "window_start"]).where("key", "=", key).executeTakeFirst();
  return !!row && row.window_start === windowStart && row.count >= limit;
}

