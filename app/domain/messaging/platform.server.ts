// Texts from the platform itself rather than from a business: sign-up PINs and password-reset codes. They go
// through the same durable pipeline as every other text (a row, claimed by a worker, retried, reconciled),
// at top priority, from the configured system sender (SMS_SYSTEM_SENDER: the simulator's system number by
// default; with Twilio a number or Messaging Service the account owns).
//
// Every pipeline row belongs to an account, so the platform has one of its own: a reserved row in `businesses`,
// created on first use, that can never sign in, onboard, own a number or appear on a public page (its name key
// and referral code contain '#', which no real business's can).
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { enqueueMessage } from "./outbound.server";

type Db = Kysely<DB>;

const PLATFORM_KEY = "#platform";
const cache = new WeakMap<Db, number>();

/** The platform's own account id, created the first time it is needed. */
export async function platformAccountId(db: Db, now: Date): Promise<number> {
  const known = cache.get(db);
  if (known !== undefined) return known;
  const find = () => db.selectFrom("businesses").select("id").where("name_key", "=", PLATFORM_KEY).executeTakeFirst();
  let row = await find();
  if (!row) {
    await db
      .insertInto("businesses")
      .values({
        name: "Textcircle",
        name_key: PLATFORM_KEY,
        phone_number: null,
        onboarding: "PLATFORM",
        status: "PLATFORM",
        trial_credits: 0,
        referral_code: PLATFORM_KEY,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("name_key").doNothing())
      .execute();
    row = await find();
  }
  const id = Number(row!.id);
  cache.set(db, id);
  return id;
}

/** Queues a platform text (a PIN or a code) to a phone, from the system sender, in one transaction. */
export async function enqueuePlatformText(db: Db, input: { to: string; body: string; from: string; now: Date }): Promise<number> {
  const accountId = await platformAccountId(db, input.now);
  const created = await db.transaction().execute((trx) =>
    enqueueMessage(
      trx,
      { businessId: accountId, kind: "SYSTEM", audience: { phone: input.to }, body: input.body, fromPhone: input.from },
      { now: input.now, sendDelaySeconds: 0 },
    ),
  );
  return created.messageId;
}
