// Quick poll: a question with 2 to 9 options. A member replies with the option's number or its words (any case);
// one vote per member, a later vote replacing the earlier one (counted once); the thank-you text answers each vote.
import type { CampaignType, ParsedAnswer } from "../type";
import type { LoadedCampaign } from "../kit.server";
import { sendToMembers } from "../kit.server";
import { normaliseAnswer, numberList, phrases } from "../texts";

export function pollOptions(c: Pick<LoadedCampaign, "settings">): string[] {
  const options = c.settings.responseOptions;
  return Array.isArray(options) ? options.filter((o): o is string => typeof o === "string") : [];
}

/** "2", "2.", "Option 2", "2 please", or the option's own words, whatever the case and accents. */
export function matchOption(options: readonly string[], body: string): number | null {
  const text = normaliseAnswer(body);
  if (!text) return null;
  const exact = options.findIndex((o) => normaliseAnswer(o) === text);
  if (exact >= 0) return exact;
  const numbered = /^(?:OPTION\s+|NO\.?\s*|#)?(\d{1,2})(?:[\s).:-]|$)/.exec(text);
  if (numbered) {
    const n = Number(numbered[1]);
    if (n >= 1 && n <= options.length) return n - 1;
  }
  return null;
}

export const poll: CampaignType<"POLL"> = {
  type: "POLL",
  kind: "ONETIME",
  keyword: "optional",
  settingsOf: (input) => ({ responseOptions: input.responseOptions }),
  issueText(c, locale) {
    return `${c.messageText ?? ""}\n${phrases(locale).options(pollOptions(c))}`;
  },
  asks: true,
  reanswer: true,
  parseAnswer(c, body): ParsedAnswer | null {
    const options = pollOptions(c);
    const i = matchOption(options, body);
    return i === null ? null : { key: String(i + 1), label: options[i] };
  },
  helpText(c, locale) {
    return phrases(locale).help(numberList(pollOptions(c).length, locale));
  },
  async afterAnswer(ctx, c, member) {
    if (c.thankYouText) await sendToMembers(ctx, c, [member.id], c.thankYouText, { reply: true });
  },
  labels: (c) => pollOptions(c),
};
