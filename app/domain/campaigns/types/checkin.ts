// Venue check-in: a person texts the keyword (or scans the QR code, which fills it in) and is checked in; the reply
// carries a personal check-out link (/checkout/{ref}, no login). A member's check-in reply is a campaign text; a
// number that is not a member is checked in too and invited to join with the double opt-in; a number that opted
// out is left alone. With automatic check-out, a visit ends by itself after N hours.
import crypto from "node:crypto";
import { hasObjected, loadConsentBusiness, requestOptIn } from "~/domain/consent/consent.server";
import type { CampaignType } from "../type";
import { isSubscribed, recordResponse, sendToMembers, sendToPhone, type Db, type LoadedCampaign } from "../kit.server";
import { settingNumber } from "./dated-time";

export function newCheckinRef(): string {
  return crypto.randomBytes(12).toString("base64url");
}

export function checkoutLink(publicUrl: string | undefined, ref: string): string {
  return `${(publicUrl ?? "").replace(/\/$/, "")}/checkout/${ref}`;
}

/** The moment a visit ends without a check-out: its check-in plus the automatic check-out hours, or never. */
export function autoCheckoutAt(c: Pick<LoadedCampaign, "settings">, checkedInAt: string): string | null {
  const hours = settingNumber(c.settings, "autoCheckoutHours", 0);
  return hours > 0 ? new Date(Date.parse(checkedInAt) + hours * 3_600_000).toISOString() : null;
}

/** Records a check-in; returns its personal reference. */
export async function checkIn(trx: Db, c: LoadedCampaign, who: { memberId: number | null; phone: string }, source: "SMS" | "QR", at: string): Promise<string> {
  const ref = newCheckinRef();
  await trx
    .insertInto("campaign_checkins")
    .values({ business_id: c.businessId, campaign_id: c.id, member_id: who.memberId, phone: who.phone, ref, source, checked_in_at: at, checked_out_at: null })
    .execute();
  return ref;
}

export const checkin: CampaignType<"CHECKIN"> = {
  type: "CHECKIN",
  kind: "ONGOING",
  keyword: "required",
  settingsOf: (input) => ({ autoCheckoutHours: input.autoCheckoutHours }),
  issueText: () => null,
  asks: false,
  reanswer: false,
  async onKeyword(ctx, c, member, text) {
    if (c.status !== "ONGOING") return false;
    if (member && (member.status === "OPTED_OUT" || member.status === "DELETED")) return false;
    if (!member && (await hasObjected(ctx.trx, c.businessId, text.phone))) return false;
    const recorded = await recordResponse(ctx.trx, c, { memberId: member?.id ?? null, phone: text.phone, step: "keyword", answer: "CHECKIN", raw: text.body, inboundId: text.inboundId, at: text.receivedAt, replaces: false });
    if (!recorded) return true;
    const ref = await checkIn(ctx.trx, c, { memberId: member?.id ?? null, phone: text.phone }, "SMS", text.receivedAt);
    const body = `${c.messageText ?? ""}\n${checkoutLink(ctx.env.publicUrl, ref)}`;
    if (isSubscribed(member)) {
      await sendToMembers(ctx, c, [member.id], body, { reply: true });
      return true;
    }
    await sendToPhone(ctx, c, text.phone, body, member?.id ?? null);
    if (!member) {
      // Not a member yet: checked in all the same, and invited to join (they must reply YES).
      const business = await loadConsentBusiness(ctx.trx, c.businessId);
      await requestOptIn(ctx.trx, { business, phone: text.phone, member: null, actor: "SELF", channel: "SMS", evidence: `Checked in with ${c.keyword}` }, ctx.now);
    }
    return true;
  },
};
