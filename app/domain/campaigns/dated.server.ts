// Date-driven sends (birthday greetings, reminders, follow-ups after joining): one durable fire per member and
// occurrence, planned when the campaign starts and planned again, in the same transaction, whenever what it
// depends on changes (the member's birthday, appointment or date attribute, their status, an edit of the campaign).
//
// - Planning a member computes their next send strictly after a moment; `occurrence` names it (a year, an
//   appointment, a join), so a moved date plans a new row and the member's other pending rows are cancelled.
// - A member's fire is claimed like any other (engine.server.ts). When it runs, the member must still be subscribed
//   and in the campaign's group, the campaign still running and its version unchanged; a fire found later than the
//   type's window (a worker was down) is skipped as too late rather than sent at an odd hour. Then the member's next
//   occurrence is planned (next year's birthday).
import { sql } from "kysely";
import { jsonRows } from "#db/dialect";
import { onMemberChange } from "~/domain/consent/consent.server";
import { onMemberDataChange } from "~/domain/members/hooks.server";
import { groupCondition } from "~/domain/audience/audience.server";
import { campaignType } from "./registry.server";
import { loaded, sendToMembers, type Db, type EngineCtx, type LoadedCampaign } from "./kit.server";
import type { MemberDates } from "./type";
import { APPOINTMENT } from "./types/reminder";
import { settingString } from "./types/dated-time";

export const MEMBER_STEP = "send";
const PAGE = 2000;

/** Whether the type plans per member. */
export function isDated(c: Pick<LoadedCampaign, "type">): boolean {
  return campaignType(c.type).planMember !== undefined;
}

/** The custom date attribute a reminder reads, if any. */
async function dateAttributeId(trx: Db, c: LoadedCampaign): Promise<number | null> {
  if (c.type !== "REMINDER") return null;
  const key = settingString(c.settings, "dateAttribute", APPOINTMENT);
  if (key === APPOINTMENT) return null;
  const attr = await trx.selectFrom("attributes").select("id").where("business_id", "=", c.businessId).where("key", "=", key).executeTakeFirst();
  return attr ? Number(attr.id) : -1;
}

/** Subscribed members of the campaign's group with the dates the types read, a page at a time (keyset by id). */
async function memberPage(trx: Db, c: LoadedCampaign, attrId: number | null, afterId: number, limit: number, onlyId?: number): Promise<MemberDates[]> {
  const condition = await groupCondition(trx, c.businessId, c.groupId ?? -1);
  let q = trx
    .selectFrom("members")
    .select(["members.id", "members.joined_at", "members.birthday", "members.appointment_at"])
    .where("members.business_id", "=", c.businessId)
    .where("members.status", "=", "SUBSCRIBED")
    .where((eb) => condition(eb))
    .where("members.id", ">", afterId)
    .orderBy("members.id")
    .limit(limit);
  if (onlyId !== undefined) q = q.where("members.id", "=", onlyId);
  const rows = await q.execute();
  const values = new Map<number, string | null>();
  if (attrId !== null && rows.length) {
    const v = await trx
      .selectFrom("member_attribute_values")
      .select(["member_id", "value_text"])
      .where("attribute_id", "=", attrId)
      .where("member_id", "in", rows.map((r) => Number(r.id)))
      .execute();
    for (const r of v) values.set(Number(r.member_id), r.value_text);
  }
  return rows.map((r) => ({ id: Number(r.id), joinedAt: r.joined_at, birthday: r.birthday, appointmentAt: r.appointment_at, dateValue: values.get(Number(r.id)) ?? null }));
}

/** Inserts (or moves) member fires for the campaign's current version; a fire already done is never re-armed. */
async function upsertFires(trx: Db, c: LoadedCampaign, fires: Array<[number, string, string]>, now: Date): Promise<void> {
  if (!fires.length) return;
  const r = jsonRows(trx, JSON.stringify(fires));
  const at = now.toISOString();
  await sql`insert into campaign_fires (business_id, campaign_id, member_id, step, occurrence, fire_at, version, status, created_at)
    select ${c.businessId}, ${c.id}, ${r.int(0)}, ${MEMBER_STEP}, ${r.text(1)}, ${r.text(2)}, ${c.version}, 'DUE', ${at} from ${r.from} where true
    on conflict (campaign_id, member_id, step, occurrence) do update set fire_at = excluded.fire_at, version = excluded.version, status = 'DUE', reason = null
    where campaign_fires.status in ('DUE', 'CANCELLED')`.execute(trx);
}

