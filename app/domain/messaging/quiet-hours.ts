// Quiet hours: group and campaign texts are not delivered between
// 21:00 and 08:00 UK time by default (per business: businesses.quiet_start / quiet_end, "HH:MM"),
// they wait for the morning. DMs, opt-in/opt-out texts and PINs are exempt. Europe/London is
// DST-aware through Intl; a window may wrap midnight (21:00-08:00) or not (13:00-14:00); equal
// start and end mean no quiet hours.

import { UK_TIME_ZONE, wallClock, wallClockToUtc } from "~/lib/uk-time";

export { UK_TIME_ZONE };
export const DEFAULT_QUIET_START = "21:00";
export const DEFAULT_QUIET_END = "08:00";

export function parseHhMm(value: string | null | undefined, fallback: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec((value ?? "").trim()) ?? /^(\d{1,2}):(\d{2})$/.exec(fallback);
  if (!m) return 0;
  const h = Math.min(23, Number(m[1]));
  const min = Math.min(59, Number(m[2]));
  return h * 60 + min;
}

export interface QuietWindow {
  start?: string | null;
  end?: string | null;
}

/**
 * When `at` falls in the business's quiet hours, the instant they end (when the text may go);
 * otherwise null.
 */
export function quietUntil(at: Date, window: QuietWindow = {}, timeZone = UK_TIME_ZONE): Date | null {
  const start = parseHhMm(window.start, DEFAULT_QUIET_START);
  const end = parseHhMm(window.end, DEFAULT_QUIET_END);
  if (start === end) return null;
  const p = wallClock(at, timeZone);
  const now = p.hour * 60 + p.minute;
  const wraps = start > end;
  const inQuiet = wraps ? now >= start || now < end : now >= start && now < end;
  if (!inQuiet) return null;
  // The end is today (local) when we are before it, otherwise tomorrow.
  let { year, month, day } = p;
  if (now >= end) {
    const next = new Date(Date.UTC(year, month - 1, day + 1));
    year = next.getUTCFullYear();
    month = next.getUTCMonth() + 1;
    day = next.getUTCDate();
  }
  return wallClockToUtc(year, month, day, end, timeZone);
}

/** The earliest instant at or after `at` outside quiet hours. */
export function nextAllowedTime(at: Date, window: QuietWindow = {}, timeZone = UK_TIME_ZONE): Date {
  return quietUntil(at, window, timeZone) ?? at;
}
