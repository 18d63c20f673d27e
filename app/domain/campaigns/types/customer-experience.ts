// Customer experience (NPS): the intro and a 0 to 10 score question, started by the keyword (a text, or the QR
// code that fills one in) or sent to a group. The score is read as a person would mean it ("9", "9/10", "nine",
// "10!"); 11 or words get one short help text. Then the second question and the thank-you in two variants: for 0
// to 6 and for 7 to 10. Beyond the peers: a detractor's answers open their conversation as unread and put an alert
// on the home feed; a promoter (9 or 10) is offered the owner's review link.
import { recordInboundInConversation } from "~/domain/conversations/inbound.server";
import type { CampaignType } from "../type";
import { sendToMembers, type LoadedCampaign } from "../kit.server";
import { normaliseAnswer, phrases } from "../texts";
import { settingString } from "./dated-time";

const WORDS: Record<string, number> = {
  ZERO: 0, NIL: 0, NONE: 0, ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5, SIX: 6, SEVEN: 7, EIGHT: 8, NINE: 9, TEN: 10,
  UN: 1, UNE: 1, DEUX: 2, TROIS: 3, QUATRE: 4, CINQ: 5, SEPT: 7, HUIT: 8, NEUF: 9, DIX: 10,
};

/** A 0 to 10 score from a reply, or null. */
export function parseScore(body: string): number | null {
  if (/^\s*[-−]\s*\d/.test(body)) return null;
  const text = normaliseAnswer(body);
  if (!text) return null;
  const digits = /^(\d{1,2})(?:\s*(?:\/|OUT OF|SUR)\s*10)?(?:\s|$)/.exec(text);
  if (digits) {
    const n = Number(digits[1]);
    return n >= 0 && n <= 10 ? n : null;
  }
  const first = text.split(" ")[0];
  return first in WORDS ? WORDS[first] : null;
}

export type NpsClass = "PROMOTER" | "PASSIVE" | "DETRACTOR";

export function npsClass(score: number): NpsClass {
  return score >= 9 ? "PROMOTER" : score >= 7 ? "PASSIVE" : "DETRACTOR";
}

/** % promoters − % detractors, a whole number from −100 to 100 (null with no answers). */
export function npsScore(promoters: number, passives: number, detractors: number): number | null {
  const n = promoters + passives + detractors;
  return n === 0 ? null : Math.round(((promoters - detractors) / n) * 100);
}

function s(c: LoadedCampaign, key: string): string {
  return settingString(c.settings, key, "");
}

const ALERT: Record<string, (name: string, score: number, campaign: string) => { title: string; body: string }> = {
  "en-GB": (name, score, campaign) => ({ title: `${name} scored you ${score} out of 10`, body: `In "${campaign}". Their conversation is open in Messages, marked unread.` }),
  fr: (name, score, campaign) => ({ title: `${name} vous a donné ${score} sur 10`, body: `Dans « ${campaign} ». Sa conversation est ouverte dans Messages, marquée non lue.` }),
};

export const customerExperience: CampaignType<"CUSTOMEREXP"> = {
  type: "CUSTOMEREXP",
  kind: "ONGOING",
  keyword: "required",
  settingsOf: (input) => ({
    introText: input.introText,
    scoreQuestionText: input.scoreQuestionText,
    detractorQuestionText: input.detractorQuestionText,
    promoterQuestionText: input.promoterQuestionText,
    detractorThankYouText: input.detractorThankYouText,
    promoterThankYouText: input.promoterThankYouText,
    reviewLink: input.reviewLink,
  }),
  // Sent at the start only when the owner chose a group; otherwise it starts from the keyword or the QR code.
  issueText: (c) => (c.groupId === null ? null : `${s(c, "introText")}\n${s(c, "scoreQuestionText")}`),
  askText: (c) => `${s(c, "introText")}\n${s(c, "scoreQuestionText")}`,
  asks: true,
  reanswer: false,
  firstStep: "score",
  parseAnswer(_c, body, step) {
    if (step === "score") {
      const score = parseScore(body);
      return score === null ? null : { key: String(score), label: String(score) };
    }
    const text = body.replace(/\s+/g, " ").trim();
    return text ? { key: "COMMENT", label: text.slice(0, 1600) } : null;
  },
  helpText: (_c, locale, step) => (step === "score" ? phrases(locale).scoreHelp : ""),
  async afterAnswer(ctx, c, member, _responseId, answer, _previous, step) {
    if (step === "score") {
      const score = Number(answer.key);
      const detractor = npsClass(score) === "DETRACTOR";
      if (detractor) {
        // The owner hears about it at once: the conversation opens unread, and the home feed says so.
        await recordInboundInConversation(ctx.trx, { businessId: c.businessId, memberId: member.id, receivedAt: ctx.now.toISOString(), flag: null });
        const alert = (ALERT[ctx.business.locale] ?? ALERT["en-GB"])(member.first_name || member.full_name || member.phone, score, c.name);
        await ctx.trx.insertInto("notices").values({ business_id: c.businessId, kind: "NPS_DETRACTOR", title: alert.title, body: alert.body, created_at: ctx.now.toISOString() }).execute();
      }
      await sendToMembers(ctx, c, [member.id], s(c, detractor ? "detractorQuestionText" : "promoterQuestionText"), { reply: true });
      return { nextStep: "comment" };
    }
    const score = await ctx.trx
      .selectFrom("campaign_responses")
      .select("answer")
      .where("campaign_id", "=", c.id)
      .where("member_id", "=", member.id)
      .where("step", "=", "score")
      .orderBy("id", "desc")
      .executeTakeFirst();
    const value = Number(score?.answer ?? 0);
    const detractor = npsClass(value) === "DETRACTOR";
    if (detractor) await recordInboundInConversation(ctx.trx, { businessId: c.businessId, memberId: member.id, receivedAt: ctx.now.toISOString(), flag: null });
    const link = !detractor && value >= 9 && s(c, "reviewLink") ? `\n${s(c, "reviewLink")}` : "";
    await sendToMembers(ctx, c, [member.id], `${s(c, detractor ? "detractorThankYouText" : "promoterThankYouText")}${link}`, { reply: true });
  },
};
