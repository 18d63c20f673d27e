// Display rules for the campaign panels of the home feed (spec sections 4 and 9), shared by the server render and
// the browser: pure functions.

/** The relative time units of spec section 9 (a month is 30 days, a year 365 days). */
export type TimeUnit = "SECONDS" | "MINUTES" | "HOURS" | "DAYS" | "MONTHS" | "YEARS";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const STEPS: [TimeUnit, number, number][] = [
  // unit, its length, used while the time left is under this
  ["SECONDS", SECOND, MINUTE],
  ["MINUTES", MINUTE, HOUR],
  ["HOURS", HOUR, DAY],
  ["DAYS", DAY, 30 * DAY],
  ["MONTHS", 30 * DAY, 365 * DAY],
  ["YEARS", 365 * DAY, Infinity],
];

/**
 * The time left until `closeIso` as a whole number of the largest unit that fits ("2 DAYS" for 2 days 23 hours),
 * or null once it has passed (or when there is no close date).
 */
export function timeLeft(closeIso: string | undefined | null, now: Date): { value: number; unit: TimeUnit } | null {
  if (!closeIso) return null;
  const left = Date.parse(closeIso) - now.getTime();
  if (!Number.isFinite(left) || left <= 0) return null;
  const [unit, size] = STEPS.find(([, , under]) => left < under)!;
  return { value: Math.max(1, Math.floor(left / size)), unit };
}

/**
 * The top response and its whole-number share of all responses (ties go to the first listed), with what the rest
 * add up to: the two slices of the poll and invitation doughnut. Null while there are no responses.
 */
export function topResponseShare(responses: { response: string; total: number }[] | undefined): { response: string; total: number; percent: number; rest: number } | null {
  const list = (responses ?? []).filter((r) => Number.isFinite(r.total) && r.total > 0);
  const all = list.reduce((sum, r) => sum + r.total, 0);
  if (all === 0) return null;
  const top = list.reduce((best, r) => (r.total > best.total ? r : best), list[0]);
  return { response: top.response, total: top.total, percent: Math.round((top.total / all) * 100), rest: all - top.total };
}

/** The campaign id behind a feed item id ("campaign-12" or "12"), for its /viewcampaign link. */
export function campaignIdOf(itemId: string): number | null {
  const m = /(\d+)$/.exec(itemId);
  return m ? Number(m[1]) : null;
}

/** The campaign and file behind a check-in export panel's id ("checkinexport-3-17"), or null for any other item. */
export function exportOf(itemId: string): { campaignId: number; fileId: number } | null {
  const m = /^checkinexport-(\d+)-(\d+)$/.exec(itemId);
  return m ? { campaignId: Number(m[1]), fileId: Number(m[2]) } : null;
}
