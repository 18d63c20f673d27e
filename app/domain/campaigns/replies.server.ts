// The campaign engine's two handlers in the inbound router, after compliance and the join keyword:
//
// 1. keyword: a text whose first word is the keyword of a live campaign of that business (any case, punctuation
//    ignored) goes to that campaign. For a campaign that asks a question, the keyword alone asks it (the member
//    then answers), and words after it are the answer; other types decide for themselves (an auto reply, an entry).
// 2. open question: a member with open questions (a one question, poll or invitation sent to them and not closed)
//    answers the most recently sent one. An answer that fits no option gets one short help text, and the text goes
//    on to the inbox.
//
// Both load what they need once per batch (live keywords for the batch's businesses; open questions for its
// phones), so the cost per text stays flat. Everything happens in the inbound batch's transaction: a replayed text
// is recorded once (answers are unique by inbound text).
import type { Member } from "#db/types";
import type { InboundHandler, InboundText, RouteContext, RouteResult, RouterBusiness } from "~/domain/inbound/router.server";
import { pipelineEnv } from "~/domain/messaging/outbound.server";
import { campaignType } from "./registry.server";
import { campaignsByIds } from "./engine.server";
import { phrases } from "./texts";
import { isSubscribed, loaded, recordResponse, sendToMembers, type Db, type EngineCtx, type LoadedCampaign } from "./kit.server";

function engineCtx(ctx: RouteContext): EngineCtx {
  return {
    trx: ctx.trx,
    now: ctx.now,
    env: pipelineEnv({ db: ctx.trx, now: () => ctx.now, config: { messaging: ctx.pipeline, publicUrl: ctx.pipeline.publicUrl } }),
    business: { id: ctx.business.id, name: ctx.business.name, locale: ctx.business.locale, phone_number: ctx.business.phone_number },
  };
}

function result(member: Member | undefined, c: LoadedCampaign): RouteResult {
  return { kind: "CAMPAIGN", memberId: member?.id ?? null, campaignId: c.id };
}

/** The text after its first word. */
function afterFirstWord(body: string): string {
  return body.trim().replace(/^\S+\s*/u, "").trim();
}

/**
 * An answer from a subscribed member to a campaign that asks: stored (replacing their earlier answer where the type
 * allows), followed by what the type does. Returns false when the text fits no answer (after the one help text).
 */
async function answer(ctx: RouteContext, c: LoadedCampaign, member: Member, body: string, wait: { id: number; helped: number; step: string } | null): Promise<boolean> {
  const type = campaignType(c.type);
  const step = wait?.step ?? type.firstStep ?? "answer";
  const parsed = type.parseAnswer?.(c, body, step) ?? null;
  const e = engineCtx(ctx);
  if (!parsed) {
    if (type.helpText && (!wait || !wait.helped)) {
      if (wait) await ctx.trx.updateTable("campaign_waits").set({ helped: 1 }).where("id", "=", wait.id).execute();
      await sendToMembers(e, c, [member.id], type.helpText(c, e.business.locale, step), { reply: true });
    }
    return false;
  }
  const recorded = await recordResponse(ctx.trx, c, {
    memberId: member.id,
    phone: ctx.text.from_number,
    step,
    answer: parsed.key,
    raw: ctx.text.body,
    inboundId: ctx.text.id,
    partySize: parsed.partySize,
    at: ctx.text.received_at,
    replaces: type.reanswer,
  });
  if (!recorded) return true;
  const next = await type.afterAnswer?.(e, c, member, recorded.id, parsed, recorded.previous, step);
  if (wait && next) await ctx.trx.updateTable("campaign_waits").set({ step: next.nextStep, helped: 0 }).where("id", "=", wait.id).execute();
  else if (wait && !type.reanswer) await ctx.trx.updateTable("campaign_waits").set({ status: "ANSWERED" }).where("id", "=", wait.id).execute();
  return true;
}

type KeywordIndex = Map<number, Map<string, LoadedCampaign>>;

