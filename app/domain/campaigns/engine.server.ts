// The engine: planned steps as durable rows (fires), claimed by the workers and run exactly once.
//
// - Every step of a campaign (issue, close, a draw, a reminder) is a row in campaign_fires with the campaign's
//   version when it was planned. Editing a campaign bumps its version and plans again (an upsert on
//   campaign, member, step, occurrence), so a fire planned for an older version is skipped when claimed: an edit
//   never needs a mass delete, and a stale fire can never send.
// - A fire is claimed and run in one transaction: `status = 'DUE'` is changed to DONE by an UPDATE that only one
//   worker can win (on PostgreSQL the candidates are read with SKIP LOCKED, so workers take different rows). Its
//   texts are queued through the pipeline in the same transaction: a crash rolls everything back and the fire is
//   simply due again. Nothing is sent twice, nothing lost.
// - A step that cannot run ends the campaign FAILED with its SURVEYERROR_* reason (recorded in a new transaction
//   after the failed one is rolled back).
import { sql } from "kysely";
import { isPostgresDb, type Database } from "#db/index";
import { skipLocked } from "#db/claim";
import { AppError } from "~/lib/errors";
import { enqueueMessage, pipelineEnv, type PipelineDeps } from "~/domain/messaging/outbound.server";
import { campaignType } from "./registry.server";
import { CampaignFailure } from "./failure";
import { loaded, loadCampaign, type Db, type EngineBusiness, type EngineCtx, type LoadedCampaign } from "./kit.server";
import type { FailureCode } from "./model";
import { isDated, planAllMembers, runMemberFire } from "./dated.server";
import { isCodesShort, requestCodesForFire } from "~/domain/shop/codes.server";

/** How long a step waiting for its discount codes is put off before it is tried again (sooner once they are made). */
const CODES_WAIT_MS = 60_000;

export const ISSUE = "issue";
export const CLOSE = "close";

/** The steps a campaign needs, with their times. */
export function stepsOf(c: LoadedCampaign): { step: string; fireAt: string }[] {
  const type = campaignType(c.type);
  const steps: { step: string; fireAt: string }[] = [];
  if (!c.issuedAt) steps.push({ step: ISSUE, fireAt: c.issueAt });
  if (c.closeAt && c.type !== "PICKWINNERS") steps.push({ step: CLOSE, fireAt: c.closeAt });
  steps.push(...(type.extraSteps?.(c) ?? []));
  return steps;
}

/** Plans (or plans again, after an edit) the campaign's steps for its current version. */
export async function planFires(trx: Db, c: LoadedCampaign, now: Date): Promise<void> {
  const at = now.toISOString();
  for (const s of stepsOf(c)) {
    await trx
      .insertInto("campaign_fires")
      .values({ business_id: c.businessId, campaign_id: c.id, member_id: 0, step: s.step, occurrence: "", fire_at: s.fireAt, version: c.version, status: "DUE", reason: null, message_id: null, created_at: at, done_at: null })
      .onConflict((oc) =>
        oc
          .columns(["campaign_id", "member_id", "step", "occurrence"])
          .doUpdateSet({ fire_at: s.fireAt, version: c.version, status: "DUE", reason: null })
          .where("campaign_fires.status", "in", ["DUE", "SKIPPED", "CANCELLED"]),
      )
      .execute();
  }
}

