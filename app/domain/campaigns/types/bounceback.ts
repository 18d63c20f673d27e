// Auto responder (bounce-back): anyone who texts the keyword gets the reply, once per text. A subscribed member's
// reply is a charged campaign text; a number that is not a member (or not yet confirmed) gets it as a plain reply;
// a number that has opted out gets nothing.
import { hasObjected } from "~/domain/consent/consent.server";
import type { CampaignType } from "../type";
import { isSubscribed, recordResponse, sendToMembers, sendToPhone } from "../kit.server";

export const bounceback: CampaignType<"BOUNCEBACK"> = {
  type: "BOUNCEBACK",
  kind: "ONGOING",
  keyword: "required",
  settingsOf: () => ({}),
  issueText: () => null,
  asks: false,
  reanswer: false,
  async onKeyword(ctx, c, member, text) {
    if (member && (member.status === "OPTED_OUT" || member.status === "DELETED")) return false;
    if (!member && (await hasObjected(ctx.trx, c.businessId, text.phone))) return false;
    const recorded = await recordResponse(ctx.trx, c, {
      memberId: member?.id ?? null,
      phone: text.phone,
      step: "keyword",
      answer: "KEYWORD",
      raw: text.body,
      inboundId: text.inboundId,
      at: text.receivedAt,
      replaces: false,
    });
    if (!recorded) return true;
    const body = c.messageText ?? "";
    if (isSubscribed(member)) await sendToMembers(ctx, c, [member.id], body, { reply: true });
    else await sendToPhone(ctx, c, text.phone, body, member?.id ?? null);
    return true;
  },
};
