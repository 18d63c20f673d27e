// Pick winners: a draw among the members of a group, or among those who text the entry keyword before the draw.
// The draw happens by itself at the draw date. It is verifiable: a random seed is made when the campaign is saved
// and only its SHA-256 is shown; each entrant's ticket is SHA-256(seed + ":" + member id) and the lowest tickets
// win. After the draw the seed is shown, so anyone holding the list of entrants can check the winners. Winners
// of the business's draws in the last N days can be left out.
import crypto from "node:crypto";
import { groupCondition } from "~/domain/audience/audience.server";
import type { CampaignType } from "../type";
import { isSubscribed, recordResponse, sendToMembers, type Db, type LoadedCampaign } from "../kit.server";
import { CampaignFailure } from "../failure";

export function newSeed(): { seed: string; seedHash: string } {
  const seed = crypto.randomBytes(32).toString("hex");
  return { seed, seedHash: seedHash(seed) };
}

export function seedHash(seed: string): string {
  return crypto.createHash("sha256").update(seed).digest("hex");
}

/** An entrant's ticket: the lower, the earlier they are drawn. */
export function ticket(seed: string, memberId: number): string {
  return crypto.createHash("sha256").update(`${seed}:${memberId}`).digest("hex");
}

/** The winners among `entrants`: the `count` lowest tickets, in order. */
export function draw(seed: string, entrants: readonly number[], count: number): number[] {
  return [...new Set(entrants)]
    .map((id) => ({ id, t: ticket(seed, id) }))
    .sort((a, b) => (a.t < b.t ? -1 : a.t > b.t ? 1 : a.id - b.id))
    .slice(0, count)
    .map((e) => e.id);
}

export function pickSettings(c: Pick<LoadedCampaign, "settings">) {
  const s = c.settings;
  return {
    entrySource: s.entrySource === "KEYWORD" ? ("KEYWORD" as const) : ("GROUP" as const),
    numberWinnersToPick: typeof s.numberWinnersToPick === "number" ? s.numberWinnersToPick : 1,
    excludeWinnersDays: typeof s.excludeWinnersDays === "number" ? s.excludeWinnersDays : 0,
    entries: typeof s.entries === "number" ? s.entries : null,
  };
}

/** The member ids that may win now: subscribed, in the group or having entered, less recent winners. */
export async function entrants(trx: Db, c: LoadedCampaign, now: Date): Promise<number[]> {
  const s = pickSettings(c);
  let ids: number[];
  if (s.entrySource === "KEYWORD") {
    const rows = await trx
      .selectFrom("campaign_responses as r")
      .innerJoin("members as m", "m.id", "r.member_id")
      .select("m.id")
      .where("r.campaign_id", "=", c.id)
      .where("r.step", "=", "entry")
      .where("r.is_current", "=", 1)
      .where("m.status", "=", "SUBSCRIBED")
      .execute();
    ids = rows.map((r) => Number(r.id));
  } else {
    const condition = await groupCondition(trx, c.businessId, c.groupId ?? -1);
    const rows = await trx
      .selectFrom("members")
      .select("id")
      .where("business_id", "=", c.businessId)
      .where("status", "=", "SUBSCRIBED")
      .where((eb) => condition(eb))
      .execute();
    ids = rows.map((r) => Number(r.id));
  }
  if (s.excludeWinnersDays > 0 && ids.length) {
    const since = new Date(now.getTime() - s.excludeWinnersDays * 86_400_000).toISOString();
    const recent = await trx
      .selectFrom("campaign_winners")
      .select("member_id")
      .where("business_id", "=", c.businessId)
      .where("drawn_at", ">=", since)
      .where("campaign_id", "!=", c.id)
      .execute();
    const out = new Set(recent.map((r) => Number(r.member_id)));
    ids = ids.filter((id) => !out.has(id));
  }
  return ids.sort((a, b) => a - b);
}

export const pickWinners: CampaignType<"PICKWINNERS"> = {
  type: "PICKWINNERS",
  kind: "ONETIME",
  keyword: "optional",
  settingsOf: (input) => ({
    entrySource: input.entrySource,
    numberWinnersToPick: input.numberWinnersToPick,
    excludeWinnersDays: input.excludeWinnersDays,
  }),
  issueText: () => null,
  asks: false,
  reanswer: false,
  extraSteps: (c) => (c.closeAt ? [{ step: "draw", fireAt: c.closeAt }] : []),
  async runStep(ctx, c, step) {
    if (step !== "draw" || !c.seed) return;
    const pool = await entrants(ctx.trx, c, ctx.now);
    if (!pool.length) throw new CampaignFailure("SURVEYERROR_SG_SHORT");
    const s = pickSettings(c);
    const winners = draw(c.seed, pool, s.numberWinnersToPick);
    const at = ctx.now.toISOString();
    await ctx.trx
      .insertInto("campaign_winners")
      .values(winners.map((memberId, i) => ({ campaign_id: c.id, business_id: c.businessId, member_id: memberId, rank: i + 1, drawn_at: at })))
      .execute();
    await ctx.trx
      .updateTable("campaigns")
      .set({ settings: JSON.stringify({ ...c.settings, entries: pool.length }), status: "ENDED", ended_at: at, updated_at: at })
      .where("id", "=", c.id)
      .execute();
    if (c.messageText) await sendToMembers(ctx, c, winners, c.messageText);
  },
  async onKeyword(ctx, c, member, text) {
    if (pickSettings(c).entrySource !== "KEYWORD" || c.status !== "LIVE" || !isSubscribed(member)) return false;
    const recorded = await recordResponse(ctx.trx, c, {
      memberId: member.id,
      phone: text.phone,
      step: "entry",
      answer: "ENTRY",
      raw: text.body,
      inboundId: text.inboundId,
      at: text.receivedAt,
      replaces: true,
    });
    if (recorded && !recorded.previous && c.thankYouText) await sendToMembers(ctx, c, [member.id], c.thankYouText, { reply: true });
    return true;
  },
};

