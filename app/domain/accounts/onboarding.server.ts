// Onboarding: a new business asks for its dedicated number. The business row is claimed first
// with a conditional UPDATE (NEW | NUMBER_FAILED -> NUMBER_REQUESTED), so two concurrent submissions
// can never buy two numbers: only the request that wins the claim talks to the SMS provider.
import type { Database } from "#db/index";
import { AppError } from "~/lib/errors";
import { SmsProviderError, type SmsProvider } from "~/providers/sms/types";

export const ONBOARDING = {
  NEW: "NEW",
  NUMBER_REQUESTED: "NUMBER_REQUESTED",
  NUMBER_FAILED: "NUMBER_FAILED",
  COMPLETE: "COMPLETE",
} as const;

/** i18n keys of the notice added to the feed when the number is ready. */
export const NUMBER_READY_NOTICE = { kind: "NUMBER_READY", title: "feed.info.numberReadyTitle", body: "feed.info.numberReadyBody" } as const;

export type RequestNumberResult =
  /** This request bought the number. */
  | { status: "COMPLETE"; phoneNumber: string }
  /** Another request holds the claim and is still talking to the provider. */
  | { status: "PENDING" };

export interface OnboardingView {
  onboarding: string;
  phoneNumber: string | null;
  joinKeyword: string;
  error: string | null;
}

export async function getOnboarding(db: Database, businessId: number): Promise<OnboardingView> {
  const b = await db
    .selectFrom("businesses")
    .select(["onboarding", "phone_number", "join_keyword", "onboarding_error"])
    .where("id", "=", businessId)
    .executeTakeFirstOrThrow();
  return { onboarding: b.onboarding, phoneNumber: b.phone_number, joinKeyword: b.join_keyword, error: b.onboarding_error };
}

/**
 * Requests the business's dedicated number. Throws BR007 when onboarding is already COMPLETE and
 * SU001 when the provider refuses (the business is then NUMBER_FAILED and may try again).
 */
export async function requestNumber(db: Database, sms: SmsProvider, businessId: number, now: Date): Promise<RequestNumberResult> {
  const claimed = await db
    .updateTable("businesses")
    .set({ onboarding: ONBOARDING.NUMBER_REQUESTED, onboarding_error: null })
    .where("id", "=", businessId)
    .where("onboarding", "in", [ONBOARDING.NEW, ONBOARDING.NUMBER_FAILED])
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    const current = await db.selectFrom("businesses").select(["onboarding"]).where("id", "=", businessId).executeTakeFirst();
    if (!current) throw new AppError("NF001");
    if (current.onboarding === ONBOARDING.COMPLETE) throw new AppError("BR007");
    return { status: "PENDING" };
  }

  const business = await db.selectFrom("businesses").select(["name"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  let phoneNumber: string;
  try {
    phoneNumber = (await sms.provisionNumber({ businessName: business.name })).number;
  } catch (error) {
    // Any failure releases the claim so the owner can try again; only provider errors are expected.
    const reason = error instanceof SmsProviderError ? (error.providerCode ?? error.message) : "UNEXPECTED";
    await db
      .updateTable("businesses")
      .set({ onboarding: ONBOARDING.NUMBER_FAILED, onboarding_error: reason.slice(0, 200) })
      .where("id", "=", businessId)
      .where("onboarding", "=", ONBOARDING.NUMBER_REQUESTED)
      .execute();
    if (error instanceof SmsProviderError) throw new AppError("SU001");
    throw error;
  }

  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("businesses")
      .set({ phone_number: phoneNumber, onboarding: ONBOARDING.COMPLETE, onboarding_error: null })
      .where("id", "=", businessId)
      .where("onboarding", "=", ONBOARDING.NUMBER_REQUESTED)
      .execute();
    await trx
      .insertInto("notices")
      .values({ business_id: businessId, kind: NUMBER_READY_NOTICE.kind, title: NUMBER_READY_NOTICE.title, body: NUMBER_READY_NOTICE.body, created_at: now.toISOString() })
      .execute();
  });
  return { status: "COMPLETE", phoneNumber };
}
