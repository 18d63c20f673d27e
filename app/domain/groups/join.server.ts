// Join-us: how people join a business's texts. By text (the keyword to the number, also as a QR
// code that opens an SMS), or on the public web page /join/{referral code} with a phone field that
// starts the same double opt-in as texting the keyword: member PENDING, consent log OPT_IN_REQUESTED
// on channel WEB, the opt-in request text; the person replies YES to subscribe.
import type { Kysely } from "kysely";
import QRCode from "qrcode";
import type { DB } from "#db/types";
import { requestOptIn } from "~/domain/consent/consent.server";
import { withinRateLimit } from "~/domain/ratelimit.server";
import { AppError } from "~/lib/errors";
import { parseUkMobile } from "~/lib/phone";

type Db = Kysely<DB>;

export interface JoinInfo {
  businessName: string;
  phoneNumber: string | null;
  keyword: string;
  slug: string;
}

export async function joinInfo(db: Db, businessId: number): Promise<JoinInfo> {
  const b = await db.selectFrom("businesses").select(["name", "phone_number", "join_keyword", "referral_code"]).where("id", "=", businessId).executeTakeFirstOrThrow();
  return { businessName: b.name, phoneNumber: b.phone_number, keyword: (b.join_keyword || "JOIN").toUpperCase(), slug: b.referral_code };
}

/** The sms: link a phone opens from the QR code: a new text to the number with the keyword filled in. */
export function smsLink(phoneNumber: string, keyword: string): string {
  return `sms:${phoneNumber}?&body=${encodeURIComponent(keyword)}`;
}

/** An SVG QR code (server-side; no script) for any text. */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: "svg", errorCorrectionLevel: "M", margin: 2, color: { dark: "#000000", light: "#ffffff" } });
}

/** The business behind a public join slug, if it can take members (onboarded, with a number, active). */
export async function businessForJoin(db: Db, slug: string) {
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(slug)) return undefined;
  const b = await db
    .selectFrom("businesses")
    .select(["id", "name", "phone_number", "join_keyword", "locale", "opt_in_message", "opt_out_message", "onboarding", "status"])
    .where("referral_code", "=", slug)
    .executeTakeFirst();
  if (!b || !b.phone_number || b.onboarding !== "COMPLETE" || b.status === "DISABLED" || b.status === "SUSPENDED") return undefined;
  return b;
}

/**
 * Starts the double opt-in from the web form. The answer never tells whether the number was already a member
 * (the page always says "check your phone"). Rate limited per address and per number; a number that objected is
 * sent at most one request a day, and only its own YES subscribes it.
 */
export async function webJoin(db: Db, input: { slug: string; phone: string; ip: string; now: Date }): Promise<"SENT" | "ALREADY" | "LIMITED"> {
  const business = await businessForJoin(db, input.slug);
  if (!business) throw new AppError("NF001", undefined, { status: 404 });
  const phone = parseUkMobile(input.phone.trim());
  if (!phone) throw new AppError("BR050", undefined, { field: "phone" });
  if (!(await withinRateLimit(db, `join:ip:${input.ip}`, 20, 3600, input.now)) || !(await withinRateLimit(db, `join:phone:${business.id}:${phone}`, 3, 3600, input.now))) {
    return "LIMITED";
  }
  return db.transaction().execute(async (trx) => {
    try {
      const { outcome } = await requestOptIn(
        trx,
        { business, phone, actor: "SELF", channel: "WEB", evidence: `web join form /join/${input.slug}` },
        input.now,
      );
      if (outcome === "ALREADY") return "ALREADY";
      if (outcome === "LIMITED") return "LIMITED";
      return "SENT";
    } catch (error) {
      // A number that objected and already had today's request: the page still says "check your phone".
      if (error instanceof AppError && error.code === "BR039") return "LIMITED";
      throw error;
    }
  });
}