/** Plans every member's next send (at the start and after an edit). Returns how many were planned. */
export async function planAllMembers(trx: Db, c: LoadedCampaign, now: Date): Promise<number> {
  const type = campaignType(c.type);
  if (!type.planMember) return 0;
  const attrId = await dateAttributeId(trx, c);
  // An edit plans again: pending sends of the old version are cancelled first, the new plan re-arms its own.
  await trx
    .updateTable("campaign_fires")
    .set({ status: "CANCELLED", reason: "replanned" })
    .where("campaign_id", "=", c.id)
    .where("member_id", "!=", 0)
    .where("status", "=", "DUE")
    .where("version", "<", c.version)
    .execute();
  let planned = 0;
  let last = 0;
  for (;;) {
    const page = await memberPage(trx, c, attrId, last, PAGE);
    if (!page.length) break;
    last = page[page.length - 1].id;
    const fires: Array<[number, string, string]> = [];
    for (const m of page) {
      const next = type.planMember(c, m, now);
      if (next) fires.push([m.id, next.occurrence, next.fireAt]);
    }
    await upsertFires(trx, c, fires, now);
    planned += fires.length;
    if (page.length < PAGE) break;
  }
  return planned;
}

/** The business's running date-driven campaigns, read once per transaction (a bulk change touches many members). */
const runningByTransaction = new WeakMap<object, Map<number, LoadedCampaign[]>>();

async function runningDated(trx: Db, businessId: number): Promise<LoadedCampaign[]> {
  const cache = trx.isTransaction ? (runningByTransaction.get(trx) ?? new Map<number, LoadedCampaign[]>()) : null;
  if (cache && trx.isTransaction) runningByTransaction.set(trx, cache);
  const hit = cache?.get(businessId);
  if (hit) return hit;
  const rows = await trx.selectFrom("campaigns").selectAll().where("business_id", "=", businessId).where("status", "=", "ONGOING").execute();
  const found = rows.map(loaded).filter(isDated);
  cache?.set(businessId, found);
  return found;
}

/** Plans one member again for every running date-driven campaign of their business. */
export async function replanMember(trx: Db, businessId: number, memberId: number, now: Date): Promise<void> {
  for (const c of await runningDated(trx, businessId)) {
    const type = campaignType(c.type);
    if (!type.planMember) continue;
    const [m] = await memberPage(trx, c, await dateAttributeId(trx, c), 0, 1, memberId);
    const next = m ? type.planMember(c, m, now) : null;
    let cancel = trx
      .updateTable("campaign_fires")
      .set({ status: "CANCELLED", reason: m ? "moved" : "not-eligible" })
      .where("campaign_id", "=", c.id)
      .where("member_id", "=", memberId)
      .where("status", "=", "DUE");
    if (next) cancel = cancel.where("occurrence", "!=", next.occurrence);
    await cancel.execute();
    if (next) await upsertFires(trx, c, [[memberId, next.occurrence, next.fireAt]], now);
  }
}

/**
 * Runs one member's send (inside the fire's transaction): checks they are still eligible and the send is not too
 * late, sends through the pipeline, and plans their next occurrence.
 */
export async function runMemberFire(ctx: EngineCtx, c: LoadedCampaign, fire: { id: number; memberId: number; fireAt: string }): Promise<void> {
  const type = campaignType(c.type);
  const skip = (reason: string) => ctx.trx.updateTable("campaign_fires").set({ status: "SKIPPED", reason }).where("id", "=", fire.id).execute();
  if (c.status !== "ONGOING") return void (await skip("closed"));
  const [m] = await memberPage(ctx.trx, c, await dateAttributeId(ctx.trx, c), 0, 1, fire.memberId);
  if (!m) return void (await skip("not-eligible"));
  const late = ctx.now.getTime() - Date.parse(fire.fireAt);
  if (late > (type.lateAfterMs ?? 12 * 3_600_000)) {
    await skip("too-late");
  } else {
    const messageId = await sendToMembers(ctx, c, [m.id], c.messageText ?? "");
    if (messageId === null) await skip("no-credit");
    else await ctx.trx.updateTable("campaign_fires").set({ message_id: messageId }).where("id", "=", fire.id).execute();
  }
  const next = type.planMember?.(c, m, new Date(Math.max(Date.parse(fire.fireAt), ctx.now.getTime() - 1)));
  if (next) await upsertFires(ctx.trx, c, [[m.id, next.occurrence, next.fireAt]], ctx.now);
}

// A member's status or dates changed: their date-driven sends follow, in the same transaction.
onMemberChange((trx, change, now) => replanMember(trx, change.businessId, change.memberId, now));
onMemberDataChange((trx, change, now) => replanMember(trx, change.businessId, change.memberId, now));
