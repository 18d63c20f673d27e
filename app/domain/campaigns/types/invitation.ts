// Invitation (RSVP): the invitation with its accept and decline replies (YES and NO unless the owner chose others).
// Beyond the peers: an optional capacity with a waitlist (a decline frees places and the first on the waitlist who
// fits is told), an optional party size ("YES 3"), and a reminder the day before the event to those who accepted.
// Accepted members are kept in a campaign group of their own, so the owner can text them later.
import type { Member } from "#db/types";
import type { CampaignType, ParsedAnswer } from "../type";
import { changeAnswer, sendToMembers, type EngineCtx, type LoadedCampaign } from "../kit.server";
import { normaliseAnswer, phrases } from "../texts";

export const MAX_PARTY = 20;

export interface InvitationSettings {
  responseOptions: [string, string];
  acceptText: string;
  declineText: string;
  capacity: number | null;
  allowPartySize: boolean;
  eventDate: string | null;
  remindDayBefore: boolean;
  reminderText: string | null;
}

export function invitationSettings(c: Pick<LoadedCampaign, "settings">): InvitationSettings {
  const s = c.settings;
  const options = Array.isArray(s.responseOptions) && s.responseOptions.length === 2 ? (s.responseOptions as [string, string]) : (["YES", "NO"] as [string, string]);
  return {
    responseOptions: options,
    acceptText: typeof s.acceptText === "string" ? s.acceptText : "",
    declineText: typeof s.declineText === "string" ? s.declineText : "",
    capacity: typeof s.capacity === "number" ? s.capacity : null,
    allowPartySize: s.allowPartySize === true,
    eventDate: typeof s.eventDate === "string" ? s.eventDate : null,
    remindDayBefore: s.remindDayBefore === true,
    reminderText: typeof s.reminderText === "string" ? s.reminderText : null,
  };
}

/** Words that also mean yes or no when the replies are the default YES and NO. */
const YES_WORDS = ["YES", "Y", "YEP", "YEAH", "OUI", "1"];
const NO_WORDS = ["NO", "N", "NOPE", "NON", "2"];

export function parseRsvp(s: InvitationSettings, body: string): ParsedAnswer | null {
  const text = normaliseAnswer(body);
  if (!text) return null;
  const [accept, decline] = s.responseOptions.map(normaliseAnswer);
  const defaults = accept === "YES" && decline === "NO";
  const words = text.split(" ");
  const first = words[0];
  const match = (option: string, synonyms: string[]) =>
    text === option || first === option || text.startsWith(`${option} `) || (defaults && synonyms.includes(first));
  if (match(accept, YES_WORDS)) {
    let party = 1;
    const rest = text.slice(text.startsWith(`${accept} `) ? accept.length + 1 : first.length + 1);
    const n = /^(\d{1,2})\b/.exec(rest);
    if (s.allowPartySize && n) party = Math.min(MAX_PARTY, Math.max(1, Number(n[1])));
    return { key: "ACCEPT", label: s.responseOptions[0], partySize: party };
  }
  if (match(decline, NO_WORDS)) return { key: "DECLINE", label: s.responseOptions[1] };
  return null;
}

async function acceptedPlaces(ctx: EngineCtx, c: LoadedCampaign): Promise<number> {
  const row = await ctx.trx.selectFrom("campaign_answer_counts").select("places").where("campaign_id", "=", c.id).where("answer", "=", "ACCEPT").executeTakeFirst();
  return Number(row?.places ?? 0);
}

async function addToGroup(ctx: EngineCtx, c: LoadedCampaign, memberId: number) {
  if (!c.resultGroupId) return;
  await ctx.trx
    .insertInto("group_members")
    .values({ group_id: c.resultGroupId, member_id: memberId, added_at: ctx.now.toISOString() })
    .onConflict((oc) => oc.columns(["group_id", "member_id"]).doNothing())
    .execute();
}

async function removeFromGroup(ctx: EngineCtx, c: LoadedCampaign, memberId: number) {
  if (!c.resultGroupId) return;
  await ctx.trx.deleteFrom("group_members").where("group_id", "=", c.resultGroupId).where("member_id", "=", memberId).execute();
}

