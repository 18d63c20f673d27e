// Product analytics for the operators, from the usage events businesses' browsers send to POST /api/track
// ('view:<page title>', 'start_trial', 'purchase_subscription', custom names) and from the accounts
// themselves: page views per title, event counts, trial-to-paid conversion, active businesses per week.
import type { Database } from "#db/index";

export { ANALYTICS_PERIODS, type AnalyticsPeriod } from "./periods";
export const ACTIVE_WEEKS = 8;

export interface ProductAnalytics {
  periodDays: number;
  since: string;
  pageViews: Array<{ title: string; views: number; businesses: number }>;
  events: { startTrial: number; purchaseSubscription: number; custom: Array<{ name: string; total: number }> };
  conversion: { newBusinesses: number; paid: number; percent: number };
  activeWeeks: Array<{ weekStart: string; businesses: number }>;
}

/** Monday (UTC date) of the week holding a "YYYY-MM-DD" date. */
export function weekStartOf(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

export async function productAnalytics(db: Database, periodDays: number, now: Date): Promise<ProductAnalytics> {
  const since = new Date(now.getTime() - periodDays * 86400_000).toISOString();
  const views = await db
    .selectFrom("track_events")
    .select(["action", (eb) => eb.fn.countAll<number>().as("views"), (eb) => eb.fn.count<number>("business_id").distinct().as("businesses")])
    .where("created_at", ">=", since)
    .where("action", "like", "view:%")
    .groupBy("action")
    .orderBy("views", "desc")
    .orderBy("action")
    .limit(30)
    .execute();
  const others = await db
    .selectFrom("track_events")
    .select(["action", (eb) => eb.fn.countAll<number>().as("total")])
    .where("created_at", ">=", since)
    .where("action", "not like", "view:%")
    .groupBy("action")
    .orderBy("total", "desc")
    .orderBy("action")
    .limit(32)
    .execute();
  const count = (name: string) => Number(others.find((o) => o.action === name)?.total ?? 0);
  const newBusinesses = await db.selectFrom("businesses").select((eb) => eb.fn.countAll<number>().as("n")).where("created_at", ">=", since).executeTakeFirstOrThrow();
  const paid = await db
    .selectFrom("businesses")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("created_at", ">=", since)
    .where((eb) => eb.exists(eb.selectFrom("payments").select("payments.id").whereRef("payments.business_id", "=", "businesses.id").where("payments.status", "=", "PAID")))
    .executeTakeFirstOrThrow();
  const firstWeek = weekStartOf(new Date(now.getTime() - (ACTIVE_WEEKS - 1) * 7 * 86400_000).toISOString().slice(0, 10));
  // One row per business and day it was active; weeks are counted here (portable across both databases).
  const days = await db
    .selectFrom("track_events")
    .select(["business_id", (eb) => eb.fn<string>("substr", ["created_at", eb.lit(1), eb.lit(10)]).as("day")])
    .distinct()
    .where("created_at", ">=", `${firstWeek}T00:00:00.000Z`)
    .execute();
  const weeks = new Map<string, Set<number>>();
  for (let i = 0; i < ACTIVE_WEEKS; i++) {
    const d = new Date(`${firstWeek}T00:00:00Z`);
    d.setUTCDate(d.getUTCDate() + 7 * i);
    weeks.set(d.toISOString().slice(0, 10), new Set());
  }
  for (const r of days) weeks.get(weekStartOf(r.day))?.add(Number(r.business_id));
  const nNew = Number(newBusinesses.n);
  const nPaid = Number(paid.n);
  return {
    periodDays,
    since,
    pageViews: views.map((v) => ({ title: v.action.slice(5), views: Number(v.views), businesses: Number(v.businesses) })),
    events: {
      startTrial: count("start_trial"),
      purchaseSubscription: count("purchase_subscription"),
      custom: others.filter((o) => o.action !== "start_trial" && o.action !== "purchase_subscription").slice(0, 30).map((o) => ({ name: o.action, total: Number(o.total) })),
    },
    conversion: { newBusinesses: nNew, paid: nPaid, percent: nNew ? Math.round((nPaid / nNew) * 1000) / 10 : 0 },
    activeWeeks: [...weeks].map(([weekStart, set]) => ({ weekStart, businesses: set.size })),
  };
}