export const campaignKeywordHandler: InboundHandler = {
  name: "campaign-keyword",
  async preload(trx: Db, _texts: readonly InboundText[], businesses: ReadonlyMap<number, RouterBusiness>): Promise<KeywordIndex> {
    const index: KeywordIndex = new Map();
    const ids = [...businesses.keys()];
    if (!ids.length) return index;
    const rows = await trx
      .selectFrom("campaigns")
      .selectAll()
      .where("business_id", "in", ids)
      .where("status", "in", ["LIVE", "ONGOING"])
      .where("keyword", "is not", null)
      .execute();
    for (const row of rows) {
      const c = loaded(row);
      let byWord = index.get(c.businessId);
      if (!byWord) index.set(c.businessId, (byWord = new Map<string, LoadedCampaign>()));
      byWord.set(c.keyword!, c);
    }
    return index;
  },
  async handle(ctx) {
    const word = ctx.words[0];
    if (!word) return null;
    const c = (ctx.preloaded.get(this.name) as KeywordIndex | undefined)?.get(ctx.business.id)?.get(word);
    if (!c) return null;
    const type = campaignType(c.type);
    const rest = afterFirstWord(ctx.text.body);
    if (type.asks) {
      if (!isSubscribed(ctx.member) || (c.status !== "LIVE" && c.status !== "ONGOING")) return null;
      const member = ctx.member;
      const wait = await ctx.trx
        .selectFrom("campaign_waits")
        .select(["id", "helped", "status", "step"])
        .where("campaign_id", "=", c.id)
        .where("member_id", "=", member.id)
        .executeTakeFirst();
      if (!rest) {
        const at = ctx.now.toISOString();
        const first = type.firstStep ?? "answer";
        if (wait?.status === "OPEN" && wait.step !== first) {
          // Part-way through a survey: the keyword again does not start it afresh (their first answers stand).
          const e = engineCtx(ctx);
          await sendToMembers(e, c, [member.id], phrases(e.business.locale).alreadyInSurvey, { reply: true });
          return result(member, c);
        }
        // The keyword alone: they are asked the question, and their next text answers it.
        if (wait) await ctx.trx.updateTable("campaign_waits").set({ status: "OPEN", step: first, opened_at: at, helped: 0 }).where("id", "=", wait.id).execute();
        else await ctx.trx.insertInto("campaign_waits").values({ business_id: c.businessId, campaign_id: c.id, member_id: member.id, status: "OPEN", step: first, helped: 0, opened_at: at, closes_at: c.closeAt }).execute();
        const e = engineCtx(ctx);
        await sendToMembers(e, c, [member.id], (type.askText ?? type.issueText)(c, e.business.locale) ?? "", { reply: true });
        return result(member, c);
      }
      const open = wait?.status === "OPEN" ? { id: Number(wait.id), helped: Number(wait.helped), step: wait.step } : null;
      const ok = await answer(ctx, c, member, rest, open ?? (wait ? { id: Number(wait.id), helped: Number(wait.helped), step: type.firstStep ?? "answer" } : null));
      return ok ? result(member, c) : null;
    }
    const handled = await type.onKeyword?.(engineCtx(ctx), c, ctx.member, { inboundId: ctx.text.id, phone: ctx.text.from_number, body: ctx.text.body, receivedAt: ctx.text.received_at }, rest);
    return handled ? result(ctx.member, c) : null;
  },
};

interface OpenWait {
  id: number;
  campaignId: number;
  helped: number;
  step: string;
  openedAt: string;
  closesAt: string | null;
}

interface WaitIndex {
  waits: Map<string, OpenWait[]>;
  campaigns: Map<number, LoadedCampaign>;
}

export const campaignAnswerHandler: InboundHandler = {
  name: "campaign-answer",
  async preload(trx: Db, texts: readonly InboundText[]): Promise<WaitIndex> {
    const waits = new Map<string, OpenWait[]>();
    const phones = [...new Set(texts.map((t) => t.from_number))];
    const businessIds = [...new Set(texts.map((t) => t.business_id))];
    if (!phones.length) return { waits, campaigns: new Map() };
    const rows = await trx
      .selectFrom("campaign_waits as w")
      .innerJoin("members as m", "m.id", "w.member_id")
      .select(["w.id", "w.campaign_id", "w.helped", "w.step", "w.opened_at", "w.closes_at", "m.phone", "m.business_id"])
      .where("w.status", "=", "OPEN")
      .where("m.business_id", "in", businessIds)
      .where("m.phone", "in", phones)
      .orderBy("w.opened_at", "desc")
      .orderBy("w.id", "desc")
      .execute();
    for (const r of rows) {
      const key = `${r.business_id}:${r.phone}`;
      const list = waits.get(key) ?? [];
      list.push({ id: Number(r.id), campaignId: Number(r.campaign_id), helped: Number(r.helped), step: r.step, openedAt: r.opened_at, closesAt: r.closes_at });
      waits.set(key, list);
    }
    return { waits, campaigns: await campaignsByIds(trx, rows.map((r) => Number(r.campaign_id))) };
  },
  async handle(ctx) {
    if (!isSubscribed(ctx.member)) return null;
    const index = ctx.preloaded.get(this.name) as WaitIndex | undefined;
    const list = index?.waits.get(`${ctx.business.id}:${ctx.text.from_number}`) ?? [];
    // The most recently sent question that is still open when the text arrived.
    const wait = list.find((w) => {
      const c = index?.campaigns.get(w.campaignId);
      return (c?.status === "LIVE" || c?.status === "ONGOING") && (!w.closesAt || w.closesAt > ctx.text.received_at);
    });
    if (!wait) return null;
    const c = index!.campaigns.get(wait.campaignId)!;
    const ok = await answer(ctx, c, ctx.member, ctx.text.body, wait);
    return ok ? result(ctx.member, c) : null;
  },
};
