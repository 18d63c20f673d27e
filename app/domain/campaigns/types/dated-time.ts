// Times for the date-driven types, in UK time (GMT and BST): a wall-clock day and "HH:MM" to an instant.
import { wallClock, wallClockToUtc } from "~/lib/uk-time";

export function minutesOf(time: string): number {
  const m = /^(\d{2}):(\d{2})$/.exec(time);
  return m ? Number(m[1]) * 60 + Number(m[2]) : 10 * 60;
}

export function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** The UTC instant of a UK calendar day at "HH:MM". */
export function ukDayAt(year: number, month: number, day: number, time: string): Date {
  return wallClockToUtc(year, month, day, minutesOf(time));
}

/** The UK calendar day of an instant. */
export function ukDayOf(at: Date): { year: number; month: number; day: number } {
  const w = wallClock(at);
  return { year: w.year, month: w.month, day: w.day };
}

/** A calendar day moved by whole days. */
export function addDays(d: { year: number; month: number; day: number }, days: number): { year: number; month: number; day: number } {
  const t = new Date(Date.UTC(d.year, d.month - 1, d.day) + days * 86_400_000);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function settingString(settings: Record<string, unknown>, key: string, fallback: string): string {
  const v = settings[key];
  return typeof v === "string" ? v : fallback;
}

export function settingNumber(settings: Record<string, unknown>, key: string, fallback: number): number {
  const v = settings[key];
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}
