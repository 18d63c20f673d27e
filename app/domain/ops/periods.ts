// The periods the operators' product analytics offers, in days (shared by the server and the page).
export const ANALYTICS_PERIODS = [7, 30, 90] as const;
export type AnalyticsPeriod = (typeof ANALYTICS_PERIODS)[number];
