// One question: a question sent to a group; each member's first reply is their answer (also written into a member
// attribute when the owner chose one), thanked with the thank-you text; closes at the close date.
import { AppError } from "~/lib/errors";
import { parseAttributeValue, writeMemberValues } from "~/domain/members/attributes.server";
import type { CampaignType } from "../type";
import { sendToMembers } from "../kit.server";

/** Attribute types an answer can be written into. */
const WRITABLE = ["TEXT", "NOTE", "NUMBER"];

export const oneQuestion: CampaignType<"ONEQUESTION"> = {
  type: "ONEQUESTION",
  kind: "ONETIME",
  keyword: "optional",
  settingsOf: (input) => ({ attributeKey: input.attributeKey }),
  async check(trx, businessId, input) {
    if (!input.attributeKey) return;
    const attr = await trx
      .selectFrom("attributes")
      .select(["id", "type"])
      .where("business_id", "=", businessId)
      .where("key", "=", input.attributeKey)
      .executeTakeFirst();
    if (!attr || !WRITABLE.includes(attr.type)) throw new AppError("BR025", { context: "attribute" }, { field: "attributeKey" });
  },
  issueText: (c) => c.messageText,
  asks: true,
  reanswer: false,
  parseAnswer(_c, body) {
    const text = body.replace(/\s+/g, " ").trim();
    return text ? { key: "REPLY", label: text.slice(0, 1600) } : null;
  },
  async afterAnswer(ctx, c, member, _responseId, answer) {
    const key = typeof c.settings.attributeKey === "string" ? c.settings.attributeKey : null;
    if (key) {
      const attr = await ctx.trx
        .selectFrom("attributes")
        .select(["id", "type", "name"])
        .where("business_id", "=", c.businessId)
        .where("key", "=", key)
        .executeTakeFirst();
      if (attr && WRITABLE.includes(attr.type)) {
        // An answer that does not fit the attribute (words for a number) is kept as the reply only.
        let value = null;
        try {
          value = parseAttributeValue({ type: attr.type, items: [], name: attr.name }, answer.label.slice(0, attr.type === "NOTE" ? 5000 : 40), key);
        } catch {
          value = null;
        }
        if (value) await writeMemberValues(ctx.trx, c.businessId, member.id, new Map([[Number(attr.id), value]]));
      }
    }
    if (c.thankYouText) await sendToMembers(ctx, c, [member.id], c.thankYouText, { reply: true });
  },
};
