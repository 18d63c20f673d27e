// `npm run bench:campaign -- --type birthday` (or `tsx scripts/bench-birthday.ts -- --members 100000`): 100,000
// members with birthdays spread over the year; a birthday greeting is created (every member's next greeting planned
// as a durable fire), then the clock jumps to the busiest day and that day's fires are run through the engine
// (each claimed, checked and queued through the pipeline). On a fresh SQLite file, or PostgreSQL in a throwaway
// schema when DATABASE_URL says postgres://. Prints JSON: time to plan every fire, time to queue one day's greetings.
import crypto from "node:crypto";
import { performance } from "node:perf_hooks";
import { dialectOf } from "../db/index";
import { createScratchDb } from "../db/scratch";
import { newMemberRef } from "../app/domain/members/core.server";
import { campaignInput } from "../app/domain/campaigns/model";
import { createCampaign } from "../app/domain/campaigns/campaigns.server";
import { runDueFires } from "../app/domain/campaigns/engine.server";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i >= 0 ? Number(process.argv[i + 1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : fallback;
}

const MEMBERS = arg("members", 100_000);
const url = process.env.DATABASE_URL && dialectOf(process.env.DATABASE_URL) === "postgres" ? process.env.DATABASE_URL : null;

async function main() {
  const scratch = await createScratchDb({ pgUrl: url, prefix: "tc-bench-bday-" });
  const db = scratch.db;
  let now = new Date("2027-01-01T08:00:00Z");
  const clock = () => now;
  try {
    const at = now.toISOString();
    const b = await db
      .insertInto("businesses")
      .values({ name: "Bench Salon", name_key: `bench-${crypto.randomBytes(4).toString("hex")}`, phone_number: "+447700900998", onboarding: "COMPLETE", status: "SUBSCRIBED", message_allowance: MEMBERS * 10, referral_code: `B${crypto.randomBytes(5).toString("hex")}`, quiet_start: "00:00", quiet_end: "00:00", created_at: at })
      .returning("id")
      .executeTakeFirstOrThrow();
    const businessId = Number(b.id);
    const seedStart = performance.now();
    for (let i = 0; i < MEMBERS; i += 1000) {
      const rows = Array.from({ length: Math.min(1000, MEMBERS - i) }, (_, k) => {
        const n = i + k;
        const day = new Date(Date.UTC(2028, 0, 1) + (n % 366) * 86_400_000);
        return {
          business_id: businessId,
          phone: `+4479${String(10_000_000 + n).padStart(8, "0")}`,
          first_name: `M${n}`,
          full_name: null,
          status: "SUBSCRIBED" as const,
          unique_ref: newMemberRef(),
          joined_at: at,
          invited_at: null,
          opted_out_at: null,
          created_at: at,
          updated_at: at,
          birthday: `${String(day.getUTCMonth() + 1).padStart(2, "0")}-${String(day.getUTCDate()).padStart(2, "0")}`,
        };
      });
      await db.insertInto("members").values(rows).execute();
    }
    const seedMs = performance.now() - seedStart;
    const deps = { db, now: clock, config: { messaging: { sendDelaySeconds: 0, dmSendDelaySeconds: 5 } } };
    const planStart = performance.now();
    const c = await createCampaign(deps, { businessId, userId: null, input: campaignInput.parse({ type: "BIRTHDAYGREETING", name: "Birthdays", messageText: "Happy birthday {{firstName}}!", sendTime: "10:00" }) });
    const planMs = performance.now() - planStart;
    const planned = await db.selectFrom("campaign_fires").select((eb) => eb.fn.countAll<number>().as("n")).where("campaign_id", "=", c.id).where("member_id", "!=", 0).executeTakeFirstOrThrow();
    // The busiest day: 28 February 2027, when members born on the 28th and the 29th are both greeted.
    // Everything due before that day first (a worker kept up), untimed.
    now = new Date("2027-02-27T23:00:00Z");
    while (await runDueFires(deps, 500));
    now = new Date("2027-02-28T10:30:00Z");
    const dayStart = performance.now();
    let fired = 0;
    for (;;) {
      const n = await runDueFires(deps, 500);
      if (!n) break;
      fired += n;
    }
    const dayMs = performance.now() - dayStart;
    const queued = await db.selectFrom("messages").select((eb) => eb.fn.countAll<number>().as("n")).where("campaign_id", "=", c.id).executeTakeFirstOrThrow();
    console.log(
      JSON.stringify(
        {
          database: scratch.dialect,
          members: MEMBERS,
          seedMs: Math.round(seedMs),
          planEveryFire: { fires: Number(planned.n), ms: Math.round(planMs), firesPerSecond: Math.round(Number(planned.n) / (planMs / 1000)) },
          oneDay: { day: "2027-02-28", fires: fired, textsQueued: Number(queued.n), ms: Math.round(dayMs), firesPerSecond: Math.round(fired / (dayMs / 1000)) },
        },
        null,
        2,
      ),
    );
  } finally {
    await scratch.dispose();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
