// Community: the members list (search, tabs, paging), member info, invitations (double opt-in),
// edits (mandatory attributes, duplicate and invalid numbers), deletion, the member's own form
// (/myinfo/{ref}: edit, join, unsubscribe) and the business's default opt-in/opt-out texts.
import { sql, type ExpressionBuilder, type Kysely } from "kysely";
import type { DB, Member, MemberStatus } from "#db/types";
import { AppError } from "~/lib/errors";
import { parseUkMobile } from "~/lib/phone";
import { ukDateTimeToUtc } from "~/lib/uk-time";
import { enqueueSystemText } from "~/domain/messaging/outbound.server";
import { memberDataChanged } from "./hooks.server";
import {
  businessTexts,
  checkConsentTexts,
  consentTexts,
  deleteMember as consentDelete,
  hasObjected,
  loadConsentBusiness,
  optOut,
  requestOptIn,
  subscribe,
  subscribeImported,
} from "~/domain/consent/consent.server";
import { checkCode, issueCode } from "~/domain/accounts/codes.server";
import { consentHistory, findMemberByPhone } from "./core.server";

export { businessTexts };
import { listAttributes, memberValues, parseAttributeValue, parseBirthday, writeMemberValues, type AttributeWithItems, type StoredValue } from "./attributes.server";
import { recordAudit } from "~/domain/audit/audit.server";

type Db = Kysely<DB>;

export const PAGE_SIZE = 25;
export type MemberTab = "all" | "invited" | "subscribed";
const TAB_STATUSES: Record<MemberTab, MemberStatus[]> = {
  all: ["PENDING", "SUBSCRIBED", "OPTED_OUT"],
  invited: ["PENDING"],
  subscribed: ["SUBSCRIBED"],
};

/** The member form link (merge tag "member form link"). */
export function memberFormLink(config: { publicUrl: string }, member: Pick<Member, "unique_ref">): string {
  return `${config.publicUrl}/myinfo/${member.unique_ref}`;
}

function likePattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The members list's search: the name, the number (digits, 07… or +44…) or any custom attribute value
 * (case-insensitive, substring). Also used by the public API's member list.
 */
export function memberSearch(businessId: number, q: string) {
  const pattern = likePattern(q);
  const digits = q.replace(/[\s()\-]/g, "");
  const phoneDigits = /^\+?\d{3,}$/.test(digits) ? digits.replace(/^\+/, "").replace(/^0/, "44") : null;
  return (eb: ExpressionBuilder<DB, "members">) =>
    eb.or([
      eb(sql`lower(members.full_name)`, "like", sql`${pattern} escape '\\'`),
      eb(sql`lower(members.first_name)`, "like", sql`${pattern} escape '\\'`),
      ...(phoneDigits ? [eb("members.phone", "like", `%${phoneDigits}%`)] : []),
      // One pass over this business's attribute values (index attribute_id, value_text), not a probe per member.
      eb(
        "members.id",
        "in",
        eb
          .selectFrom("member_attribute_values as v")
          .select("v.member_id")
          .where("v.attribute_id", "in", eb.selectFrom("attributes").select("attributes.id").where("attributes.business_id", "=", businessId))
          .where(sql`lower(v.value_text)`, "like", sql`${pattern} escape '\\'`),
      ),
    ]);
}

export interface MemberListQuery {
  tab: MemberTab;
  q?: string;
  page?: number;
}

export interface MemberRow {
  id: number;
  phone: string;
  first_name: string | null;
  full_name: string | null;
  status: MemberStatus;
  joined_at: string | null;
  invited_at: string | null;
}

/**
 * One page of members, newest first. Without a search the order walks the (business_id, status, id)
 * or (business_id, id) index; a search matches the name, the number (digits, 07… or +44…) or any
 * custom attribute value (case-insensitive, substring).
 */
