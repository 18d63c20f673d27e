// `npm run bench:conversations -- --members 100000 --messages 1000000`: the DM inbox at scale. Seeds one
// business with N members, half of them in conversations (a third unread), and M stored texts in all
// (inbound texts from those members, group-message outbound rows to everyone, and one member with a
// 500-text thread), then times the queries behind the screens: the inbox's first page (active and
// unread tabs), a 500-text thread (first page, and every page walked), and the unread count.
// SQLite file by default; PostgreSQL (throwaway schema) when DATABASE_URL is postgres://. Prints JSON.
import os from "node:os";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { dialectOf, type Database } from "../db/index";
import { getThread, listInbox, parseThreadCursor, unreadTotal } from "../app/domain/conversations/conversations.server";
import { createScratchDb } from "../db/scratch";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}
const MEMBERS = arg("members", 100_000);
const MESSAGES = arg("messages", 1_000_000);
const RUNS = arg("runs", 200);
const THREAD = 500;
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;

function setUp() {
  return createScratchDb({ pgUrl: url, prefix: "tc-bench-conv-" });
}

async function insertChunks<T>(db: Database, table: "members" | "inbound_messages" | "outbound" | "conversations" | "messages", rows: T[], size = 1000) {
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += size) await trx.insertInto(table).values(rows.slice(i, i + size) as never).execute();
  });
}

const phoneOf = (k: number) => `+447${String(100_000_000 + k).slice(-9)}`;
const BIZ_PHONE = "+447700900999";

