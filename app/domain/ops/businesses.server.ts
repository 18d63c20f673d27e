// Businesses as the operators see them: every account with its state (trial, subscribed, payment failed,
// disabled, suspended; "locked" when one of its logins is locked after too many failed attempts) and its
// usage this month; stopping a business (disabled or suspended) and lifting the stop; unlocking a login;
// and admin access to a user's account through the single-use link.
//
// A stopped business keeps its status in businesses.status (DISABLED or SUSPENDED), which every part of the
// app already reads: its logins are refused with UA005, its campaigns fail with SURVEYERROR_COMPANY_DISABLED
// or _SUSPENDED when they fire, its join page closes. The status it had before is kept in held_status and
// given back when the stop is lifted.
import { sql } from "kysely";
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { createAdminAccessToken } from "~/domain/accounts/admin-access.server";
import { startOfUkMonth } from "~/domain/stats/stats.server";

export const BUSINESS_PAGE_SIZE = 25;
export type BusinessState = "TRIAL" | "SUBSCRIBED" | "PAYMENT_FAILED" | "DISABLED" | "SUSPENDED";
export const STOPPED: readonly string[] = ["DISABLED", "SUSPENDED"];
export const ADMIN_ACCESS_NOTICE = { kind: "ADMIN_ACCESS", title: "feed.info.adminAccessTitle", body: "feed.info.adminAccessBody" } as const;

export interface BusinessRow {
  id: number;
  name: string;
  state: string;
  locked: boolean;
  phoneNumber: string | null;
  createdAt: string;
  textsThisMonth: number;
  ownerEmail: string | null;
}

function stateFilter(state: string | null | undefined): string | null {
  return state && ["TRIAL", "SUBSCRIBED", "PAYMENT_FAILED", "DISABLED", "SUSPENDED", "LOCKED"].includes(state) ? state : null;
}

