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
    await recordInboundInConversation(ctx.trx, { businessId: ctx.business.id, memberId: ctx.member.id, receivedAt: ctx.text.received_at });
    return { kind: "MESSAGE", memberId: ctx.member.id, flag: ctx.compliance.maybeStop ? "MAYBE_STOP" : null };
  },
};
