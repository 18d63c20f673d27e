// The group-message schedule fields (UK date + time). The UK-time conversion itself lives in
// ~/lib/uk-time; this adds the form's own rules: surrounding spaces ignored, years 2000-2100.
import { ukDateTimeToUtc, utcToUkDateTime } from "~/lib/uk-time";

/** "2026-11-21" + "14:05" in UK time -> the UTC instant, or null when either is not a real date/time in range. */
export function ukLocalToUtc(date: string, time: string): Date | null {
  const d = date.trim();
  const year = Number(d.slice(0, 4));
  if (!(year >= 2000 && year <= 2100)) return null;
  return ukDateTimeToUtc(d, time.trim());
}

/** The UTC instant as UK date "YYYY-MM-DD" and time "HH:MM" (form defaults). */
export const utcToUkLocal = utcToUkDateTime;
