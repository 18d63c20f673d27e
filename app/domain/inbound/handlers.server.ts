// The router's fixed handlers: compliance, the join keyword, the conversation. Campaign handlers are added by the
// campaign engine in index.server.ts, between the join keyword and the conversation.
import { optOut, requestOptIn, subscribe, consentTexts } from "~/domain/consent/consent.server";
import { enqueueSystemText } from "~/domain/messaging/outbound.server";
import { recordInboundInConversation } from "~/domain/conversations/inbound.server";
import type { InboundHandler, RouteContext } from "./router.server";

function evidenceOf(ctx: RouteContext): string {
  return ctx.text.body.slice(0, 500);
}

/**
 * STOP and every clear objection opt the number out (a member in any state, or a number that never joined, whose
 * objection is remembered), with one confirmation; START subscribes again a member who is not subscribed (their
 * own act); HELP answers with the help text. A subscribed member's "YES" is not a START: it passes on, so that
 * it can answer a campaign's question.
 */
export const complianceHandler: InboundHandler = {
  name: "compliance",
  async handle(ctx) {
    const { trx, now, business, member } = ctx;
    const phone = ctx.text.from_number;
    const intent = ctx.compliance.intent;
    if (intent === "STOP") {
      await optOut(trx, { business, phone, member, channel: "SMS", evidence: evidenceOf(ctx), confirm: true }, now);
      return { kind: "STOP", memberId: member?.id ?? null };
    }
    if (intent === "START" && member && member.status !== "SUBSCRIBED") {
      await subscribe(trx, { business, member, channel: "SMS", evidence: evidenceOf(ctx), fromTheirPhone: true }, now);
      return { kind: "START", memberId: member.id };
    }
    if (intent === "HELP") {
      await enqueueSystemText(trx, { businessId: business.id, to: phone, body: consentTexts(business).help, memberId: member?.id ?? null, now, fromPhone: business.phone_number });
      return { kind: "HELP", memberId: member?.id ?? null };
    }
    if (intent === "START" && !member) return { kind: "UNKNOWN_SENDER", memberId: null };
    return null;
  },
};

/** The business's join keyword, alone, from a number that is not subscribed: the double opt-in starts (or is asked again). */
export const joinHandler: InboundHandler = {
  name: "join",
  async handle(ctx) {
    const joinWord = (ctx.business.join_keyword || "JOIN").trim().toUpperCase();
    if (ctx.words.length !== 1 || ctx.words[0] !== joinWord) return null;
    if (ctx.member?.status === "SUBSCRIBED") return null;
    const result = await requestOptIn(
      ctx.trx,
      { business: ctx.business, phone: ctx.text.from_number, member: ctx.member ?? null, actor: "SELF", channel: "SMS", evidence: evidenceOf(ctx) },
      ctx.now,
    );
    ctx.member = result.member;
    return { kind: "JOIN", memberId: result.member.id };
  },
};

/** Any other text from a member goes to their DM thread, unread; one that might be an objection is flagged for the owner. */
export const conversationHandler: InboundHandler = {
  name: "conversation",
  async handle(ctx) {
    if (!ctx.member) return null;
    const flag = ctx.compliance.maybeStop ? "MAYBE_STOP" : null;
    await recordInboundInConversation(ctx.trx, { businessId: ctx.business.id, memberId: ctx.member.id, receivedAt: ctx.text.received_at, flag });
    return { kind: "MESSAGE", memberId: ctx.member.id, flag };
  },
};

/** How long after the welcome a reply can still be taken as the member's name. */
const NAME_WINDOW_MS = 7 * 86_400_000;
const NOT_NAMES = new Set(["YES", "NO", "OK", "OKAY", "THANKS", "THANK", "THANKYOU", "CHEERS", "HI", "HELLO", "HEY", "OUI", "NON", "MERCI", "BONJOUR", "SALUT", "TA"]);

/** A reply that reads as a first name (one to three words of letters), tidied; null otherwise. */
export function nameFromReply(body: string): string | null {
  const text = body.normalize("NFKC").replace(/[\p{Cf}]/gu, "").trim().replace(/[.!]+$/u, "").replace(/^(it'?s|i'?m|je suis|c'est|my name is|moi c'est)\s+/iu, "");
  if (!text || text.length > 40) return null;
  const words = text.split(/\s+/u);
  if (words.length > 3 || !words.every((w) => /^\p{L}[\p{L}'’-]*$/u.test(w))) return null;
  if (words.some((w) => NOT_NAMES.has(w.normalize("NFD").replace(/\p{M}/gu, "").toUpperCase()))) return null;
  const shouting = text === text.toUpperCase() || text === text.toLowerCase();
  return shouting ? words.map((w) => w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()).join(" ") : words.join(" ");
}

/**
 * The first reply after a welcome that asked for a first name: if it reads as a name it fills the member's first
 * name and is thanked; either way the question is closed (only the first reply is taken as an answer).
 */
export const nameHandler: InboundHandler = {
  name: "name",
  async handle(ctx) {
    const m = ctx.member;
    if (!m || m.status !== "SUBSCRIBED" || !m.name_asked_at) return null;
    const asked = Date.parse(m.name_asked_at);
    const name = Date.parse(ctx.text.received_at) - asked <= NAME_WINDOW_MS ? nameFromReply(ctx.text.body) : null;
    await ctx.trx
      .updateTable("members")
      .set(name && !m.first_name ? { first_name: name, name_asked_at: null, updated_at: ctx.now.toISOString() } : { name_asked_at: null })
      .where("id", "=", m.id)
      .execute();
    if (!name) return null;
    await enqueueSystemText(ctx.trx, {
      businessId: ctx.business.id,
      to: ctx.text.from_number,
      body: consentTexts(ctx.business).nameThanks(name),
      memberId: m.id,
      now: ctx.now,
      fromPhone: ctx.business.phone_number,
    });
    return { kind: "NAME", memberId: m.id };
  },
};
