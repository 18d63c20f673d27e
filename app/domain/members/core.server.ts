// Members, core: the columns and state changes the messaging pipeline
// needs. The community features extend members with attributes, invitations, lists and forms.
//
// Member states: PENDING (opt-in requested) -> SUBSCRIBED -> OPTED_OUT or DELETED; a member can
// rejoin by invitation or by texting. Every opt-in and opt-out is written to consent_log in the same
// transaction as the state change; the log outlives the member (member_id is set NULL on delete,
// the phone stays).
import type { Kysely } from "kysely";
import type { ConsentAction, ConsentChannel, DB, Member, MemberStatus } from "#db/types";
import { randomToken } from "~/lib/crypto.server";

type Db = Kysely<DB>;

/** A random, unguessable member reference (128 bits), used for the member's own form link. */
export function newMemberRef(): string {
  return randomToken(16);
}

export async function findMemberByPhone(db: Db, businessId: number, phone: string): Promise<Member | undefined> {
  return db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("phone", "=", phone).executeTakeFirst();
}

export async function getMember(db: Db, businessId: number, memberId: number): Promise<Member | undefined> {
  return db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("id", "=", memberId).executeTakeFirst();
}

export interface NewMemberInput {
  businessId: number;
  phone: string;
  status: MemberStatus;
  firstName?: string | null;
  fullName?: string | null;
  invited?: boolean;
  now: Date;
}

export async function insertMember(db: Db, input: NewMemberInput): Promise<Member> {
  const at = input.now.toISOString();
  return db
    .insertInto("members")
    .values({
      business_id: input.businessId,
      phone: input.phone,
      first_name: input.firstName ?? null,
      full_name: input.fullName ?? null,
      status: input.status,
      unique_ref: newMemberRef(),
      joined_at: input.status === "SUBSCRIBED" ? at : null,
      invited_at: input.invited ? at : null,
      opted_out_at: input.status === "OPTED_OUT" ? at : null,
      created_at: at,
      updated_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface ConsentEntry {
  businessId: number;
  memberId: number | null;
  phone: string;
  action: ConsentAction;
  channel: ConsentChannel;
  evidence: string;
  now: Date;
}

export async function logConsent(db: Db, entry: ConsentEntry): Promise<void> {
  await db
    .insertInto("consent_log")
    .values({
      business_id: entry.businessId,
      member_id: entry.memberId,
      phone: entry.phone,
      action: entry.action,
      channel: entry.channel,
      evidence: entry.evidence.slice(0, 1000),
      created_at: entry.now.toISOString(),
    })
    .execute();
}

export async function consentHistory(db: Db, businessId: number, phone: string) {
  return db
    .selectFrom("consent_log")
    .select(["id", "member_id", "action", "channel", "evidence", "created_at"])
    .where("business_id", "=", businessId)
    .where("phone", "=", phone)
    .orderBy("id")
    .execute();
}

/**
 * Moves a member to a new status, only from the statuses given (a conditional UPDATE, so two
 * processes racing on the same member change it once). Returns whether it changed.
 */
export async function transitionMember(
  db: Db,
  member: Pick<Member, "id" | "business_id">,
  to: MemberStatus,
  from: readonly MemberStatus[],
  now: Date,
): Promise<boolean> {
  const at = now.toISOString();
  const result = await db
    .updateTable("members")
    .set({
      status: to,
      updated_at: at,
      ...(to === "SUBSCRIBED" ? { joined_at: at, opted_out_at: null } : {}),
      ...(to === "OPTED_OUT" ? { opted_out_at: at } : {}),
      ...(to === "PENDING" ? { invited_at: at } : {}),
    })
    .where("id", "=", member.id)
    .where("business_id", "=", member.business_id)
    .where("status", "in", [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Opts a member out (any state but OPTED_OUT) and logs it. Returns false when already opted out. */
export async function optOutMember(
  db: Db,
  member: Pick<Member, "id" | "business_id" | "phone">,
  channel: ConsentChannel,
  evidence: string,
  now: Date,
): Promise<boolean> {
  const changed = await transitionMember(db, member, "OPTED_OUT", ["PENDING", "SUBSCRIBED", "DELETED"], now);
  if (changed) {
    await logConsent(db, { businessId: member.business_id, memberId: member.id, phone: member.phone, action: "OPTED_OUT", channel, evidence, now });
  }
  return changed;
}
