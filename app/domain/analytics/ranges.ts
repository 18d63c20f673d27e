// The periods the analytics page offers, in days (UK days, today included), and how long after a text an opt-out
// or a reply still counts against it. Pure: shared by the page and the server.
export const ANALYTICS_RANGES = [7, 30, 90] as const;
export type AnalyticsRange = (typeof ANALYTICS_RANGES)[number];
export const ATTRIBUTION_HOURS = 48;

export function isAnalyticsRange(value: unknown): value is AnalyticsRange {
  return (ANALYTICS_RANGES as readonly number[]).includes(Number(value)) && String(Number(value)) === String(value);
}