export async function listMembers(db: Db, businessId: number, query: MemberListQuery) {
  const q = (query.q ?? "").trim().slice(0, 100);
  const base = (statuses: MemberStatus[]) => {
    let s = db.selectFrom("members").where("members.business_id", "=", businessId).where("members.status", "in", statuses);
    if (q) s = s.where(memberSearch(businessId, q));
    return s;
  };
  // The three tab counts in one pass.
  const c = await base(TAB_STATUSES.all)
    .select((eb) => [
      eb.fn.countAll<number>().as("all"),
      eb.fn.sum<number>(eb.case().when("members.status", "=", "PENDING").then(1).else(0).end()).as("invited"),
      eb.fn.sum<number>(eb.case().when("members.status", "=", "SUBSCRIBED").then(1).else(0).end()).as("subscribed"),
    ])
    .executeTakeFirstOrThrow();
  const counts = { all: Number(c.all ?? 0), invited: Number(c.invited ?? 0), subscribed: Number(c.subscribed ?? 0) };
  const total = counts[query.tab];
  const pageCount = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(Math.max(1, Math.floor(query.page ?? 1)), pageCount);
  const rows = await base(TAB_STATUSES[query.tab])
    .select(["members.id", "members.phone", "members.first_name", "members.full_name", "members.status", "members.joined_at", "members.invited_at"])
    .orderBy("members.id", "desc")
    .limit(PAGE_SIZE)
    .offset((page - 1) * PAGE_SIZE)
    .execute();
  return { rows: rows.map((r) => ({ ...r, id: Number(r.id) })) as MemberRow[], counts, total, page, pageCount, q };
}

/** A member the business can see (not DELETED), or NF (404). */
export async function requireMember(db: Db, businessId: number, memberId: number): Promise<Member> {
  if (!Number.isSafeInteger(memberId) || memberId <= 0) throw new AppError("BR001", undefined, { status: 404 });
  const m = await db.selectFrom("members").selectAll().where("business_id", "=", businessId).where("id", "=", memberId).where("status", "!=", "DELETED").executeTakeFirst();
  if (!m) throw new AppError("BR001", undefined, { status: 404 });
  return m;
}

async function memberGroups(db: Db, businessId: number, memberId: number) {
  try {
    return await db
      .selectFrom("group_members")
      .innerJoin("groups", "groups.id", "group_members.group_id")
      .select(["groups.id", "groups.name", "groups.type"])
      .where("groups.business_id", "=", businessId)
      .where("group_members.member_id", "=", memberId)
      .orderBy("groups.name")
      .execute();
  } catch {
    return []; // groups not migrated yet
  }
}

export async function memberDetail(db: Db, businessId: number, memberId: number) {
  const member = await requireMember(db, businessId, memberId);
  const [attributes, values, groups, consent, actors] = await Promise.all([
    listAttributes(db, businessId),
    memberValues(db, businessId, memberId),
    memberGroups(db, businessId, memberId),
    consentHistory(db, businessId, member.phone),
    memberActors(db, businessId, member),
  ]);
  return { member, attributes, values, groups, consent, actors };
}

/** Who added the member by hand and who last edited them, by name (null: the member themselves, a text, an import or an API client). */
async function memberActors(db: Db, businessId: number, member: Pick<Member, "created_by" | "updated_by">): Promise<{ addedBy: string | null; editedBy: string | null }> {
  const ids = [member.created_by, member.updated_by].filter((id): id is number => id !== null).map(Number);
  if (!ids.length) return { addedBy: null, editedBy: null };
  const rows = await db.selectFrom("users").select(["id", "name"]).where("business_id", "=", businessId).where("id", "in", ids).execute();
  const name = (id: number | null) => (id === null ? null : (rows.find((r) => Number(r.id) === Number(id))?.name ?? null));
  return { addedBy: name(member.created_by), editedBy: name(member.updated_by) };
}

// ---- edits ----

export interface MemberFields {
  phone?: string;
  firstName?: string;
  fullName?: string;
  birthday?: string;
  appointmentDate?: string;
  appointmentTime?: string;
  note?: string;
  /** custom attribute values keyed by attribute id (raw form text) */
  values: Record<string, string | undefined>;
}

interface ParsedFields {
  first_name?: string | null;
  full_name?: string | null;
  birthday?: string | null;
  appointment_at?: string | null;
  note?: string | null;
  values: Map<number, StoredValue | null>;
}

