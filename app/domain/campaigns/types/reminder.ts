// Reminder: 1 or 2 days before a member's date (their appointment, or a custom date attribute), at the chosen UK
// time. The text can say the appointment's date and time through merge tags. Moving the appointment moves the
// reminder (a new occurrence; the old one is cancelled); clearing it cancels it.
import { AppError } from "~/lib/errors";
import type { CampaignType } from "../type";
import { addDays, settingNumber, settingString, ukDayAt, ukDayOf } from "./dated-time";

export const APPOINTMENT = "appointment";

export const reminder: CampaignType<"REMINDER"> = {
  type: "REMINDER",
  kind: "ONGOING",
  keyword: "none",
  settingsOf: (input) => ({ dateAttribute: input.dateAttribute, daysBefore: input.daysBefore, sendTime: input.sendTime }),
  async check(trx, businessId, input) {
    if (input.dateAttribute === APPOINTMENT) return;
    const attr = await trx
      .selectFrom("attributes")
      .select("type")
      .where("business_id", "=", businessId)
      .where("key", "=", input.dateAttribute)
      .executeTakeFirst();
    if (!attr || attr.type !== "DATE") throw new AppError("BR025", { context: "dateAttribute" }, { field: "dateAttribute" });
  },
  issueText: () => null,
  asks: false,
  reanswer: false,
  lateAfterMs: 6 * 3_600_000,
  planMember(c, m, after) {
    const key = settingString(c.settings, "dateAttribute", APPOINTMENT);
    let target: { year: number; month: number; day: number } | null = null;
    let occurrence: string | null = null;
    if (key === APPOINTMENT) {
      if (!m.appointmentAt || !Number.isFinite(Date.parse(m.appointmentAt))) return null;
      target = ukDayOf(new Date(m.appointmentAt));
      occurrence = m.appointmentAt;
    } else {
      const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(m.dateValue ?? "");
      if (!d) return null;
      target = { year: Number(d[1]), month: Number(d[2]), day: Number(d[3]) };
      occurrence = m.dateValue!;
    }
    const day = addDays(target, -settingNumber(c.settings, "daysBefore", 1));
    const at = ukDayAt(day.year, day.month, day.day, settingString(c.settings, "sendTime", "10:00"));
    return at.getTime() > after.getTime() ? { occurrence, fireAt: at.toISOString() } : null;
  },
};
