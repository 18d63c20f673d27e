// Asking one member for feedback: the owner sends the customer experience survey to a customer after a visit (from
// the member's page or the API) instead of waiting for them to text the keyword or scan the QR code. The rules:
// - there must be a running customer experience survey (BR005 before one is set up);
// - the member must have confirmed their subscription (BR027);
// - someone part-way through this survey is not asked again (BR006): their next text already answers it;
// - someone with another survey's question open is not asked either (BR031): their next text would answer the
//   wrong one.
import { AppError } from "~/lib/errors";
import { enqueueMessage, pipelineEnv } from "~/domain/messaging/outbound.server";
import type { CampaignDeps } from "./campaigns.server";
import { engineBusiness } from "./engine.server";
import { loaded, type Db, type LoadedCampaign } from "./kit.server";
import { campaignType } from "./registry.server";

/** The business's running customer experience survey (the most recently started), or null. */
export async function runningSurvey(db: Db, businessId: number): Promise<LoadedCampaign | null> {
  const row = await db
    .selectFrom("campaigns")
    .selectAll()
    .where("business_id", "=", businessId)
    .where("type", "=", "CUSTOMEREXP")
    .where("status", "=", "ONGOING")
    .orderBy("issued_at", "desc")
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row ? loaded(row) : null;
}

/** Why a member cannot be asked now (the §8 code), or null when they can. */
async function refusal(trx: Db, c: LoadedCampaign, memberId: number, at: string): Promise<"BR006" | "BR031" | null> {
  const open = await trx
    .selectFrom("campaign_waits as w")
    .innerJoin("campaigns as c", "c.id", "w.campaign_id")
    .select(["w.campaign_id"])
    .where("w.member_id", "=", memberId)
    .where("w.status", "=", "OPEN")
    .where("c.status", "in", ["LIVE", "ONGOING"])
    .where((eb) => eb.or([eb("w.closes_at", "is", null), eb("w.closes_at", ">", at)]))
    .execute();
  if (open.some((w) => Number(w.campaign_id) === c.id)) return "BR006";
  return open.length ? "BR031" : null;
}

/**
 * Sends the running survey's first question to one member and opens their answer. Another business's member is not
 * found (NF001, 404). Credits are charged as for any campaign text (BR012 when there are none).
 */
export async function askForFeedback(deps: CampaignDeps, args: { businessId: number; memberId: number; userId: number | null }): Promise<{ campaignId: number; campaignName: string }> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.now();
    const at = now.toISOString();
    const member = await trx.selectFrom("members").select(["id", "status"]).where("business_id", "=", args.businessId).where("id", "=", args.memberId).executeTakeFirst();
    if (!member) throw new AppError("NF001", undefined, { status: 404 });
    const c = await runningSurvey(trx, args.businessId);
    if (!c) throw new AppError("BR005");
    if (member.status !== "SUBSCRIBED") throw new AppError("BR027");
    const code = await refusal(trx, c, args.memberId, at);
    if (code) throw new AppError(code);
    const type = campaignType(c.type);
    const business = await engineBusiness(trx, c.businessId);
    const first = type.firstStep ?? "answer";
    const body = (type.askText ?? type.issueText)(c, business.locale) ?? "";
    await enqueueMessage(
      trx,
      { businessId: c.businessId, kind: "CAMPAIGN", audience: { memberIds: [args.memberId] }, body, campaignId: c.id, createdBy: args.userId, chargeReference: null },
      pipelineEnv(deps),
    );
    const existing = await trx.selectFrom("campaign_waits").select("id").where("campaign_id", "=", c.id).where("member_id", "=", args.memberId).executeTakeFirst();
    if (existing) await trx.updateTable("campaign_waits").set({ status: "OPEN", step: first, opened_at: at, helped: 0 }).where("id", "=", existing.id).execute();
    else await trx.insertInto("campaign_waits").values({ business_id: c.businessId, campaign_id: c.id, member_id: args.memberId, status: "OPEN", step: first, helped: 0, opened_at: at, closes_at: c.closeAt }).execute();
    return { campaignId: c.id, campaignName: c.name };
  });
}