export async function engineBusiness(trx: Db, businessId: number): Promise<EngineBusiness & { status: string }> {
  const b = await trx.selectFrom("businesses").select(["id", "name", "locale", "phone_number", "status"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  return { ...b, id: Number(b.id) };
}

/** The failure reason for an error a step threw, or null when the error is not the campaign's (the database is down). */
function failureFor(error: unknown): FailureCode | null {
  if (error instanceof CampaignFailure) return error.code;
  if (error instanceof AppError) {
    if (error.code === "BR012") return "SURVEYERROR_OUTOFCREDIT_FAILURE";
    if (error.code === "BR026") return "SURVEYERROR_SG_SHORT";
    if (error.code === "NF001") return "SURVEYERROR_SG_SHORT";
    return "SURVEYERROR_PROCESSING_FAILED";
  }
  return null;
}

/** Issues a campaign: its text to its group (opening a question for each recipient when it asks one), then LIVE. */
async function issue(ctx: EngineCtx & { businessStatus: string }, c: LoadedCampaign, fireId: number | null): Promise<void> {
  if (ctx.businessStatus === "DISABLED") throw new CampaignFailure("SURVEYERROR_COMPANY_DISABLED");
  if (ctx.businessStatus === "SUSPENDED") throw new CampaignFailure("SURVEYERROR_COMPANY_SUSPENDED");
  if (c.closeAt && c.closeAt <= ctx.now.toISOString()) throw new CampaignFailure("SURVEYERROR_CLOSEDATE_PASSED");
  const type = campaignType(c.type);
  const at = ctx.now.toISOString();
  const body = type.issueText(c, ctx.business.locale);
  if (body !== null) {
    const created = await enqueueMessage(
      ctx.trx,
      { businessId: c.businessId, kind: "CAMPAIGN", audience: { groupId: c.groupId ?? -1 }, body, campaignId: c.id, createdBy: c.createdBy, chargeReference: `campaign:${c.id}:issue` },
      ctx.env,
    );
    if (fireId !== null) await ctx.trx.updateTable("campaign_fires").set({ message_id: created.messageId }).where("id", "=", fireId).execute();
    if (type.asks) {
      // One open question per recipient, straight from the rows just queued.
      await sql`insert into campaign_waits (business_id, campaign_id, member_id, status, step, helped, opened_at, closes_at)
        select ${c.businessId}, ${c.id}, member_id, 'OPEN', ${type.firstStep ?? "answer"}, 0, ${at}, ${c.closeAt}
        from outbound where message_id = ${created.messageId} and member_id is not null
        on conflict (campaign_id, member_id) do nothing`.execute(ctx.trx);
    }
  }
  let resultGroupId = c.resultGroupId;
  if (c.type === "INVITATION" && !resultGroupId) {
    const g = await ctx.trx
      .insertInto("groups")
      .values({ business_id: c.businessId, name: `${c.name.slice(0, 28)} ✓`, type: "CAMPAIGN", filter: null, created_at: at, updated_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    resultGroupId = Number(g.id);
  }
  await ctx.trx
    .updateTable("campaigns")
    .set({ status: c.kind === "ONGOING" ? "ONGOING" : "LIVE", issued_at: at, updated_at: at, result_group_id: resultGroupId })
    .where("id", "=", c.id)
    .execute();
  // Date-driven types: every member's next send, now that it runs.
  if (isDated(c)) await planAllMembers(ctx.trx, { ...c, status: "ONGOING", issuedAt: at }, ctx.now);
}

/** Closes a one-time campaign: ENDED, and its open questions close. */
export async function close(trx: Db, c: LoadedCampaign, now: Date): Promise<void> {
  const at = now.toISOString();
  await trx.updateTable("campaigns").set({ status: "ENDED", ended_at: at, updated_at: at }).where("id", "=", c.id).where("status", "in", ["LIVE", "ONGOING", "SCHEDULED"]).execute();
  await trx.updateTable("campaign_waits").set({ status: "CLOSED" }).where("campaign_id", "=", c.id).where("status", "=", "OPEN").execute();
}

/** Runs one step of a campaign inside the caller's transaction. */
export async function runStep(trx: Db, deps: PipelineDeps, c: LoadedCampaign, step: string, fireId: number | null): Promise<void> {
  const business = await engineBusiness(trx, c.businessId);
  const ctx = { trx, now: deps.now(), env: pipelineEnv(deps), business, businessStatus: business.status };
  if (step === ISSUE) return issue(ctx, c, fireId);
  if (step === CLOSE) return close(trx, c, ctx.now);
  await campaignType(c.type).runStep?.(ctx, c, step);
}

/** Marks a campaign FAILED with its reason (and its pending steps cancelled). */
export async function fail(db: Db, c: LoadedCampaign, code: FailureCode, now: Date): Promise<void> {
  const at = now.toISOString();
  await db.updateTable("campaigns").set({ status: "FAILED", error_code: code, updated_at: at }).where("id", "=", c.id).execute();
  await db.updateTable("campaign_fires").set({ status: "CANCELLED", reason: code, done_at: at }).where("campaign_id", "=", c.id).where("status", "=", "DUE").execute();
  await db.updateTable("campaign_waits").set({ status: "CLOSED" }).where("campaign_id", "=", c.id).where("status", "=", "OPEN").execute();
}

/** Fires looked at per round. */
const FIRE_BATCH = 50;

/**
 * One worker round: every fire that has come due, each claimed and run in a transaction of its own. Returns how
 * many were taken.
 */
export async function runDueFires(deps: PipelineDeps & { db: Database }, limit = FIRE_BATCH): Promise<number> {
  const now = deps.now().toISOString();
  // On PostgreSQL the candidates are read with SKIP LOCKED (inside a transaction, so other workers skip them while
  // it lasts); on SQLite a plain read, so an idle round never takes the write lock.
  const pick = async (db: Db) => {
    const { rows } = await sql<{ id: number }>`select id from campaign_fires where status = 'DUE' and fire_at <= ${now} order by fire_at, id limit ${limit}${skipLocked(db)}`.execute(db);
    return rows.map((r) => Number(r.id));
  };
  const candidates = isPostgresDb(deps.db) ? await deps.db.transaction().execute(pick) : await pick(deps.db);
  let taken = 0;
  for (const id of candidates) if (await runFire(deps, id)) taken++;
  return taken;
}

/** Claims and runs one fire; false when another worker had it first. */
export async function runFire(deps: PipelineDeps & { db: Database }, fireId: number): Promise<boolean> {
  let campaign: LoadedCampaign | null = null;
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const at = deps.now().toISOString();
      const fire = await trx
        .updateTable("campaign_fires")
        .set({ status: "DONE", done_at: at })
        .where("id", "=", fireId)
        .where("status", "=", "DUE")
        .returning(["id", "campaign_id", "business_id", "member_id", "step", "version", "fire_at"])
        .executeTakeFirst();
      if (!fire) return false;
      campaign = await loadCampaign(trx, Number(fire.business_id), Number(fire.campaign_id));
      const skip = async (reason: string) => {
        await trx.updateTable("campaign_fires").set({ status: "SKIPPED", reason }).where("id", "=", fireId).execute();
        return true;
      };
      if (!campaign) return skip("gone");
      if (Number(fire.version) < campaign.version) return skip("stale-version");
      if (campaign.status === "ENDED" || campaign.status === "FAILED") return skip("closed");
      if (Number(fire.member_id) !== 0) {
        const business = await engineBusiness(trx, campaign.businessId);
        if (business.status === "DISABLED" || business.status === "SUSPENDED") return skip("business-stopped");
        const ctx = { trx, now: deps.now(), env: pipelineEnv(deps), business };
        await runMemberFire(ctx, campaign, { id: Number(fire.id), memberId: Number(fire.member_id), fireAt: fire.fire_at });
        return true;
      }
      await runStep(trx, deps, campaign, fire.step, Number(fire.id));
      return true;
    });
  } catch (error) {
    const c = campaign as LoadedCampaign | null;
    // A text with {{shopify.code}} whose codes are not all made: the step waits for them (the "shop-codes" round
    // makes them and brings it forward), unless the shop could not make them, which fails the campaign.
    if (c && isCodesShort(error)) {
      const asked = await requestCodesForFire(deps.db, { businessId: c.businessId, needed: Number(error.data?.needed ?? 1), fireId }, deps.now());
      if (asked?.status !== "FAILED") {
        await deps.db
          .updateTable("campaign_fires")
          .set({ fire_at: new Date(deps.now().getTime() + CODES_WAIT_MS).toISOString() })
          .where("id", "=", fireId)
          .where("status", "=", "DUE")
          .execute();
        return true;
      }
    }
    const code = failureFor(error);
    if (!code || !c) throw error;
    await deps.db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("campaign_fires")
        .set({ status: "SKIPPED", reason: code, done_at: deps.now().toISOString() })
        .where("id", "=", fireId)
        .where("status", "=", "DUE")
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 1) await fail(trx, c, code, deps.now());
    });
    return true;
  }
}

/** Every campaign row loaded by id (for the router's batch preloads). */
export async function campaignsByIds(trx: Db, ids: readonly number[]): Promise<Map<number, LoadedCampaign>> {
  const out = new Map<number, LoadedCampaign>();
  if (!ids.length) return out;
  for (const row of await trx.selectFrom("campaigns").selectAll().where("id", "in", [...new Set(ids)]).execute()) out.set(Number(row.id), loaded(row));
  return out;
}

/** Makes a step that was waiting (for discount codes) due now. */
export async function fireNow(db: Db, fireId: number, now: Date): Promise<void> {
  await db.updateTable("campaign_fires").set({ fire_at: now.toISOString() }).where("id", "=", fireId).where("status", "=", "DUE").execute();
}
