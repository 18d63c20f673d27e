// Members through the public API: the list (search, status, keyset paging), one member with their custom
// attributes, adding a member with a consent source, editing their details and opting them out. Every write goes
// through the community and consent services, so the rules are the app's own: BR021 a member already, BR039 a
// number that objected, BR049 a mandatory attribute missing, BR050 not a UK mobile.
import type { Kysely } from "kysely";
import type { DB, Member, MemberStatus } from "#db/types";
import { AppError } from "~/lib/errors";
import { listAttributes, memberValues, type AttributeWithItems, type StoredValue } from "~/domain/members/attributes.server";
import { addConsentedMember, inviteMember, memberSearch, requireMember, updateMember, type MemberFields } from "~/domain/members/community.server";
import { formatBirthday } from "~/domain/members/attribute-rules";
import { loadConsentBusiness, optOut } from "~/domain/consent/consent.server";

type Db = Kysely<DB>;

export const MEMBER_PAGE_MAX = 100;

export interface ApiMemberSummary {
  id: number;
  phone: string;
  firstName: string | null;
  fullName: string | null;
  status: Exclude<MemberStatus, "DELETED">;
  joinedAt: string | null;
  invitedAt: string | null;
  updatedAt: string;
}

export interface ApiMember extends ApiMemberSummary {
  birthday: string | null;
  appointmentAt: string | null;
  note: string | null;
  optedOutAt: string | null;
  createdAt: string;
  attributes: Record<string, string | number>;
}

function summary(m: Pick<Member, "id" | "phone" | "first_name" | "full_name" | "status" | "joined_at" | "invited_at" | "updated_at">): ApiMemberSummary {
  return {
    id: Number(m.id),
    phone: m.phone,
    firstName: m.first_name,
    fullName: m.full_name,
    status: m.status as ApiMemberSummary["status"],
    joinedAt: m.joined_at,
    invitedAt: m.invited_at,
    updatedAt: m.updated_at,
  };
}

function attributeValues(attributes: AttributeWithItems[], values: Map<number, StoredValue>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const a of attributes) {
    const v = values.get(Number(a.id));
    if (!v) continue;
    out[a.key] = a.type === "NUMBER" && v.value_number !== null ? v.value_number : a.type === "BIRTHDAY" ? formatBirthday(v.value_text) : v.value_text;
  }
  return out;
}

/** One member with their custom attributes (404 NF001 for another business's id, or a deleted member). */
export async function getApiMember(db: Db, businessId: number, memberId: number): Promise<ApiMember> {
  const m = await requireMember(db, businessId, memberId).catch(() => {
    throw new AppError("NF001", undefined, { status: 404 });
  });
  const [attributes, values] = await Promise.all([listAttributes(db, businessId), memberValues(db, businessId, memberId)]);
  return {
    ...summary(m),
    birthday: m.birthday ? formatBirthday(m.birthday) : null,
    appointmentAt: m.appointment_at,
    note: m.note,
    optedOutAt: m.opted_out_at,
    createdAt: m.created_at,
    attributes: attributeValues(attributes, values),
  };
}

export interface MemberListInput {
  q?: string;
  status?: Exclude<MemberStatus, "DELETED">;
  /** The last id of the previous page (keyset paging: ids ascending). */
  after?: number;
  limit?: number;
}

/** A page of members by id, with the cursor of the next page (null on the last). */
export async function listApiMembers(db: Db, businessId: number, input: MemberListInput): Promise<{ items: ApiMemberSummary[]; nextCursor: string | null }> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), MEMBER_PAGE_MAX);
  const q = (input.q ?? "").trim().slice(0, 100);
  let query = db
    .selectFrom("members")
    .select(["members.id", "members.phone", "members.first_name", "members.full_name", "members.status", "members.joined_at", "members.invited_at", "members.updated_at"])
    .where("members.business_id", "=", businessId)
    .where("members.status", "in", input.status ? [input.status] : ["PENDING", "SUBSCRIBED", "OPTED_OUT"]);
  if (input.after) query = query.where("members.id", ">", input.after);
  if (q) query = query.where(memberSearch(businessId, q));
  const rows = await query.orderBy("members.id").limit(limit + 1).execute();
  const page = rows.slice(0, limit).map(summary);
  return { items: page, nextCursor: rows.length > limit ? String(page[page.length - 1].id) : null };
}