const NAME_OK = /^[\p{L}\p{M}\p{N} '’.\-]*$/u;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

function parseName(v: string | undefined, field: string): string | null | undefined {
  if (v === undefined) return undefined;
  const t = v.trim();
  if (!t) return null;
  if (t.length > 40) throw new AppError("BR025", { context: "tooLong", max: 40 }, { field });
  if (CONTROL.test(t) || !NAME_OK.test(t)) throw new AppError("BR022", undefined, { field });
  return t;
}

/**
 * Checks the fields against the rules for the attributes in scope. `mandatoryFor` lists the custom
 * attributes whose mandatory flag applies (all of them for the business; on the member form only those shown).
 */
function parseFields(input: MemberFields, attributes: AttributeWithItems[], scope: AttributeWithItems[], existing: Map<number, StoredValue>): ParsedFields {
  const out: ParsedFields = { values: new Map() };
  out.first_name = parseName(input.firstName, "firstName");
  out.full_name = parseName(input.fullName, "fullName");
  if (input.birthday !== undefined) {
    const b = input.birthday.trim();
    if (!b) out.birthday = null;
    else {
      const parsed = parseBirthday(b);
      if (!parsed) throw new AppError("BR025", { context: "birthday" }, { field: "birthday" });
      out.birthday = parsed;
    }
  }
  if (input.appointmentDate !== undefined || input.appointmentTime !== undefined) {
    const d = (input.appointmentDate ?? "").trim();
    const t = (input.appointmentTime ?? "").trim();
    if (!d && !t) out.appointment_at = null;
    else {
      const iso = ukDateTimeToUtc(d, t || "09:00")?.toISOString();
      if (!iso) throw new AppError("BR025", { context: "appointment" }, { field: "appointmentDate" });
      out.appointment_at = iso;
    }
  }
  if (input.note !== undefined) {
    const n = input.note.trim();
    if (n.length > 5000 || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(n)) throw new AppError("BR022", undefined, { field: "note" });
    out.note = n || null;
  }
  for (const attr of scope) {
    const raw = input.values[String(attr.id)];
    if (raw === undefined) continue;
    out.values.set(Number(attr.id), parseAttributeValue(attr, raw, `attr_${attr.id}`));
  }
  for (const attr of attributes) {
    if (!attr.mandatory) continue;
    if (!scope.includes(attr)) continue;
    const id = Number(attr.id);
    const v = out.values.has(id) ? out.values.get(id) : existing.get(id);
    if (!v) throw new AppError("BR049", { attribute: attr.name }, { field: `attr_${attr.id}` });
  }
  return out;
}

function columnsOf(p: ParsedFields) {
  const set: Partial<Pick<Member, "first_name" | "full_name" | "birthday" | "appointment_at" | "note">> = {};
  for (const k of ["first_name", "full_name", "birthday", "appointment_at", "note"] as const) if (p[k] !== undefined) set[k] = p[k];
  return set;
}

function validPhone(raw: string | undefined): string {
  const phone = raw ? parseUkMobile(raw.trim()) : null;
  if (!phone) throw new AppError("BR050", undefined, { field: "phone" });
  return phone;
}

export async function updateMember(db: Db, businessId: number, memberId: number, input: MemberFields, now: Date, actorId: number | null = null): Promise<void> {
  const member = await requireMember(db, businessId, memberId);
  const attributes = await listAttributes(db, businessId);
  const existing = await memberValues(db, businessId, memberId);
  const parsed = parseFields(input, attributes, attributes, existing);
  const phone = input.phone === undefined ? member.phone : validPhone(input.phone);
  await db.transaction().execute(async (trx) => {
    if (phone !== member.phone) {
      const other = await findMemberByPhone(trx, businessId, phone);
      if (other) throw new AppError("BR021", undefined, { field: "phone" });
    }
    await trx
      .updateTable("members")
      .set({ ...columnsOf(parsed), phone, updated_at: now.toISOString(), updated_by: actorId })
      .where("id", "=", memberId)
      .where("business_id", "=", businessId)
      .execute();
    await writeMemberValues(trx, businessId, memberId, parsed.values);
    await memberDataChanged(trx, { businessId, memberId }, now);
  });
}

/** Deletes a member: status DELETED, personal data and memberships removed, consent log kept (so an objection outlives them). */
export async function deleteMember(db: Db, businessId: number, memberId: number, now: Date, actorId: number | null = null): Promise<void> {
  const member = await requireMember(db, businessId, memberId);
  await db.transaction().execute(async (trx) => {
    await consentDelete(trx, member, now);
    await recordAudit(trx, { businessId, userId: actorId, action: "member.deleted", subjectType: "member", subjectId: member.id }, now);
  });
}

// ---- invitations ----

/**
 * Invites a number (double opt-in): PENDING, an INVITE entry in the consent log, the opt-in text. A subscribed
 * member is BR021, one already invited BR045, and a number that objected BR039 (nothing is sent: only the
 * person can undo their objection).
 */
export async function inviteMember(
  db: Db,
  businessId: number,
  input: MemberFields,
  now: Date,
  actorId: number | null = null,
  origin: { channel: "INVITE" | "API"; evidence: string } = { channel: "INVITE", evidence: "Invited by the business from /invitemember" },
): Promise<Member> {
  const phone = validPhone(input.phone);
  const attributes = await listAttributes(db, businessId);
  const parsed = parseFields(input, attributes, attributes, new Map());
  const business = await loadConsentBusiness(db, businessId);
  return db.transaction().execute(async (trx) => {
    const existing = await findMemberByPhone(trx, businessId, phone);
    if (existing?.status === "SUBSCRIBED") throw new AppError("BR021", undefined, { field: "phone" });
    if (existing?.status === "PENDING") throw new AppError("BR045", undefined, { field: "phone" });
    if (existing?.status === "OPTED_OUT") throw new AppError("BR039", undefined, { field: "phone" });
    const { member } = await requestOptIn(
      trx,
      { business, phone, member: existing ?? null, actor: "BUSINESS", channel: origin.channel, evidence: origin.evidence, firstName: parsed.first_name, fullName: parsed.full_name },
      now,
    );
    const cols = columnsOf(parsed);
    // Added by hand: the person who invited them is recorded as adding them (and as the last to edit them).
    await trx.updateTable("members").set({ ...cols, invited_at: now.toISOString(), created_by: actorId, updated_by: actorId }).where("id", "=", member.id).execute();
    await writeMemberValues(trx, businessId, member.id, parsed.values);
    await memberDataChanged(trx, { businessId, memberId: member.id }, now);
    return (await trx.selectFrom("members").selectAll().where("id", "=", member.id).executeTakeFirstOrThrow()) as Member;
  });
}

/**
 * Adds a member on the business's word that it already holds their consent (the public API's PRIOR_CONSENT,
 * like an import): SUBSCRIBED at once, an API entry with the evidence in the consent log, no text sent. A
 * subscribed member is BR021; a number that objected BR039 (only the person can undo their objection).
 */
export async function addConsentedMember(db: Db, businessId: number, input: MemberFields, evidence: string, now: Date): Promise<Member> {
  const phone = validPhone(input.phone);
  const attributes = await listAttributes(db, businessId);
  const parsed = parseFields(input, attributes, attributes, new Map());
  return db.transaction().execute(async (trx) => {
    const existing = await findMemberByPhone(trx, businessId, phone);
    if (existing?.status === "SUBSCRIBED") throw new AppError("BR021", undefined, { field: "phone" });
    const { ids, objected } = await subscribeImported(trx, businessId, [{ phone, existing: existing ? { id: existing.id, status: existing.status } : null, columns: {} }], evidence, now, "API");
    const id = ids.get(phone);
    if (objected.has(phone) || id === undefined) throw new AppError("BR039", undefined, { field: "phone" });
    const cols = columnsOf(parsed);
    if (Object.keys(cols).length) await trx.updateTable("members").set(cols).where("id", "=", id).where("business_id", "=", businessId).execute();
    await writeMemberValues(trx, businessId, id, parsed.values);
    await memberDataChanged(trx, { businessId, memberId: id }, now);
    return (await trx.selectFrom("members").selectAll().where("id", "=", id).executeTakeFirstOrThrow()) as Member;
  });
}

// ---- the member's own form ----

export async function memberByRef(db: Db, ref: string): Promise<Member | undefined> {
  if (!/^[A-Za-z0-9_\-]{10,64}$/.test(ref)) return undefined;
  return db.selectFrom("members").selectAll().where("unique_ref", "=", ref).where("status", "!=", "DELETED").executeTakeFirst();
}

/** The custom attributes the member form shows (flagged or mandatory) and which of them the member can edit. */
export function formAttributes(attributes: AttributeWithItems[]) {
  return attributes.filter((a) => a.show_on_form || a.member_can_edit || a.mandatory);
}
export function memberEditable(a: AttributeWithItems): boolean {
  return Boolean(a.member_can_edit || a.mandatory);
}

export async function myInfo(db: Db, ref: string) {
  const member = await memberByRef(db, ref);
  if (!member) return null;
  const [attributes, values, business] = await Promise.all([
    listAttributes(db, member.business_id),
    memberValues(db, member.business_id, member.id),
    db.selectFrom("businesses").select(["name", "phone_number", "join_keyword"]).where("id", "=", member.business_id).executeTakeFirstOrThrow(),
  ]);
  return { member, attributes: formAttributes(attributes), values, business };
}

export async function updateMyInfo(db: Db, ref: string, input: MemberFields, now: Date): Promise<void> {
  const member = await memberByRef(db, ref);
  if (!member) throw new AppError("BR001", undefined, { status: 404 });
  if (member.status === "OPTED_OUT") throw new AppError("BR039");
  const attributes = await listAttributes(db, member.business_id);
  const editable = formAttributes(attributes).filter(memberEditable);
  const existing = await memberValues(db, member.business_id, member.id);
  const parsed = parseFields({ firstName: input.firstName, fullName: input.fullName, birthday: input.birthday, values: input.values }, attributes, editable, existing);
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("members").set({ ...columnsOf(parsed), updated_at: now.toISOString() }).where("id", "=", member.id).execute();
    await writeMemberValues(trx, member.business_id, member.id, parsed.values);
    await memberDataChanged(trx, { businessId: member.business_id, memberId: member.id }, now);
  });
}

