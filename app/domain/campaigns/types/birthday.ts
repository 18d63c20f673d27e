// Birthday greeting: a text on each member's birthday (the dd/mm birthday), every year, at the chosen UK time. A
// 29 February birthday is greeted on 28 February in other years. One birthday campaign per business (BR010).
import { AppError } from "~/lib/errors";
import type { CampaignType } from "../type";
import { isLeap, settingString, ukDayAt, ukDayOf } from "./dated-time";

/** The greeting's day in a year: the birthday itself, or 28 February for a 29 February birthday in other years. */
export function birthdayIn(year: number, mmdd: string): { year: number; month: number; day: number } | null {
  const m = /^(\d{2})-(\d{2})$/.exec(mmdd);
  if (!m) return null;
  const month = Number(m[1]);
  let day = Number(m[2]);
  if (month === 2 && day === 29 && !isLeap(year)) day = 28;
  return { year, month, day };
}

export const birthday: CampaignType<"BIRTHDAYGREETING"> = {
  type: "BIRTHDAYGREETING",
  kind: "ONGOING",
  keyword: "none",
  settingsOf: (input) => ({ sendTime: input.sendTime }),
  async check(trx, businessId) {
    const other = await trx
      .selectFrom("campaigns")
      .select("id")
      .where("business_id", "=", businessId)
      .where("type", "=", "BIRTHDAYGREETING")
      .where("status", "in", ["SCHEDULED", "ONGOING", "SUSPENDED"])
      .executeTakeFirst();
    if (other) throw new AppError("BR010");
  },
  issueText: () => null,
  asks: false,
  reanswer: false,
  lateAfterMs: 12 * 3_600_000,
  planMember(c, m, after) {
    if (!m.birthday) return null;
    const time = settingString(c.settings, "sendTime", "10:00");
    const start = ukDayOf(after).year;
    for (const year of [start, start + 1]) {
      const day = birthdayIn(year, m.birthday);
      if (!day) return null;
      const at = ukDayAt(day.year, day.month, day.day, time);
      if (at.getTime() > after.getTime()) return { occurrence: String(year), fireAt: at.toISOString() };
    }
    return null;
  },
};
