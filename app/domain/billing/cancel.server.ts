// Cancelling: the account and all its data are deleted and its number is given back. It needs a code texted to
// the Administrator's mobile (through the platform's own texts), so a left-open session cannot do it alone.
import type { Database } from "#db/index";
import { checkCode, deleteCodes, issueCode } from "~/domain/accounts/codes.server";
import { enqueuePlatformText } from "~/domain/messaging/platform.server";
import { AppError } from "~/lib/errors";
import { SmsProviderError, type SmsProvider } from "~/providers/sms/types";

const subjectOf = (businessId: number) => `business:${businessId}`;

/** Texts a cancel code to the Administrator. Refused (ok: false) after too many codes this hour. */
export async function sendCancelCode(
  db: Database,
  input: { businessId: number; userId: number; sender: string; maxIssues: number; message: (code: string) => string },
  now: Date,
): Promise<{ ok: true; mobile: string } | { ok: false; retryAt: Date }> {
  const user = await db.selectFrom("users").select(["mobile", "role"]).where("id", "=", input.userId).where("business_id", "=", input.businessId).executeTakeFirst();
  if (!user || user.role !== "ADMIN") throw new AppError("FB001", undefined, { status: 403 });
  const issued = await issueCode(db, "CANCEL", subjectOf(input.businessId), input.maxIssues, now);
  if (!issued.ok) return { ok: false, retryAt: issued.retryAt };
  await enqueuePlatformText(db, {
    to: user.mobile,
    body: input.message(issued.code),
    from: input.sender,
    now,
  });
  return { ok: true, mobile: user.mobile };
}

/**
 * With the right code: gives the number back to the provider, then deletes the business (members, messages,
 * groups, campaigns, payments, users… all go with it). A wrong or expired code changes nothing (BR008).
 */
export async function cancelAccount(db: Database, sms: SmsProvider, businessId: number, code: string, now: Date): Promise<void> {
  const checked = await checkCode(db, "CANCEL", subjectOf(businessId), code.trim(), now);
  if (!checked.ok) throw new AppError("BR008", undefined, { field: "code" });
  const business = await db.selectFrom("businesses").select("phone_number").where("id", "=", businessId).executeTakeFirst();
  if (!business) return;
  if (business.phone_number && sms.releaseNumber) {
    try {
      await sms.releaseNumber(business.phone_number);
    } catch (error) {
      if (error instanceof SmsProviderError) throw new AppError("SU001");
      throw error;
    }
  }
  await db.transaction().execute(async (trx) => {
    await deleteCodes(trx, "CANCEL", subjectOf(businessId));
    await trx.deleteFrom("businesses").where("id", "=", businessId).execute();
  });
}