/** Places freed: the first on the waitlist whose party fits is moved to accepted and told, in order of reply. */
async function promoteWaitlist(ctx: EngineCtx, c: LoadedCampaign, s: InvitationSettings): Promise<void> {
  if (s.capacity === null) return;
  const waiting = await ctx.trx
    .selectFrom("campaign_responses")
    .select(["id", "member_id", "party_size"])
    .where("campaign_id", "=", c.id)
    .where("is_current", "=", 1)
    .where("answer", "=", "WAITLIST")
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  let taken = await acceptedPlaces(ctx, c);
  for (const w of waiting) {
    const party = Number(w.party_size);
    if (taken + party > s.capacity) continue;
    await changeAnswer(ctx.trx, c, Number(w.id), "WAITLIST", "ACCEPT", party);
    taken += party;
    if (w.member_id !== null) {
      await addToGroup(ctx, c, Number(w.member_id));
      const locale = ctx.business.locale;
      await sendToMembers(ctx, c, [Number(w.member_id)], `${phrases(locale).placeOpened(c.name)} ${s.acceptText}`.trim(), { reply: true });
    }
  }
}

export const invitation: CampaignType<"INVITATION"> = {
  type: "INVITATION",
  kind: "ONETIME",
  keyword: "optional",
  settingsOf: (input) => ({
    responseOptions: input.responseOptions,
    acceptText: input.acceptText,
    declineText: input.declineText,
    capacity: input.capacity,
    allowPartySize: input.allowPartySize,
    eventDate: input.eventDate,
    remindDayBefore: input.remindDayBefore,
    reminderText: input.reminderText,
  }),
  issueText(c, locale) {
    const s = invitationSettings(c);
    return `${c.messageText ?? ""}\n${phrases(locale).rsvp(s.responseOptions[0], s.responseOptions[1], s.allowPartySize)}`;
  },
  asks: true,
  reanswer: true,
  extraSteps(c) {
    const s = invitationSettings(c);
    if (!s.remindDayBefore || !s.eventDate) return [];
    return [{ step: "reminder", fireAt: new Date(Date.parse(s.eventDate) - 86_400_000).toISOString() }];
  },
  async runStep(ctx, c, step) {
    if (step !== "reminder") return;
    const s = invitationSettings(c);
    const accepted = await ctx.trx
      .selectFrom("campaign_responses")
      .select("member_id")
      .where("campaign_id", "=", c.id)
      .where("is_current", "=", 1)
      .where("answer", "=", "ACCEPT")
      .where("member_id", "is not", null)
      .execute();
    const ids = accepted.map((r) => Number(r.member_id));
    await sendToMembers(ctx, c, ids, s.reminderText ?? phrases(ctx.business.locale).reminder(c.name));
  },
  parseAnswer: (c, body) => parseRsvp(invitationSettings(c), body),
  helpText(c, locale) {
    const s = invitationSettings(c);
    return phrases(locale).help(`${s.responseOptions[0]} ${phrases(locale).or} ${s.responseOptions[1]}`);
  },
  async afterAnswer(ctx, c, member: Member, responseId, answer, previous) {
    const s = invitationSettings(c);
    const party = answer.partySize ?? 1;
    if (answer.key === "ACCEPT") {
      // Already accepted (or waiting) with the same party: nothing moves, the reply is thanked again.
      if (s.capacity !== null && (await acceptedPlaces(ctx, c)) > s.capacity) {
        await changeAnswer(ctx.trx, c, responseId, "ACCEPT", "WAITLIST", party);
        await removeFromGroup(ctx, c, member.id);
        await sendToMembers(ctx, c, [member.id], phrases(ctx.business.locale).waitlist, { reply: true });
        if (previous?.answer === "ACCEPT") await promoteWaitlist(ctx, c, s);
        return;
      }
      await addToGroup(ctx, c, member.id);
      await sendToMembers(ctx, c, [member.id], s.acceptText, { reply: true });
      if (previous?.answer === "ACCEPT" && previous.partySize > party) await promoteWaitlist(ctx, c, s);
      return;
    }
    await removeFromGroup(ctx, c, member.id);
    await sendToMembers(ctx, c, [member.id], s.declineText, { reply: true });
    if (previous?.answer === "ACCEPT") await promoteWaitlist(ctx, c, s);
  },
  labels: (c) => invitationSettings(c).responseOptions,
};
