// Sign-up domain: duplicates BR018/BR019/BR020, PIN, password, atomic creation of business + admin, referral link.
import { describe, expect, it } from "vitest";
import { DIALECTS, useTestDb } from "../support/db";
import { createAccount, createBusiness, createUser, ukMobile as baseMobile } from "../support/factories";
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { verifyPassword } from "~/lib/crypto.server";
import { parseUkMobile } from "~/lib/phone";
import { SYSTEM_SENDER } from "~/domain/accounts/codes.server";
import { deliverQueued } from "../support/pipeline";
import {
  acceptTerms,
  completeSignup,
  findReferrer,
  findSignup,
  hasAcceptedTerms,
  sendSignupPin,
  setSignupPassword,
  startSignup,
  verifySignupPin,
} from "~/domain/accounts/signup.server";

/** A random UK mobile that passes the strict mobile check (the shared factory's ukMobile() is not always valid). */
function ukMobile(): string {
  for (;;) {
    const m = baseMobile();
    if (parseUkMobile(m)) return m;
  }
}

const NOW = new Date("2026-11-21T10:00:00.000Z");
const later = (m: number) => new Date(NOW.getTime() + m * 60_000);
let n = 0;
function info(overrides: Partial<{ company: string; name: string; email: string; mobile: string; referralCode: string | null }> = {}) {
  const id = `${Date.now().toString(36)}${++n}`;
  return { company: `Cafe ${id}`, name: "Alex Owner", email: `owner-${id}@example.test`, mobile: ukMobile(), referralCode: null, ...overrides };
}

async function codeOf(error: Promise<unknown>): Promise<string | undefined> {
  try {
    await error;
  } catch (e) {
    if (e instanceof AppError) return `${e.code}:${e.field}`;
    throw e;
  }
  return undefined;
}

async function lastText(db: Database, phone: string): Promise<string> {
  await deliverQueued(db);
  const row = await db.selectFrom("sim_messages").select(["body", "business_number"]).where("phone", "=", phone).orderBy("id", "desc").executeTakeFirstOrThrow();
  expect(row.business_number).toBe(SYSTEM_SENDER);
  return row.body;
}

/** Runs steps 1-3 and returns the pending sign-up ready for the terms. */
async function readySignup(db: Database, details = info()) {
  const started = await startSignup(db, details, null, NOW);
  const sent = await sendSignupPin(db, SYSTEM_SENDER, { id: started.signupId, mobile: details.mobile }, 3, (c) => `Code ${c}`, NOW);
  if (!sent.ok) throw new Error("expected a PIN");
  expect((await verifySignupPin(db, { id: started.signupId }, sent.code, later(1))).ok).toBe(true);
  await setSignupPassword(db, (await findSignup(db, started.token, later(2)))!, "Brand-new-pass1");
  return { details, token: started.token, signup: (await findSignup(db, started.token, later(3)))! };
}

