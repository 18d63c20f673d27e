// The consent service: the only code that changes a member's status (pending, subscribed, opted out, deleted),
// the only code that writes the consent log, and the one place that chooses the opt-in, welcome, opt-out and
// help texts. Every function works inside the caller's transaction and, after each status change, calls the
// member-change hooks in that same transaction (date-driven campaigns plan their sends there).
//
// The rule that governs everything here: once a number has objected to a business (texted STOP, unsubscribed on
// its form, or was reported opted out by the network), only that number's own act subscribes it again: texting
// START, or texting the keyword and replying YES, or confirming on the member form with a code texted to it.
// Nobody else's act can: an invitation to it is refused (BR039) and sends nothing; the public join page sends it
// at most one opt-in request a day; an import never subscribes it. The consent log records what truly happened.
import type { Kysely } from "kysely";
import type { ConsentAction, ConsentChannel, DB, Member, MemberStatus } from "#db/types";
import { AppError } from "~/lib/errors";
import { withinRateLimit } from "~/domain/ratelimit.server";
import { findMemberByPhone, insertMember, logConsent, newMemberRef, transitionMember } from "~/domain/members/core.server";
import { enqueueSystemText } from "~/domain/messaging/outbound.server";
import en from "~/locales/en-GB/pipeline.json";
import fr from "~/locales/fr/pipeline.json";

type Db = Kysely<DB>;

// ---- the texts ----

export interface ConsentBusiness {
  id: number;
  name: string;
  locale: string;
  phone_number: string | null;
  opt_in_message: string | null;
  opt_out_message: string | null;
  help_message?: string | null;
}

const BUSINESS_COLUMNS = ["id", "name", "locale", "phone_number", "join_keyword", "opt_in_message", "opt_out_message", "help_message"] as const;

export async function loadConsentBusiness(db: Db, businessId: number) {
  return db.selectFrom("businesses").select(BUSINESS_COLUMNS).where("id", "=", businessId).executeTakeFirstOrThrow();
}

function fill(template: string, business: string): string {
  return template.replace(/\{\{\s*(business|businessName)\s*\}\}/g, business);
}

