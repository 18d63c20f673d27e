// UK time (Europe/London, GMT/BST) in one place: wall-clock parts and offsets, UK wall time <-> UTC
// instants for form fields, and the display formats (long date, "14:05"). Pure and browser-safe
// (Intl only): used by the server, the pages and the browser's polling code.

export const UK_TIME_ZONE = "Europe/London";

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const partsFormatters = new Map<string, Intl.DateTimeFormat>();
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    partsFormatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading in the zone (UK by default) at that instant. */
export function wallClock(at: Date, timeZone = UK_TIME_ZONE): WallClock {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(at)) if (p.type !== "literal") out[p.type] = Number(p.value);
  return out as unknown as WallClock;
}

/** Milliseconds of a UTC calendar reading; unlike Date.UTC, years 0-99 stay themselves. */
function utcMs(year: number, month: number, day: number, hour: number, minute: number, second = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, 0);
  return d.getTime();
}

/** Minutes the zone is ahead of UTC at that instant (0 or 60 for London). */
export function zoneOffsetMinutes(at: Date, timeZone = UK_TIME_ZONE): number {
  const p = wallClock(at, timeZone);
  const asUtc = utcMs(p.year, p.month, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The UTC instant of a wall-clock time in the zone (`minutes` past midnight may exceed a day and carry
 * over). A time skipped by the clocks going forward is moved on by the gap; a time repeated
 * when they go back resolves as the two-pass guess settles (the GMT instant for London).
 */
export function wallClockToUtc(year: number, month: number, day: number, minutes: number, timeZone = UK_TIME_ZONE): Date {
  const wall = utcMs(year, month, day, 0, minutes);
  // Two passes settle the offset (it can differ between the guess and the answer near a change).
  let guess = wall - zoneOffsetMinutes(new Date(wall), timeZone) * 60_000;
  guess = wall - zoneOffsetMinutes(new Date(guess), timeZone) * 60_000;
  return new Date(guess);
}

/** UK date "2026-11-21" + time "14:05" -> the UTC instant, or null when either is not a real date/time. */
export function ukDateTimeToUtc(date: string, time: string): Date | null {
  const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const t = /^(\d{2}):(\d{2})$/.exec(time);
  if (!d || !t) return null;
  const [y, mo, da, h, mi] = [+d[1], +d[2], +d[3], +t[1], +t[2]];
  if (mo < 1 || mo > 12 || da < 1 || da > 31 || h > 23 || mi > 59) return null;
  const check = new Date(utcMs(y, mo, da, 0, 0));
  if (check.getUTCDate() !== da || check.getUTCMonth() !== mo - 1) return null;
  return wallClockToUtc(y, mo, da, h * 60 + mi);
}

/** A datetime-local value in UK time ("2026-11-22T14:05") -> the instant, or null when it is not such a value. */
export function ukDateTimeLocalToUtc(value: string): Date | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(value);
  return m ? ukDateTimeToUtc(m[1], m[2]) : null;
}

/** The instant as UK date "YYYY-MM-DD" and time "HH:MM" (form defaults). */
export function utcToUkDateTime(at: Date): { date: string; time: string } {
  const iso = new Date(at.getTime() + zoneOffsetMinutes(at) * 60_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

/** The instant as a datetime-local value in UK time ("2026-11-22T14:05"). */
export function utcToUkDateTimeLocal(at: Date): string {
  const { date, time } = utcToUkDateTime(at);
  return `${date}T${time}`;
}

const intlLocale = (locale: string) => (locale === "fr" ? "fr-FR" : "en-GB");

// Building an Intl.DateTimeFormat costs far more than using one: keep one per language and style.
const LONG_DATE = new Map<string, Intl.DateTimeFormat>();
const SHORT_TIME = new Map<string, Intl.DateTimeFormat>();
function cached(cache: Map<string, Intl.DateTimeFormat>, locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = intlLocale(locale);
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(key, options);
    cache.set(key, f);
  }
  return f;
}

/** "21 November, 14:05" in UK time (long date), month name in the reader's language; "" when unreadable. */
export function formatLongDate(iso: string, locale = "en-GB"): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const parts = cached(LONG_DATE, locale, {
    timeZone: UK_TIME_ZONE,
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("day")} ${part("month")}, ${part("hour")}:${part("minute")}`;
}

/** "14:05" in UK time. */
export function formatUkTime(at: Date, locale = "en-GB"): string {
  return cached(SHORT_TIME, locale, { hour: "2-digit", minute: "2-digit", timeZone: UK_TIME_ZONE }).format(at);
}

const UK_DAY_MONTH = new Intl.DateTimeFormat("en-GB", { timeZone: UK_TIME_ZONE, day: "numeric", month: "long" });
const UK_HH_MM = new Intl.DateTimeFormat("en-GB", { timeZone: UK_TIME_ZONE, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });

/** An instant as the UK date ("21 November") and time ("14:05") in English (merge-tag values). */
export function formatUkDayMonthAndTime(at: Date): { date: string; time: string } {
  return { date: UK_DAY_MONTH.format(at), time: UK_HH_MM.format(at) };
}