export type FormJoinResult = "JOINED" | "ALREADY" | "CODE_SENT" | "CODE_LIMITED";

/** Codes texted to a number that objected, before the member form may subscribe it again. */
const REJOIN_CODE_MAX_ISSUES = 3;

/**
 * A pending member confirms on their form: SUBSCRIBED, consent logged (WEB), the welcome text. A number that
 * objected cannot be subscribed by whoever holds the link: a code is texted to the phone instead ("CODE_SENT"),
 * and only that code (confirmJoinByRefWithCode) subscribes it.
 */
export async function joinByRef(db: Db, ref: string, now: Date): Promise<FormJoinResult> {
  const member = await memberByRef(db, ref);
  if (!member) throw new AppError("BR001", undefined, { status: 404 });
  if (member.status === "SUBSCRIBED") return "ALREADY";
  if (member.status !== "PENDING") throw new AppError("BR039");
  const business = await loadConsentBusiness(db, member.business_id);
  if (await hasObjected(db, member.business_id, member.phone)) {
    const issued = await issueCode(db, "REJOIN", member.unique_ref, REJOIN_CODE_MAX_ISSUES, now);
    if (!issued.ok) return "CODE_LIMITED";
    const body = consentTexts(business).rejoinCode(issued.code);
    await db.transaction().execute((trx) => enqueueSystemText(trx, { businessId: business.id, to: member.phone, body, memberId: member.id, now, fromPhone: business.phone_number }));
    return "CODE_SENT";
  }
  return db.transaction().execute(async (trx) =>
    (await subscribe(trx, { business, member, channel: "WEB", evidence: "Confirmed on the member form", fromTheirPhone: false }, now)) ? "JOINED" : "ALREADY",
  );
}

