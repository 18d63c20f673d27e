// `npm run bench:groupsend -- --members 10000`: the time from pressing "Send group message" (the
// preview step's sendDraft: draft -> message, recipients resolved, merge tags rendered, credits
// charged, rows inserted) to the last text accepted by the provider (simulator, no rate limit), with
// the sending-soon pause set to 0 and an in-process worker. SQLite file by default; PostgreSQL in a
// throwaway schema when DATABASE_URL is postgres://. Prints JSON.
import os from "node:os";
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import type { Insertable } from "kysely";
import { dialectOf } from "../db/index";
import type { MembersTable } from "../db/types";
import { saveDraftSchedule, saveDraftText, sendDraft } from "../app/domain/group-messages/group-messages.server";
import { createScratchDb } from "../db/scratch";
import { OutboundWorker } from "../app/domain/messaging/worker.server";
import { SimulatorSmsProvider } from "../app/providers/sms/simulator.server";

const i = process.argv.indexOf("--members");
const MEMBERS = i >= 0 && Number(process.argv[i + 1]) > 0 ? Number(process.argv[i + 1]) : 10_000;
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;

function setUp() {
  return createScratchDb({ pgUrl: url, prefix: "tc-bench-group-" });
}

const env = await setUp();
try {
  const at = new Date().toISOString();
  const b = await env.db
    .insertInto("businesses")
    .values({
      name: "Bench Café",
      name_key: `bench-${crypto.randomBytes(4).toString("hex")}`,
      phone_number: "+447700900998",
      onboarding: "COMPLETE",
      status: "SUBSCRIBED",
      message_allowance: MEMBERS * 10,
      referral_code: `G${crypto.randomBytes(5).toString("hex")}`,
      quiet_start: "00:00",
      quiet_end: "00:00",
      created_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const businessId = Number(b.id);
  const user = await env.db
    .insertInto("users")
    .values({ business_id: businessId, email: `bench-${crypto.randomBytes(4).toString("hex")}@example.test`, name: "Bench", mobile: "+447700900997", role: "ADMIN", password_hash: "x", last_login_at: null, last_active_at: null, locked_until: null, created_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  const names = ["Ann", "Bob", "Chloé", "Dev", "Eve", ""];
  for (let k0 = 0; k0 < MEMBERS; k0 += 2000) {
    const rows: Insertable<MembersTable>[] = [];
    for (let k = k0; k < Math.min(MEMBERS, k0 + 2000); k++) {
      rows.push({ business_id: businessId, phone: `+447${String(100_000_000 + k).slice(-9)}`, first_name: names[k % names.length] || null, full_name: null, status: "SUBSCRIBED", unique_ref: crypto.randomBytes(16).toString("base64url"), joined_at: at, invited_at: null, opted_out_at: null, created_at: at, updated_at: at });
    }
    await env.db.transaction().execute(async (trx) => {
      for (let j = 0; j < rows.length; j += 500) await trx.insertInto("members").values(rows.slice(j, j + 500)).execute();
    });
  }
  const now = () => new Date();
  const draftId = await saveDraftText(env.db, { businessId, userId: Number(user.id), body: "Hi {{firstName|there}}, two-for-one coffee at {{businessName}} until noon!" }, now());
  await saveDraftSchedule(env.db, { businessId, draftId, groupId: -1, sendMode: "NOW", sendAt: null }, now());
  const worker = new OutboundWorker({ db: env.db, sms: new SimulatorSmsProvider(env.db, now), now, config: { messaging: { ratePerSecond: 0, batchSize: 1000, pollMs: 10, leaseSeconds: 120, maxAttempts: 8, backoffMs: 1000 } } });

  const pressedAt = Date.now();
  const t0 = performance.now();
  const sent = await sendDraft({ db: env.db, now, config: { messaging: { sendDelaySeconds: 0 } } }, { businessId, userId: Number(user.id), draftId });
  const tCreated = performance.now();
  await worker.drain();
  const t1 = performance.now();
  const last = await env.db.selectFrom("outbound").select((eb) => eb.fn.max("sent_at").as("last")).where("message_id", "=", sent.messageId).executeTakeFirstOrThrow();
  const accepted = await env.db.selectFrom("outbound").select((eb) => eb.fn.countAll<number>().as("n")).where("message_id", "=", sent.messageId).where("status", "in", ["SENT", "DELIVERED"]).executeTakeFirstOrThrow();
  if (Number(accepted.n) !== MEMBERS) throw new Error(`only ${accepted.n} of ${MEMBERS} accepted`);
  const lastAccepted = (Date.parse(String(last.last)) - pressedAt) / 1000;
  console.log(
    JSON.stringify({
      benchmark: "bench:groupsend",
      dialect: env.dialect,
      members: MEMBERS,
      press_to_last_accepted_seconds: Math.round(lastAccepted * 1000) / 1000,
      send_step_seconds: Math.round(tCreated - t0) / 1000,
      drain_seconds: Math.round(t1 - tCreated) / 1000,
      texts_per_s: Math.round(MEMBERS / ((t1 - t0) / 1000)),
      cpus: os.cpus().length,
      load1: Math.round(os.loadavg()[0] * 100) / 100,
    }),
  );
} finally {
  await env.dispose();
}