/** Businesses by name or a user's email (case-insensitive), newest first, a page at a time. */
export async function listBusinesses(
  db: Database,
  options: { q?: string; state?: string | null; page: number },
  now: Date,
): Promise<{ rows: BusinessRow[]; total: number; page: number; pageCount: number }> {
  const at = now.toISOString();
  const monthStart = startOfUkMonth(now);
  const needle = (options.q ?? "").trim().toLowerCase().slice(0, 100);
  const state = stateFilter(options.state);
  let q = db.selectFrom("businesses");
  if (needle) {
    const like = `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([
        eb(sql`lower(businesses.name)`, "like", sql`${like} escape '\\'`),
        eb.exists(eb.selectFrom("users").select("users.id").whereRef("users.business_id", "=", "businesses.id").where(sql`lower(users.email)`, "like", sql`${like} escape '\\'`)),
      ]),
    );
  }
  if (state === "LOCKED") {
    q = q.where((eb) => eb.exists(eb.selectFrom("users").select("users.id").whereRef("users.business_id", "=", "businesses.id").where("users.locked_until", ">", at)));
  } else if (state) {
    q = q.where("businesses.status", "=", state);
  }
  const { n } = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const total = Number(n);
  const pageCount = Math.max(1, Math.ceil(total / BUSINESS_PAGE_SIZE));
  const page = Math.min(Math.max(1, options.page), pageCount);
  const rows = await q
    .select([
      "businesses.id",
      "businesses.name",
      "businesses.status",
      "businesses.phone_number",
      "businesses.created_at",
      sql<number>`(select count(*) from outbound o where o.business_id = businesses.id and o.created_at >= ${monthStart})`.as("texts"),
      sql<number>`(select count(*) from users lu where lu.business_id = businesses.id and lu.locked_until > ${at})`.as("locked"),
      sql<string | null>`(select min(u.email) from users u where u.business_id = businesses.id and u.role = 'ADMIN')`.as("ownerEmail"),
    ])
    .orderBy("businesses.id", "desc")
    .limit(BUSINESS_PAGE_SIZE)
    .offset((page - 1) * BUSINESS_PAGE_SIZE)
    .execute();
  return {
    rows: rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      state: r.status,
      locked: Number(r.locked) > 0,
      phoneNumber: r.phone_number,
      createdAt: r.created_at,
      textsThisMonth: Number(r.texts),
      ownerEmail: r.ownerEmail,
    })),
    total,
    page,
    pageCount,
  };
}

export interface BusinessDetail {
  id: number;
  name: string;
  state: string;
  heldStatus: string | null;
  phoneNumber: string | null;
  onboarding: string;
  createdAt: string;
  trialCredits: number;
  trialEndsAt: string | null;
  messageAllowance: number;
  allowanceUsed: number;
  usage: { textsThisMonth: number; failedThisMonth: number; membersSubscribed: number; campaigns: number; trackEventsThisMonth: number };
  users: Array<{ id: number; name: string; email: string; role: string; locked: boolean; lockedUntil: string | null; disabled: boolean; lastActiveAt: string | null }>;
  openChats: number;
}

/** One business for an operator (NF001 when there is none). */
export async function getBusinessDetail(db: Database, businessId: number, now: Date): Promise<BusinessDetail> {
  const b = await db.selectFrom("businesses").selectAll().where("id", "=", businessId).executeTakeFirst();
  if (!b) throw new AppError("NF001");
  const at = now.toISOString();
  const monthStart = startOfUkMonth(now);
  const count = async (query: Promise<{ n: number | string | bigint } | undefined>) => Number((await query)?.n ?? 0);
  const [texts, failed, members, campaigns, events, chats] = await Promise.all([
    count(db.selectFrom("outbound").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).where("created_at", ">=", monthStart).executeTakeFirst()),
    count(
      db.selectFrom("outbound").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).where("created_at", ">=", monthStart).where("status", "=", "FAILED").executeTakeFirst(),
    ),
    count(db.selectFrom("members").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).where("status", "=", "SUBSCRIBED").executeTakeFirst()),
    count(db.selectFrom("campaigns").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).executeTakeFirst()),
    count(db.selectFrom("track_events").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).where("created_at", ">=", monthStart).executeTakeFirst()),
    count(db.selectFrom("support_sessions").select((eb) => eb.fn.countAll<number>().as("n")).where("business_id", "=", businessId).where("status", "=", "OPEN").executeTakeFirst()),
  ]);
  const users = await db
    .selectFrom("users")
    .select(["id", "name", "email", "role", "locked_until", "disabled", "last_active_at"])
    .where("business_id", "=", businessId)
    .orderBy("id")
    .execute();
  return {
    id: Number(b.id),
    name: b.name,
    state: b.status,
    heldStatus: b.held_status,
    phoneNumber: b.phone_number,
    onboarding: b.onboarding,
    createdAt: b.created_at,
    trialCredits: b.trial_credits,
    trialEndsAt: b.trial_ends_at,
    messageAllowance: b.message_allowance,
    allowanceUsed: b.allowance_used,
    usage: { textsThisMonth: texts, failedThisMonth: failed, membersSubscribed: members, campaigns, trackEventsThisMonth: events },
    users: users.map((u) => ({
      id: Number(u.id),
      name: u.name,
      email: u.email,
      role: u.role,
      locked: !!u.locked_until && u.locked_until > at,
      lockedUntil: u.locked_until,
      disabled: u.disabled === 1,
      lastActiveAt: u.last_active_at,
    })),
    openChats: chats,
  };
}

/**
 * Stops a business: DISABLED or SUSPENDED. Its users' sessions end at once (their next sign-in is
 * refused with UA005) and its campaigns fail with the matching reason when they next fire. Stopping
 * a stopped business changes the kind of stop and keeps the status it had before the first one.
 */
export async function stopBusiness(db: Database, businessId: number, kind: "DISABLED" | "SUSPENDED"): Promise<{ from: string }> {
  const b = await db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", businessId).executeTakeFirst();
  if (!b) throw new AppError("NF001");
  const held = STOPPED.includes(b.status) ? (b.held_status ?? "TRIAL") : b.status;
  await db.updateTable("businesses").set({ status: kind, held_status: held }).where("id", "=", businessId).execute();
  const users = await db.selectFrom("users").select("id").where("business_id", "=", businessId).execute();
  if (users.length) await db.deleteFrom("sessions").where("user_id", "in", users.map((u) => Number(u.id))).execute();
  return { from: b.status };
}

/** Lifts a stop: the business gets back the status it had. BR025 when it is not stopped. */
export async function liftBusiness(db: Database, businessId: number): Promise<{ to: string }> {
  const b = await db.selectFrom("businesses").select(["status", "held_status"]).where("id", "=", businessId).executeTakeFirst();
  if (!b) throw new AppError("NF001");
  if (!STOPPED.includes(b.status)) throw new AppError("BR025");
  const to = b.held_status && !STOPPED.includes(b.held_status) ? b.held_status : "TRIAL";
  await db.updateTable("businesses").set({ status: to, held_status: null }).where("id", "=", businessId).execute();
  return { to };
}

/** Unlocks a login locked after too many failed attempts. NF001 when the user is not the business's. */
export async function unlockUser(db: Database, businessId: number, userId: number): Promise<{ email: string }> {
  const u = await db.selectFrom("users").select("email").where("id", "=", userId).where("business_id", "=", businessId).executeTakeFirst();
  if (!u) throw new AppError("NF001");
  await db.updateTable("users").set({ locked_until: null, failed_logins: 0 }).where("id", "=", userId).execute();
  return { email: u.email };
}

/**
 * Admin access to a user's account: the single-use, 10-minute link, and a notice on the business's home
 * feed so its people know support opened their account. NF001 for another business's user; BR025 when
 * the link cannot be made (a disabled user).
 */
export async function openAdminAccess(db: Database, businessId: number, userId: number, now: Date): Promise<{ token: string; email: string; expiresAt: Date }> {
  const u = await db.selectFrom("users").select("email").where("id", "=", userId).where("business_id", "=", businessId).executeTakeFirst();
  if (!u) throw new AppError("NF001");
  const created = await createAdminAccessToken(db, u.email, now);
  if (!created) throw new AppError("BR025");
  await db
    .insertInto("notices")
    .values({ business_id: businessId, kind: ADMIN_ACCESS_NOTICE.kind, title: ADMIN_ACCESS_NOTICE.title, body: ADMIN_ACCESS_NOTICE.body, created_at: now.toISOString() })
    .execute();
  return { token: created.token, email: u.email, expiresAt: created.expiresAt };
}
