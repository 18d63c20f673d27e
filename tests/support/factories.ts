// Factories for test data. Each returns the inserted row's id and what a test needs to sign in.
import crypto from "node:crypto";
import type { Database } from "#db/index";
import { hashPassword } from "~/lib/crypto.server";
import { TERMS_VERSION } from "~/lib/config.server";

let seq = 0;
const unique = () => `${Date.now().toString(36)}${(++seq).toString(36)}${crypto.randomBytes(2).toString("hex")}`;

// Numbers come from a per-process sequence (a random start inside a slice chosen by the process id), so two calls
// never collide and no generated number falls in 07400 1xxxxx, which tests keep for hand-written numbers.
const numberSlice = (process.pid % 40) * 20_000;
let mobileSeq = 200_000 + numberSlice + crypto.randomInt(0, 10_000);
let businessSeq = 10_000 + (process.pid % 40) * 2_000 + crypto.randomInt(0, 1_000);

/** A UK mobile in the 07400 range (every number there is a valid GB mobile for libphonenumber-js), unique per call. */
export function ukMobile(): string {
  if (++mobileSeq > 999_999) mobileSeq = 200_000;
  return `+447400${mobileSeq}`;
}

/** A business number in the 07700 91xxxx-99xxxx range (tests keep 07700 90xxxx for hand-written ones), unique per call within a process. */
export function businessNumber(): string {
  if (++businessSeq > 99_999) businessSeq = 10_000;
  return `+4477009${String(businessSeq).padStart(5, "0")}`;
}

export const TEST_PASSWORD = "Sunny-day-42";
let cachedHash: string | undefined;

export async function createBusiness(db: Database, overrides: Partial<{ name: string; onboarding: string; status: string; trialCredits: number; trialDays: number; messageAllowance: number; allowanceUsed: number; termsVersion: string | null; phoneNumber: string | null; referralCode: string }> = {}) {
  const name = overrides.name ?? `Business ${unique()}`;
  const now = Date.now();
  const row = await db
    .insertInto("businesses")
    .values({
      name,
      name_key: name.toLowerCase(),
      phone_number: overrides.phoneNumber === undefined ? businessNumber() : overrides.phoneNumber,
      onboarding: overrides.onboarding ?? "COMPLETE",
      status: overrides.status ?? "TRIAL",
      trial_credits: overrides.trialCredits ?? 50,
      trial_ends_at: new Date(now + (overrides.trialDays ?? 30) * 86400_000).toISOString(),
      message_allowance: overrides.messageAllowance ?? 0,
      allowance_used: overrides.allowanceUsed ?? 0,
      referral_code: overrides.referralCode ?? `R${unique()}`.slice(0, 12),
      terms_version: overrides.termsVersion === undefined ? TERMS_VERSION : overrides.termsVersion,
      created_at: new Date(now).toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function createUser(db: Database, businessId: number, overrides: Partial<{ email: string; name: string; role: "ADMIN" | "TEAM"; mobile: string; disabled: boolean }> = {}) {
  cachedHash ??= await hashPassword(TEST_PASSWORD);
  const email = overrides.email ?? `user-${unique()}@example.test`;
  const row = await db
    .insertInto("users")
    .values({
      business_id: businessId,
      name: overrides.name ?? "Sam Tester",
      email,
      mobile: overrides.mobile ?? ukMobile(),
      password_hash: cachedHash,
      role: overrides.role ?? "ADMIN",
      disabled: overrides.disabled ? 1 : 0,
      created_at: new Date().toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: row.id, email, password: TEST_PASSWORD };
}

/** A business with its administrator, the usual starting point. */
export async function createAccount(db: Database, overrides: Parameters<typeof createBusiness>[1] = {}) {
  const businessId = await createBusiness(db, overrides);
  const user = await createUser(db, businessId);
  return { businessId, ...user };
}

/** A team member (role TEAM) of an existing business. */
export async function createTeamUser(db: Database, businessId: number, overrides: Omit<NonNullable<Parameters<typeof createUser>[2]>, "role"> = {}) {
  return createUser(db, businessId, { name: "Terry Team", ...overrides, role: "TEAM" });
}