export interface ApiMemberFields {
  phone?: string;
  firstName?: string | null;
  fullName?: string | null;
  /** "dd/mm" */
  birthday?: string | null;
  /** "YYYY-MM-DD" and "HH:MM", UK time */
  appointmentDate?: string | null;
  appointmentTime?: string | null;
  note?: string | null;
  /** Custom attributes by key; a list attribute takes one of its items' labels; null clears. */
  attributes?: Record<string, string | number | null>;
}

/** The API's fields as the community service's form fields (custom attributes by id, list items by id). */
async function toMemberFields(db: Db, businessId: number, input: ApiMemberFields): Promise<MemberFields> {
  const text = (v: string | null | undefined) => (v === undefined ? undefined : (v ?? ""));
  const values: Record<string, string> = {};
  if (input.attributes) {
    const attributes = await listAttributes(db, businessId);
    for (const [key, raw] of Object.entries(input.attributes)) {
      const attr = attributes.find((a) => a.key === key);
      if (!attr) throw new AppError("UA002", { reason: "unknownAttribute" }, { status: 400, field: `attributes.${key}` });
      let value = raw === null ? "" : String(raw);
      if (attr.type === "LIST" && value) {
        const item = attr.items.find((i) => i.label.toLowerCase() === value.trim().toLowerCase());
        if (!item) throw new AppError("BR025", { context: "list" }, { field: `attributes.${key}` });
        value = String(item.id);
      }
      values[String(attr.id)] = value;
    }
  }
  return {
    phone: input.phone,
    firstName: text(input.firstName),
    fullName: text(input.fullName),
    birthday: text(input.birthday),
    appointmentDate: text(input.appointmentDate),
    appointmentTime: text(input.appointmentTime),
    note: text(input.note),
    values,
  };
}

/** Renames the community service's field names (attr_12) to the API's (attributes.key). */
async function apiField<T>(db: Db, businessId: number, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AppError && e.field?.startsWith("attr_")) {
      const id = Number(e.field.slice(5));
      const attr = (await listAttributes(db, businessId)).find((a) => Number(a.id) === id);
      throw new AppError(e.code, e.data, { status: e.status, field: attr ? `attributes.${attr.key}` : e.field });
    }
    if (e instanceof AppError && e.status === 404) throw new AppError("NF001", undefined, { status: 404 });
    throw e;
  }
}

export type ConsentSource = { source: "DOUBLE_OPT_IN" } | { source: "PRIOR_CONSENT"; evidence: string };

/**
 * Adds a member. DOUBLE_OPT_IN: the member is invited (PENDING) and texted the opt-in request; they join when they
 * reply YES. PRIOR_CONSENT: the business says it already holds their consent (the evidence is kept in the consent
 * log); they are SUBSCRIBED at once and nothing is texted. Either way a number that objected is BR039.
 */
export async function addApiMember(db: Db, businessId: number, keyName: string, input: ApiMemberFields & { phone: string; consent: ConsentSource }, now: Date): Promise<ApiMember> {
  const fields = await toMemberFields(db, businessId, input);
  const member = await apiField(db, businessId, () =>
    input.consent.source === "DOUBLE_OPT_IN"
      ? inviteMember(db, businessId, fields, now, null, { channel: "API", evidence: `Invited through the API (key "${keyName}")` })
      : addConsentedMember(db, businessId, fields, `Consent held by the business, through the API (key "${keyName}"): ${input.consent.evidence}`, now),
  );
  return getApiMember(db, businessId, Number(member.id));
}

/** Edits a member's details and custom attributes (only the fields given). */
export async function updateApiMember(db: Db, businessId: number, memberId: number, input: ApiMemberFields, now: Date): Promise<ApiMember> {
  const fields = await toMemberFields(db, businessId, input);
  await apiField(db, businessId, () => updateMember(db, businessId, memberId, fields, now));
  return getApiMember(db, businessId, memberId);
}

/** Opts a member out at the business's request (the consent service: logged, the confirmation text sent once). */
export async function optOutApiMember(db: Db, businessId: number, memberId: number, keyName: string, now: Date): Promise<ApiMember> {
  const member = await apiField(db, businessId, () => requireMember(db, businessId, memberId));
  const business = await loadConsentBusiness(db, businessId);
  await db.transaction().execute((trx) =>
    optOut(trx, { business, phone: member.phone, member, channel: "API", evidence: `Opted out through the API (key "${keyName}")`, confirm: true }, now),
  );
  return getApiMember(db, businessId, memberId);
}