async function seed(db: Database) {
  const base = Date.UTC(2026, 9, 1, 9, 0, 0);
  const iso = (ms: number) => new Date(ms).toISOString();
  const at = iso(base);
  const b = await db
    .insertInto("businesses")
    .values({ name: "Bench Bakery", name_key: `bench-${crypto.randomBytes(4).toString("hex")}`, phone_number: BIZ_PHONE, onboarding: "COMPLETE", status: "SUBSCRIBED", message_allowance: 10_000_000, referral_code: `B${crypto.randomBytes(5).toString("hex")}`, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = Number(b.id);
  const names = ["Ann Lee", "Bob Stone", "Chloé Martin", "Dev Patel", "Eve Rowe", "Femi Ade", "Gus Hall", "Hana Ito"];
  for (let i = 0; i < MEMBERS; i += 10_000) {
    const rows = [];
    for (let k = i; k < Math.min(MEMBERS, i + 10_000); k++) {
      rows.push({ business_id: businessId, phone: phoneOf(k), first_name: names[k % 8].split(" ")[0], full_name: names[k % 8], status: "SUBSCRIBED", unique_ref: crypto.randomBytes(16).toString("base64url"), joined_at: at, invited_at: null, opted_out_at: null, created_at: at, updated_at: at });
    }
    await insertChunks(db, "members", rows, 500);
  }
  const members = await db.selectFrom("members").select(["id", "phone"]).where("business_id", "=", businessId).orderBy("id").execute();
  const star = members[0];

  // Outbound: group messages to everyone, as many as fit in half the texts.
  const outboundBudget = Math.floor((MESSAGES - THREAD) / 2);
  const groupMessages = Math.max(1, Math.floor(outboundBudget / MEMBERS));
  let stored = 0;
  for (let g = 0; g < groupMessages; g++) {
    const sentAt = iso(base + g * 86400_000);
    const msg = await db
      .insertInto("messages")
      .values({ business_id: businessId, kind: "GROUP", body: "Fresh bread from 8am, {{firstName}}!", group_id: -1, member_id: null, status: "COMPLETE", send_at: sentAt, editable_until: sentAt, recipients: MEMBERS, credits: MEMBERS, created_by: null, created_at: sentAt, updated_at: sentAt })
      .returning("id")
      .executeTakeFirstOrThrow();
    for (let i = 0; i < members.length; i += 20_000) {
      const rows = members.slice(i, i + 20_000).map((m) => ({ message_id: msg.id, business_id: businessId, member_id: m.id, to_phone: m.phone, from_phone: BIZ_PHONE, body: "Fresh bread from 8am, Ann!", segments: 1, priority: 1, status: "DELIVERED", attempts: 1, next_attempt_at: sentAt, created_at: sentAt, sent_at: sentAt, delivered_at: sentAt }));
      await insertChunks(db, "outbound", rows, 500);
    }
    stored += MEMBERS;
  }
  // Inbound: spread over half the members, newest activity recorded on their conversation.
  const talkers = members.slice(1, Math.floor(members.length / 2));
  const inboundBudget = MESSAGES - stored - THREAD;
  const perTalker = Math.max(1, Math.floor(inboundBudget / talkers.length));
  const last = new Map<number, number>();
  let n = 0;
  for (let r = 0; r < perTalker; r++) {
    const rows = [];
    for (const m of talkers) {
      const t = base + (r * talkers.length + n++) * 1000;
      last.set(m.id, t);
      rows.push({ business_id: businessId, provider_id: `SM${r}-${m.id}`, from_number: m.phone, to_number: BIZ_PHONE, body: `Question ${r} from member ${m.id}: do you have sourdough today?`, received_at: iso(t), processed_at: iso(t), member_id: m.id, kind: "MESSAGE" });
      if (rows.length === 20_000) {
        await insertChunks(db, "inbound_messages", rows.splice(0), 500);
      }
    }
    await insertChunks(db, "inbound_messages", rows, 500);
    stored += talkers.length;
  }
  // The remainder of the budget: one more text from the first talkers, so the total is exact.
  const extra = inboundBudget - perTalker * talkers.length;
  if (extra > 0) {
    const rows = talkers.slice(0, extra).map((m) => {
      const t = base + (perTalker * talkers.length + n++) * 1000;
      last.set(m.id, t);
      return { business_id: businessId, provider_id: `SMx-${m.id}`, from_number: m.phone, to_number: BIZ_PHONE, body: `One more question from member ${m.id}`, received_at: iso(t), processed_at: iso(t), member_id: m.id, kind: "MESSAGE" };
    });
    await insertChunks(db, "inbound_messages", rows, 500);
    stored += rows.length;
  }
  // The star member: a 500-text thread, alternating both ways (DMs out).
  const threadStart = base + 400 * 86400_000;
  const dm = await db
    .insertInto("messages")
    .values({ business_id: businessId, kind: "DM", body: "Reply", group_id: null, member_id: star.id, status: "COMPLETE", send_at: iso(threadStart), editable_until: iso(threadStart), recipients: THREAD / 2, credits: THREAD / 2, created_by: null, created_at: iso(threadStart), updated_at: iso(threadStart) })
    .returning("id")
    .executeTakeFirstOrThrow();
  const ins = [];
  const outs = [];
  for (let i = 0; i < THREAD / 2; i++) {
    ins.push({ business_id: businessId, provider_id: `SMstar-${i}`, from_number: star.phone, to_number: BIZ_PHONE, body: `Star question ${i}`, received_at: iso(threadStart + i * 60_000), processed_at: iso(threadStart + i * 60_000), member_id: star.id, kind: "MESSAGE" });
    outs.push({ message_id: dm.id, business_id: businessId, member_id: star.id, to_phone: star.phone, from_phone: BIZ_PHONE, body: `Star answer ${i}`, segments: 1, priority: 0, status: "DELIVERED", attempts: 1, next_attempt_at: iso(threadStart + i * 60_000 + 30_000), created_at: iso(threadStart + i * 60_000 + 30_000), sent_at: iso(threadStart + i * 60_000 + 30_000), delivered_at: iso(threadStart + i * 60_000 + 30_000) });
  }
  await insertChunks(db, "inbound_messages", ins, 500);
  await insertChunks(db, "outbound", outs, 500);
  stored += THREAD;
  last.set(star.id, threadStart + THREAD * 60_000);
  // Conversations: a third unread.
  const convs = [...last].map(([memberId, t], i) => ({ business_id: businessId, member_id: memberId, state: i % 3 === 0 ? "UNREAD" : "READ", last_message_at: iso(t), unread_count: i % 3 === 0 ? 1 + (i % 4) : 0 }));
  await insertChunks(db, "conversations", convs, 500);
  return { businessId, starId: star.id, stored, conversations: convs.length, unreadConversations: convs.filter((c) => c.state === "UNREAD").length, now: new Date(threadStart + (THREAD + 10) * 60_000) };
}

async function time(runs: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 5; i++) await fn();
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const q = (p: number) => Number(ms[Math.min(ms.length - 1, Math.floor(p * ms.length))].toFixed(2));
  return { runs, medianMs: q(0.5), p99Ms: q(0.99), maxMs: Number(ms[ms.length - 1].toFixed(2)) };
}

async function main() {
  const env = await setUp();
  try {
    const t0 = performance.now();
    const s = await seed(env.db);
    if (env.dialect === "postgres") await (await import("kysely")).sql`ANALYZE`.execute(env.db);
    const seedSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
    const { businessId, starId, now } = s;
    const check = await getThread(env.db, businessId, starId, { limit: 50 }, now);
    if (check.items.length !== 50 || !check.earlier) throw new Error("thread seed is wrong");
    const results = {
      inboxFirstPageActive: await time(RUNS, () => listInbox(env.db, businessId, { tab: "active" }, now)),
      inboxFirstPageUnread: await time(RUNS, () => listInbox(env.db, businessId, { tab: "unread" }, now)),
      threadFirstPage500: await time(RUNS, () => getThread(env.db, businessId, starId, {}, now)),
      threadAllPages500: await time(Math.max(20, Math.floor(RUNS / 5)), async () => {
        let before: string | null = null;
        for (;;) {
          const page = await getThread(env.db, businessId, starId, { before: parseThreadCursor(before) }, now);
          if (!page.earlier) break;
          before = page.earlier;
        }
      }),
      unreadCount: await time(RUNS, () => unreadTotal(env.db, businessId, now)),
    };
    const count = async (table: "inbound_messages" | "outbound") => Number((await env.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    console.log(
      JSON.stringify(
        {
          dialect: env.dialect,
          members: MEMBERS,
          storedTexts: { inbound: await count("inbound_messages"), outbound: await count("outbound") },
          conversations: s.conversations,
          unreadConversations: s.unreadConversations,
          unreadTotal: await unreadTotal(env.db, businessId, now),
          seedSeconds,
          results,
          node: process.version,
          cpus: os.cpus().length,
          load1: Number(os.loadavg()[0].toFixed(2)),
        },
        null,
        2,
      ),
    );
  } finally {
    await env.dispose();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