function words(text: string): string[] {
  return text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The rules for a business's own opt-in and opt-out texts: the opt-in text names the business and says how to join
 * (reply YES) and how to stop (reply STOP); the opt-out text names the business. `{{businessName}}` counts as the
 * name. Empty means "use the default". Throws BR025 on the field, saying which rule it breaks.
 */
export function checkConsentTexts(businessName: string, input: { optIn: string; optOut: string }): { optIn: string | null; optOut: string | null } {
  const clean = (v: string, field: string) => {
    const t = v.trim();
    if (t.length > 5000 || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(t)) throw new AppError("BR022", undefined, { field });
    return t || null;
  };
  const optIn = clean(input.optIn, "optIn");
  const optOut = clean(input.optOut, "optOut");
  const names = (text: string) => {
    const filled = fill(text, businessName).toLowerCase();
    return filled.includes(businessName.trim().toLowerCase());
  };
  if (optIn) {
    const w = words(optIn);
    if (!names(optIn)) throw new AppError("BR025", { context: "optInBusiness", business: businessName }, { field: "optIn" });
    if (!w.includes("YES") && !w.includes("OUI")) throw new AppError("BR025", { context: "optInYes" }, { field: "optIn" });
    if (!w.includes("STOP")) throw new AppError("BR025", { context: "optInStop" }, { field: "optIn" });
  }
  if (optOut && !names(optOut)) throw new AppError("BR025", { context: "optOutBusiness", business: businessName }, { field: "optOut" });
  return { optIn, optOut };
}

/** The texts a member receives about their subscription, in the business's language, with its own wording where set. */
export function consentTexts(business: ConsentBusiness) {
  const t = business.locale === "fr" ? fr.sms : en.sms;
  const defaults = { optIn: fill(t.optInRequest, business.name), optOut: fill(t.optOut, business.name), welcome: fill(t.welcome, business.name), help: fill(t.help, business.name) };
  return {
    defaults,
    optIn: business.opt_in_message?.trim() ? fill(business.opt_in_message, business.name) : defaults.optIn,
    optOut: business.opt_out_message?.trim() ? fill(business.opt_out_message, business.name) : defaults.optOut,
    welcome: defaults.welcome,
    /** The welcome for a member who joined by text and has not given a name: it asks for their first name. */
    welcomeAskName: fill(t.welcomeAskName, business.name),
    nameThanks: (name: string) => t.nameThanks.replace(/\{\{\s*name\s*\}\}/g, name),
    help: business.help_message?.trim() ? fill(business.help_message, business.name) : defaults.help,
    /** The code a number that objected receives before its member form may subscribe it again. */
    rejoinCode: (code: string) => fill(t.rejoinCode, business.name).replace(/\{\{\s*code\s*\}\}/g, code),
  };
}

/** The business and its texts, for the screens that show or edit them. */
export async function businessTexts(db: Db, businessId: number) {
  const business = await loadConsentBusiness(db, businessId);
  return { business, ...consentTexts(business) };
}

// ---- the hook ----

export interface MemberChange {
  businessId: number;
  memberId: number;
  phone: string;
  from: MemberStatus | null;
  to: MemberStatus;
}

export type MemberChangeHook = (trx: Db, change: MemberChange, now: Date) => Promise<void>;

const hooks: MemberChangeHook[] = [];

/** Registers a hook called after every member status change, inside the same transaction. Returns its removal. */
export function onMemberChange(hook: MemberChangeHook): () => void {
  hooks.push(hook);
  return () => {
    const i = hooks.indexOf(hook);
    if (i >= 0) hooks.splice(i, 1);
  };
}

async function changed(trx: Db, change: MemberChange, now: Date): Promise<void> {
  for (const hook of hooks) await hook(trx, change, now);
}

// ---- objections ----

/** The consent actions that settle whether a number wants texts; an opt-in request settles nothing. */
const DECISIVE: ConsentAction[] = ["OPTED_IN", "REJOINED", "OPTED_OUT"];

/** Whether the number's last decisive consent act towards the business was an objection. */
export async function hasObjected(db: Db, businessId: number, phone: string): Promise<boolean> {
  const last = await db
    .selectFrom("consent_log")
    .select("action")
    .where("business_id", "=", businessId)
    .where("phone", "=", phone)
    .where("action", "in", DECISIVE)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return last?.action === "OPTED_OUT";
}

/** The numbers among `phones` whose last decisive act towards the business was an objection (one query). */
export async function objectedPhones(db: Db, businessId: number, phones: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  if (!phones.length) return out;
  const rows = await db
    .selectFrom("consent_log")
    .select(["phone", "action"])
    .where("business_id", "=", businessId)
    .where("phone", "in", [...phones])
    .where("action", "in", DECISIVE)
    .orderBy("id")
    .execute();
  const last = new Map<string, string>();
  for (const r of rows) last.set(r.phone, r.action);
  for (const [phone, action] of last) if (action === "OPTED_OUT") out.add(phone);
  return out;
}

// ---- acts ----

/** Who asked: the person themselves (a text, the public join page) or the business (an invitation). */
export type Actor = "SELF" | "BUSINESS";

/** Repeated opt-in requests to one number are answered at most once per window. */
export const OPT_IN_REPEAT_WINDOW_SECONDS = 600;
/** A number that objected gets at most one opt-in request a day from the public join page. */
export const OBJECTED_WEB_WINDOW_SECONDS = 86_400;

export interface RequestOptIn {
  business: ConsentBusiness;
  phone: string;
  /** The member with that number, when the caller already loaded it (undefined: looked up). */
  member?: Member | null;
  actor: Actor;
  channel: ConsentChannel;
  evidence: string;
  /** New members: the name the business gave. */
  firstName?: string | null;
  fullName?: string | null;
}

export type OptInOutcome = { outcome: "SENT" | "ALREADY" | "REPEATED" | "LIMITED"; member: Member };

/**
 * Starts the double opt-in for a number: the member becomes PENDING (created if new), the request is logged and
 * the opt-in text queued. A business acting on a number that objected gets BR039 and nothing happens. A number
 * asking again while pending gets the text again at most once per window ("REPEATED" when suppressed).
 */
export async function requestOptIn(trx: Db, input: RequestOptIn, now: Date): Promise<OptInOutcome> {
  const { business, phone } = input;
  let member = input.member === undefined ? await findMemberByPhone(trx, business.id, phone) : (input.member ?? undefined);
  if (member?.status === "SUBSCRIBED") return { outcome: "ALREADY", member };
  const objected = await hasObjected(trx, business.id, phone);
  if (objected && input.actor === "BUSINESS") throw new AppError("BR039", undefined, { field: "phone" });
  if (objected && input.channel === "WEB" && !(await withinRateLimit(trx, `optin:objected:${business.id}:${phone}`, 1, OBJECTED_WEB_WINDOW_SECONDS, now))) {
    if (!member) throw new AppError("BR039");
    return { outcome: "LIMITED", member };
  }
  const firstRequest = !member || member.status !== "PENDING";
  if (!member) {
    member = await insertMember(trx, { businessId: business.id, phone, status: "PENDING", invited: input.actor === "BUSINESS", now, firstName: input.firstName, fullName: input.fullName });
    await changed(trx, { businessId: business.id, memberId: member.id, phone, from: null, to: "PENDING" }, now);
  } else if (member.status !== "PENDING") {
    const from = member.status;
    if (!(await transitionMember(trx, member, "PENDING", ["OPTED_OUT", "DELETED"], now))) return { outcome: "ALREADY", member };
    member = { ...member, status: "PENDING" };
    await changed(trx, { businessId: business.id, memberId: member.id, phone, from, to: "PENDING" }, now);
  }
  // One opt-in text per number per window, however many times it is asked for (a burst of JOIN texts).
  const allowed = await withinRateLimit(trx, `optin:${business.id}:${phone}`, 1, OPT_IN_REPEAT_WINDOW_SECONDS, now);
  if (firstRequest || allowed) {
    await logConsent(trx, { businessId: business.id, memberId: member.id, phone, action: "OPT_IN_REQUESTED", channel: input.channel, evidence: input.evidence, now });
    await enqueueSystemText(trx, { businessId: business.id, to: phone, body: consentTexts(business).optIn, memberId: member.id, now, fromPhone: business.phone_number });
    return { outcome: "SENT", member };
  }
  return { outcome: "REPEATED", member };
}

export interface Subscribe {
  business: ConsentBusiness;
  member: Member;
  channel: ConsentChannel;
  evidence: string;
  /**
   * The act came from the member's own phone (a text from it, or a code texted to it). Anything else cannot
   * subscribe a number that objected.
   */
  fromTheirPhone: boolean;
}

/**
 * Subscribes a member: a pending member confirms, or an opted-out or deleted member rejoins by their own act.
 * Logs OPTED_IN or REJOINED and queues the welcome text. BR039 when the number objected and the act was not its
 * own. Returns false when nothing changed (already subscribed, or another process got there first).
 */
export async function subscribe(trx: Db, input: Subscribe, now: Date): Promise<boolean> {
  const { business, member } = input;
  if (member.status === "SUBSCRIBED") return false;
  if (!input.fromTheirPhone && (await hasObjected(trx, business.id, member.phone))) throw new AppError("BR039");
  const from: MemberStatus[] = input.fromTheirPhone ? ["PENDING", "OPTED_OUT", "DELETED"] : ["PENDING"];
  if (!(await transitionMember(trx, member, "SUBSCRIBED", from, now))) return false;
  await logConsent(trx, {
    businessId: business.id,
    memberId: member.id,
    phone: member.phone,
    action: member.status === "PENDING" ? "OPTED_IN" : "REJOINED",
    channel: input.channel,
    evidence: input.evidence,
    now,
  });
  // Someone who joined by text and has no name yet is asked for their first name; their next reply gives it.
  const askName = input.channel === "SMS" && !member.first_name?.trim() && !member.full_name?.trim();
  const texts = consentTexts(business);
  await enqueueSystemText(trx, { businessId: business.id, to: member.phone, body: askName ? texts.welcomeAskName : texts.welcome, memberId: member.id, now, fromPhone: business.phone_number });
  if (askName) await trx.updateTable("members").set({ name_asked_at: now.toISOString() }).where("id", "=", member.id).execute();
  await changed(trx, { businessId: business.id, memberId: member.id, phone: member.phone, from: member.status, to: "SUBSCRIBED" }, now);
  return true;
}

export interface OptOut {
  business: ConsentBusiness;
  phone: string;
  /** The member with that number; null when the number is not a member (the objection is still recorded). */
  member: Member | null | undefined;
  channel: ConsentChannel;
  evidence: string;
  /** Queue the opt-out confirmation text (not when the network itself reported the opt-out). */
  confirm: boolean;
}

/**
 * Records an objection. A member (in any state) becomes OPTED_OUT; a number that is not a member has its
 * objection logged so that nobody can add it later. The confirmation text goes once: a repeated STOP changes
 * nothing and sends nothing. Returns whether anything changed.
 */
export async function optOut(trx: Db, input: OptOut, now: Date): Promise<boolean> {
  const { business, phone, member } = input;
  const entry = { businessId: business.id, phone, action: "OPTED_OUT" as const, channel: input.channel, evidence: input.evidence, now };
  if (member) {
    if (!(await transitionMember(trx, member, "OPTED_OUT", ["PENDING", "SUBSCRIBED", "DELETED"], now))) return false;
    await logConsent(trx, { ...entry, memberId: member.id });
    if (input.confirm) await enqueueSystemText(trx, { businessId: business.id, to: phone, body: consentTexts(business).optOut, memberId: member.id, now, fromPhone: business.phone_number });
    await changed(trx, { businessId: business.id, memberId: member.id, phone, from: member.status, to: "OPTED_OUT" }, now);
    return true;
  }
  if (await hasObjected(trx, business.id, phone)) return false;
  await logConsent(trx, { ...entry, memberId: null });
  if (input.confirm) await enqueueSystemText(trx, { businessId: business.id, to: phone, body: consentTexts(business).optOut, memberId: null, now, fromPhone: business.phone_number });
  return true;
}

/**
 * Deletes a member at the business's request: status DELETED, personal data and memberships removed. The consent
 * log is kept, so an objection outlives the member.
 */
export async function deleteMember(trx: Db, member: Pick<Member, "id" | "business_id" | "phone" | "status">, now: Date): Promise<void> {
  await trx
    .updateTable("members")
    .set({ status: "DELETED", first_name: null, full_name: null, birthday: null, appointment_at: null, note: null, updated_at: now.toISOString() })
    .where("id", "=", member.id)
    .where("business_id", "=", member.business_id)
    .execute();
  await trx.deleteFrom("member_attribute_values").where("member_id", "=", member.id).execute();
  await trx.deleteFrom("group_members").where("member_id", "=", member.id).execute();
  await changed(trx, { businessId: member.business_id, memberId: member.id, phone: member.phone, from: member.status, to: "DELETED" }, now);
}

// ---- imports ----

export interface ImportedMember {
  phone: string;
  /** The existing member with that number, if any. */
  existing?: { id: number; status: MemberStatus } | null;
  columns: { first_name?: string | null; full_name?: string | null; birthday?: string | null; note?: string | null };
}

/**
 * Subscribes a batch of imported members on the business's word that it holds their consent: new numbers are
 * inserted SUBSCRIBED, existing members not yet subscribed become SUBSCRIBED, each with an IMPORT entry in the
 * consent log. Numbers that objected are never subscribed (returned in `objected`, nothing written for them).
 */
export async function subscribeImported(
  trx: Db,
  businessId: number,
  batch: readonly ImportedMember[],
  evidence: string,
  now: Date,
  /** How the business told us (a CSV import, or a call to the public API). */
  channel: ConsentChannel = "IMPORT",
): Promise<{ ids: Map<string, number>; added: number; updated: number; objected: Set<string> }> {
  const at = now.toISOString();
  const objected = await objectedPhones(trx, businessId, batch.map((b) => b.phone));
  const ids = new Map<string, number>();
  const consentRows: Array<{ business_id: number; member_id: number; phone: string; action: ConsentAction; channel: ConsentChannel; evidence: string; created_at: string }> = [];
  const changes: MemberChange[] = [];
  let added = 0;
  let updated = 0;
  const toInsert: ImportedMember[] = [];
  for (const m of batch) {
    if (objected.has(m.phone) || m.existing?.status === "OPTED_OUT") {
      objected.add(m.phone);
      continue;
    }
    if (!m.existing) {
      toInsert.push(m);
      continue;
    }
    const set: Record<string, string | null> = { updated_at: at };
    for (const [k, v] of Object.entries(m.columns)) if (v) set[k] = v;
    if (m.existing.status !== "SUBSCRIBED") {
      set.status = "SUBSCRIBED";
      set.joined_at = at;
      set.opted_out_at = null;
      consentRows.push({ business_id: businessId, member_id: m.existing.id, phone: m.phone, action: m.existing.status === "PENDING" ? "OPTED_IN" : "REJOINED", channel, evidence, created_at: at });
      changes.push({ businessId, memberId: m.existing.id, phone: m.phone, from: m.existing.status, to: "SUBSCRIBED" });
      added++;
    } else updated++;
    await trx.updateTable("members").set(set).where("id", "=", m.existing.id).where("business_id", "=", businessId).execute();
    ids.set(m.phone, m.existing.id);
  }
  if (toInsert.length) {
    const inserted = await trx
      .insertInto("members")
      .values(
        toInsert.map((p) => ({
          business_id: businessId,
          phone: p.phone,
          first_name: p.columns.first_name ?? null,
          full_name: p.columns.full_name ?? null,
          birthday: p.columns.birthday ?? null,
          note: p.columns.note ?? null,
          status: "SUBSCRIBED" as const,
          unique_ref: newMemberRef(),
          joined_at: at,
          invited_at: null,
          opted_out_at: null,
          created_at: at,
          updated_at: at,
        })),
      )
      .returning(["id", "phone"])
      .execute();
    for (const r of inserted) {
      const id = Number(r.id);
      ids.set(r.phone, id);
      consentRows.push({ business_id: businessId, member_id: id, phone: r.phone, action: "OPTED_IN", channel, evidence, created_at: at });
      changes.push({ businessId, memberId: id, phone: r.phone, from: null, to: "SUBSCRIBED" });
    }
    added += inserted.length;
  }
  if (consentRows.length) await trx.insertInto("consent_log").values(consentRows).execute();
  for (const c of changes) await changed(trx, c, now);
  return { ids, added, updated, objected };
}
