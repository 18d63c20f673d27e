// Seeds a demo business on first start with the simulator, so a newcomer lands on a populated home
// screen. It never writes over existing data: it does nothing unless there are no businesses at all.
import { randomBytes } from "node:crypto";
import type { Database } from "./index";

/**
 * What the seed needs from the application, passed in so that db/ does not import app/: the password hash
 * the login checks against, and the terms version the demo business has accepted.
 */
export interface SeedApp {
  hashPassword(password: string): Promise<string>;
  termsVersion: string;
}

const randomToken = (bytes: number) => randomBytes(bytes).toString("base64url");

export const DEMO = {
  company: "The Corner Café",
  owner: "Olivia Owens",
  email: "owner@demo.textcircle.test",
  password: "Textcircle-demo-1",
  mobile: "+447400123456",
  number: "+447700900123",
  keyword: "JOIN",
} as const;

export async function seedDemo(db: Database, now: Date, app: SeedApp): Promise<{ email: string; password: string } | null> {
  const any = await db.selectFrom("businesses").select("id").limit(1).executeTakeFirst();
  if (any) return null;
  const at = now.toISOString();
  const passwordHash = await app.hashPassword(DEMO.password);
  await db.transaction().execute(async (trx) => {
    const business = await trx
      .insertInto("businesses")
      .values({
        name: DEMO.company,
        name_key: DEMO.company.toLowerCase(),
        phone_number: DEMO.number,
        join_keyword: DEMO.keyword,
        onboarding: "COMPLETE",
        status: "TRIAL",
        trial_credits: 42,
        trial_ends_at: new Date(now.getTime() + 23 * 86400_000).toISOString(),
        referral_code: `DEMO${randomToken(4).replace(/[^A-Za-z0-9]/g, "").slice(0, 4).toUpperCase()}`,
        terms_version: app.termsVersion,
        created_at: at,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    // The demo trial's credits as the ledger records them: 50 granted, 8 already spent.
    await trx
      .insertInto("credit_ledger")
      .values([
        { business_id: business.id, kind: "GRANT", pool: "TRIAL", credits: 50, reason: "trial", reference: null, created_at: at, grant_key: `trial:${business.id}` },
        { business_id: business.id, kind: "CHARGE", pool: "TRIAL", credits: 8, reason: "send", reference: "demo", created_at: at },
      ])
      .execute();
    await trx
      .insertInto("users")
      .values({
        business_id: business.id,
        name: DEMO.owner,
        email: DEMO.email,
        mobile: DEMO.mobile,
        password_hash: passwordHash,
        role: "ADMIN",
        created_at: at,
      })
      .execute();
    await trx.insertInto("sim_numbers").values({ number: DEMO.number, assigned_at: at }).onConflict((oc) => oc.column("number").doNothing()).execute();
    await trx
      .insertInto("notices")
      .values({ business_id: business.id, kind: "WELCOME", title: "feed.info.welcomeTitle", body: "feed.info.welcomeBody", created_at: at })
      .execute();
    await seedDemoMembers(trx, Number(business.id), now);
    await seedDemoConversations(trx, Number(business.id), now);
  });
  return { email: DEMO.email, password: DEMO.password };
}

/** Demo community: a mix of subscribed, invited and opted-out members and two custom attributes. */
export const DEMO_MEMBERS = [
  { phone: "+447400900201", first: "Amelia", full: "Amelia Hart", status: "SUBSCRIBED", drink: "Flat white", visits: 12 },
  { phone: "+447400900202", first: "Oliver", full: "Oliver Grant", status: "SUBSCRIBED", drink: "Tea", visits: 4 },
  { phone: "+447400900203", first: "Isla", full: "Isla Brown", status: "SUBSCRIBED", drink: "Hot chocolate", visits: 7 },
  { phone: "+447400900204", first: "George", full: "George Patel", status: "SUBSCRIBED", drink: "Tea", visits: 1 },
  { phone: "+447400900205", first: "Freya", full: "Freya Jones", status: "SUBSCRIBED", drink: null, visits: null },
  { phone: "+447400900206", first: "Harry", full: "Harry Wilson", status: "PENDING", drink: null, visits: null },
  { phone: "+447400900207", first: "Poppy", full: "Poppy Evans", status: "PENDING", drink: "Flat white", visits: null },
  { phone: "+447400900208", first: "Noah", full: "Noah Clarke", status: "OPTED_OUT", drink: null, visits: 2 },
] as const;

async function seedDemoMembers(db: Database, businessId: number, now: Date): Promise<void> {
  const at = now.toISOString();
  const drink = await db
    .insertInto("attributes")
    .values({ business_id: businessId, key: "favouriteDrink", name: "Favourite drink", type: "LIST", show_on_form: 1, member_can_edit: 1, mandatory: 0, position: 1, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const visits = await db
    .insertInto("attributes")
    .values({ business_id: businessId, key: "visitsThisYear", name: "Visits this year", type: "NUMBER", show_on_form: 0, member_can_edit: 0, mandatory: 0, position: 2, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const items = new Map<string, number>();
  for (const [position, label] of ["Flat white", "Tea", "Hot chocolate"].entries()) {
    const row = await db.insertInto("attribute_list_items").values({ attribute_id: drink.id, label, position }).returning("id").executeTakeFirstOrThrow();
    items.set(label, Number(row.id));
  }
  for (const [i, m] of DEMO_MEMBERS.entries()) {
    const when = new Date(now.getTime() - (DEMO_MEMBERS.length - i) * 86400_000).toISOString();
    const member = await db
      .insertInto("members")
      .values({
        business_id: businessId,
        phone: m.phone,
        first_name: m.first,
        full_name: m.full,
        status: m.status,
        unique_ref: randomToken(16),
        joined_at: m.status === "PENDING" ? null : when,
        invited_at: m.status === "PENDING" ? when : null,
        opted_out_at: m.status === "OPTED_OUT" ? at : null,
        created_at: when,
        updated_at: when,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    const log = (action: "OPT_IN_REQUESTED" | "OPTED_IN" | "OPTED_OUT", channel: "SMS" | "INVITE", created_at: string) =>
      db.insertInto("consent_log").values({ business_id: businessId, member_id: member.id, phone: m.phone, action, channel, evidence: "Demo data", created_at }).execute();
    await log("OPT_IN_REQUESTED", m.status === "PENDING" ? "INVITE" : "SMS", when);
    if (m.status !== "PENDING") await log("OPTED_IN", "SMS", when);
    if (m.status === "OPTED_OUT") await log("OPTED_OUT", "SMS", at);
    if (m.drink) {
      await db.insertInto("member_attribute_values").values({ member_id: member.id, attribute_id: drink.id, business_id: businessId, value_text: m.drink, value_number: items.get(m.drink) ?? null }).execute();
    }
    if (m.visits !== null) {
      await db.insertInto("member_attribute_values").values({ member_id: member.id, attribute_id: visits.id, business_id: businessId, value_text: String(m.visits), value_number: m.visits }).execute();
    }
  }
}

/** Demo conversations: Amelia's question waits unread; Oliver's thanks was read and answered. */
async function seedDemoConversations(db: Database, businessId: number, now: Date): Promise<void> {
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
  const member = async (phone: string) =>
    (await db.selectFrom("members").select(["id", "phone"]).where("business_id", "=", businessId).where("phone", "=", phone).executeTakeFirst()) ?? null;
  const amelia = await member("+447400900201");
  const oliver = await member("+447400900202");
  if (!amelia || !oliver) return;
  const inbound = (m: { id: number; phone: string }, body: string, at: string, ref: string) =>
    db
      .insertInto("inbound_messages")
      .values({ business_id: businessId, provider_id: `SMdemo${ref}${randomToken(6)}`, from_number: m.phone, to_number: DEMO.number, body, received_at: at, processed_at: at, member_id: m.id, kind: "MESSAGE" })
      .execute();
  await inbound(oliver, "Thanks for the birthday brownie yesterday, it was delicious!", ago(26 * 60), "o1");
  const replyAt = ago(25 * 60);
  const reply = "So glad you enjoyed it, Oliver. See you soon!";
  const msg = await db
    .insertInto("messages")
    .values({ business_id: businessId, kind: "DM", body: reply, group_id: null, member_id: oliver.id, status: "COMPLETE", send_at: replyAt, editable_until: replyAt, recipients: 1, credits: 1, created_by: null, created_at: replyAt, updated_at: replyAt })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("outbound")
    .values({ message_id: msg.id, business_id: businessId, member_id: oliver.id, to_phone: oliver.phone, from_phone: DEMO.number, body: reply, segments: 1, priority: 0, status: "DELIVERED", attempts: 1, next_attempt_at: replyAt, created_at: replyAt, sent_at: replyAt, delivered_at: replyAt, charged: 0 })
    .execute();
  await db.insertInto("conversations").values({ business_id: businessId, member_id: oliver.id, state: "READ", last_message_at: replyAt, unread_count: 0, read_at: replyAt }).execute();
  await inbound(amelia, "Hi! Do you have oat milk in today? I'd like to pre-order two flat whites for 10am.", ago(12), "a1");
  await db.insertInto("conversations").values({ business_id: businessId, member_id: amelia.id, state: "UNREAD", last_message_at: ago(12), unread_count: 1 }).execute();
}