describe.each(DIALECTS)("sign-up (%s)", (dialect) => {
  const t = useTestDb(dialect);

  it("refuses a taken email (BR018), mobile (BR019) and business name in any case (BR020)", async () => {
    const existing = await createAccount(t.db, { name: `Taken Bakery ${Date.now()}` });
    const business = await t.db.selectFrom("businesses").select("name").where("id", "=", existing.businessId).executeTakeFirstOrThrow();
    const user = await t.db.selectFrom("users").select(["email", "mobile"]).where("id", "=", existing.id).executeTakeFirstOrThrow();
    expect(await codeOf(startSignup(t.db, info({ email: user.email.toUpperCase() }), null, NOW))).toBe("BR018:email");
    expect(await codeOf(startSignup(t.db, info({ mobile: user.mobile }), null, NOW))).toBe("BR019:mobile");
    expect(await codeOf(startSignup(t.db, info({ company: business.name.toUpperCase() }), null, NOW))).toBe("BR020:company");
    expect(await t.db.selectFrom("signups").select("id").where("email", "=", user.email).execute()).toHaveLength(0);
  });

  it("keeps a pending sign-up for an hour under the hash of the cookie token", async () => {
    const details = info();
    const started = await startSignup(t.db, details, null, NOW);
    expect(started.signupId).not.toBe(started.token);
    expect(started.signupId).toMatch(/^[0-9a-f]{64}$/);
    expect((await findSignup(t.db, started.token, later(59)))?.email).toBe(details.email);
    expect(await findSignup(t.db, started.token, later(60))).toBeNull();
    expect(await findSignup(t.db, "not-a-token", NOW)).toBeNull();
  });

  it("replaces the visitor's earlier pending sign-up", async () => {
    const first = await startSignup(t.db, info(), null, NOW);
    const second = await startSignup(t.db, info(), first.token, NOW);
    expect(await findSignup(t.db, first.token, NOW)).toBeNull();
    expect(await findSignup(t.db, second.token, NOW)).not.toBeNull();
  });

  it("texts the PIN from the system sender and verifies it", async () => {
    const details = info();
    const started = await startSignup(t.db, details, null, NOW);
    const sent = await sendSignupPin(t.db, SYSTEM_SENDER, { id: started.signupId, mobile: details.mobile }, 3, (c) => `Your Textcircle verification code is ${c}.`, NOW);
    if (!sent.ok) throw new Error("expected a PIN");
    // Queued in the pipeline at top priority (nothing is sent from inside the request), then sent by a worker.
    const queued = await t.db.selectFrom("outbound").select(["status", "priority", "from_phone", "charged"]).where("to_phone", "=", details.mobile).execute();
    expect(queued).toEqual([{ status: "QUEUED", priority: 0, from_phone: SYSTEM_SENDER, charged: 0 }]);
    expect(await t.db.selectFrom("sim_messages").select("id").where("phone", "=", details.mobile).execute()).toHaveLength(0);
    const body = await lastText(t.db, details.mobile);
    expect(body).toBe(`Your Textcircle verification code is ${sent.code}.`);
    const wrong = sent.code === "123456" ? "654321" : "123456";
    expect(await verifySignupPin(t.db, { id: started.signupId }, wrong, later(1))).toEqual({ ok: false, reason: "wrong", attemptsLeft: 4 });
    expect((await findSignup(t.db, started.token, later(1)))?.verified_at).toBeNull();
    expect(await verifySignupPin(t.db, { id: started.signupId }, sent.code, later(1))).toEqual({ ok: true });
    expect((await findSignup(t.db, started.token, later(1)))?.verified_at).toBe(later(1).toISOString());
  });

  it("will not take a password before the PIN is verified", async () => {
    const started = await startSignup(t.db, info(), null, NOW);
    const signup = (await findSignup(t.db, started.token, NOW))!;
    expect(await codeOf(setSignupPassword(t.db, signup, "Brand-new-pass1"))).toBe("BR008:code");
  });

  it("creates the trial business and its administrator together", async () => {
    const { details, signup } = await readySignup(t.db);
    const { businessId, userId } = await completeSignup(t.db, signup, "2026-11-01", later(4));
    const b = await t.db.selectFrom("businesses").selectAll().where("id", "=", businessId).executeTakeFirstOrThrow();
    expect(b).toMatchObject({ name: details.company, name_key: details.company.toLowerCase(), status: "TRIAL", trial_credits: 50, onboarding: "NEW", terms_version: "2026-11-01", referred_by_id: null });
    expect(b.trial_ends_at).toBe(new Date(later(4).getTime() + 30 * 86400_000).toISOString());
    expect(b.referral_code).toMatch(/^[A-Z0-9]{8}$/);
    const u = await t.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
    expect(u).toMatchObject({ business_id: businessId, role: "ADMIN", email: details.email, mobile: details.mobile, name: "Alex Owner" });
    expect(await verifyPassword("Brand-new-pass1", u.password_hash)).toBe(true);
    expect(await t.db.selectFrom("signups").select("id").where("id", "=", signup.id).execute()).toHaveLength(0);
    expect(await t.db.selectFrom("verification_codes").select("id").where("subject", "=", signup.id).execute()).toHaveLength(0);
  });

  it("creates nothing when the administrator cannot be created (one transaction)", async () => {
    const { details, signup } = await readySignup(t.db);
    // Someone else takes the mobile between the PIN and the terms.
    const other = await createBusiness(t.db);
    await createUser(t.db, other, { mobile: details.mobile });
    expect(await codeOf(completeSignup(t.db, signup, "2026-11-01", later(4)))).toBe("BR019:mobile");
    expect(await t.db.selectFrom("businesses").select("id").where("name", "=", details.company).execute()).toHaveLength(0);
  });

  it("rolls back the business when the user insert fails inside the transaction", async () => {
    const { details, signup } = await readySignup(t.db);
    // A pending sign-up whose email breaks the users table's NOT NULL rule only at insert time.
    const broken = { ...signup, email: null as unknown as string };
    await expect(completeSignup(t.db, broken, "2026-11-01", later(4))).rejects.toThrow();
    expect(await t.db.selectFrom("businesses").select("id").where("name", "=", details.company).execute()).toHaveLength(0);
  });

  it("links a referral by its case-sensitive code", async () => {
    const referrerId = await createBusiness(t.db, { referralCode: `REF${n}X${Date.now().toString(36).toUpperCase()}`.slice(0, 12) });
    const code = (await t.db.selectFrom("businesses").select("referral_code").where("id", "=", referrerId).executeTakeFirstOrThrow()).referral_code;
    expect(await findReferrer(t.db, code)).toMatchObject({ id: referrerId });
    expect(await findReferrer(t.db, code.toLowerCase())).toBeNull();
    expect(await findReferrer(t.db, "")).toBeNull();
    const { signup } = await readySignup(t.db, info({ referralCode: code }));
    expect(signup.referral_code).toBe(code);
    const { businessId } = await completeSignup(t.db, signup, "2026-11-01", later(4));
    const b = await t.db.selectFrom("businesses").select("referred_by_id").where("id", "=", businessId).executeTakeFirstOrThrow();
    expect(b.referred_by_id).toBe(referrerId);
  });

  it("drops an unknown referral code instead of linking anything", async () => {
    const { signup } = await readySignup(t.db, info({ referralCode: "NOPE1234" }));
    expect(signup.referral_code).toBeNull();
  });

  it("records acceptance of new terms", async () => {
    const businessId = await createBusiness(t.db, { termsVersion: "2020-01-01" });
    expect(await hasAcceptedTerms(t.db, businessId, "2026-11-01")).toBe(false);
    await acceptTerms(t.db, businessId, "2026-11-01");
    expect(await hasAcceptedTerms(t.db, businessId, "2026-11-01")).toBe(true);
  });
});