/** The code texted to a number that objected, entered on its member form: subscribes it (its own act). */
export async function confirmJoinByRefWithCode(db: Db, ref: string, code: string, now: Date): Promise<"JOINED" | "WRONG" | "EXPIRED"> {
  const member = await memberByRef(db, ref);
  if (!member) throw new AppError("BR001", undefined, { status: 404 });
  if (member.status === "SUBSCRIBED") return "JOINED";
  const checked = await checkCode(db, "REJOIN", member.unique_ref, code.trim(), now);
  if (!checked.ok) return checked.reason === "wrong" ? "WRONG" : "EXPIRED";
  const business = await loadConsentBusiness(db, member.business_id);
  await db.transaction().execute((trx) =>
    subscribe(trx, { business, member, channel: "WEB", evidence: "Confirmed on the member form with a code texted to the phone", fromTheirPhone: true }, now),
  );
  return "JOINED";
}

/** The member unsubscribes on their form: OPTED_OUT, consent logged (WEB), the opt-out confirmation text. */
export async function unsubscribeByRef(db: Db, ref: string, now: Date): Promise<boolean> {
  const member = await memberByRef(db, ref);
  if (!member) throw new AppError("BR001", undefined, { status: 404 });
  const business = await loadConsentBusiness(db, member.business_id);
  return db.transaction().execute((trx) =>
    optOut(trx, { business, phone: member.phone, member, channel: "WEB", evidence: "Unsubscribed on the member form", confirm: true }, now),
  );
}

// ---- My account: default opt-in / opt-out texts ----

export async function updateOptTexts(db: Db, businessId: number, input: { optIn: string; optOut: string }): Promise<void> {
  const business = await loadConsentBusiness(db, businessId);
  const texts = checkConsentTexts(business.name, input);
  await db.updateTable("businesses").set({ opt_in_message: texts.optIn, opt_out_message: texts.optOut }).where("id", "=", businessId).execute();
}
