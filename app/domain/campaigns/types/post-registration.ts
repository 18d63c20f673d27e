// Post-registration follow-up: a text a chosen time (1 to 100 hours or days) after a member joins, for members who
// join once the campaign is running, and (if the owner asks) those who joined in the last N days, whose follow-up
// goes at once if its time has passed.
import type { CampaignType } from "../type";
import { settingNumber, settingString } from "./dated-time";

const HOUR = 3_600_000;

export const postRegistration: CampaignType<"POSTREGISTRATION"> = {
  type: "POSTREGISTRATION",
  kind: "ONGOING",
  keyword: "none",
  settingsOf: (input) => ({ duration: input.duration, durationUnit: input.durationUnit, includeJoinedWithinDays: input.includeJoinedWithinDays }),
  issueText: () => null,
  asks: false,
  reanswer: false,
  lateAfterMs: 24 * HOUR,
  planMember(c, m, after) {
    if (!m.joinedAt || !c.issuedAt) return null;
    const joined = Date.parse(m.joinedAt);
    const from = Date.parse(c.issuedAt) - settingNumber(c.settings, "includeJoinedWithinDays", 0) * 24 * HOUR;
    if (!Number.isFinite(joined) || joined < from) return null;
    const unit = settingString(c.settings, "durationUnit", "DAYS") === "HOURS" ? HOUR : 24 * HOUR;
    const due = joined + settingNumber(c.settings, "duration", 1) * unit;
    // Someone who joined before the campaign started and whose time has passed is followed up now.
    const fireAt = due > after.getTime() ? due : joined < Date.parse(c.issuedAt) ? after.getTime() + 1 : null;
    return fireAt === null ? null : { occurrence: m.joinedAt, fireAt: new Date(fireAt).toISOString() };
  },
};
