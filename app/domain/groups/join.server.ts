// §2 Join-us: how people join a business's texts. By text (the keyword to the number, also as a QR
// code that opens an SMS), or on the public web page /join/{referral code} with a phone field that
// starts the same double opt-in as texting the keyword: member PENDING, consent log OPT_IN_REQUESTED
// on channel WEB, the opt-in request text; the person replies YES to subscribe.
import type { Kysely } from "kysely";
import QRCode from "qrcode";
import type { DB, Member } from "#db/types";
import { findMemberByPhone, insertMember, logConsent, transitionMember } from "~/domain/members/core.server";
import { enqueueSystemText } from "~/domain/messaging/outbound.server";
import { withinRateLimit } from "~/domain/ratelimit.server";
import { AppError } from "~/lib/errors";
import { parseUkMobile } from "~/lib/phone";
import en from "~/locales/en-GB/pipeline.json";
import fr from "~/locales/fr/pipeline.json";

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
    .select(["id", "name", "phone_number", "join_keyword", "locale", "opt_in_message", "onboarding", "status"])
    .where("referral_code", "=", slug)
    .executeTakeFirst();
  if (!b || !b.phone_number || b.onboarding !== "COMPLETE" || b.status === "DISABLED" || b.status === "SUSPENDED") return undefined;
  return b;
}

/**
 * Starts the double opt-in from the web form. The answer never tells whether the number was already a
 * member (the page always says "check your phone"). Rate limited per address and per number.
 */
export async function webJoin(db: Db, input: { slug: string; phone: string; ip: string; now: Date }): Promise<"SENT" | "ALREADY" | "LIMITED"> {
  const business = await businessForJoin(db, input.slug);
  if (!business) throw new AppError("NF001", undefined, { status: 404 });
  const phone = parseUkMobile(input.phone.trim());
  if (!phone) throw new AppError("BR050", undefined, { field: "phone" });
  if (!(await withinRateLimit(db, `join:ip:${input.ip}`, 20, 3600, input.now)) || !(await withinRateLimit(db, `join:phone:${business.id}:${phone}`, 3, 3600, input.now))) {
    return "LIMITED";
  }
  const t = business.locale === "fr" ? fr.sms : en.sms;
  const optIn = business.opt_in_message?.trim() ? business.opt_in_message : t.optInRequest.replace(/\{\{\s*business\s*\}\}/g, business.name);
  return db.transaction().execute(async (trx) => {
    const base = { businessId: business.id, phone, channel: "WEB" as const, evidence: `web join form /join/${input.slug}`, now: input.now };
    let member: Member | undefined = await findMemberByPhone(trx, business.id, phone);
    if (member?.status === "SUBSCRIBED") return "ALREADY";
    if (!member) {
      member = await insertMember(trx, { businessId: business.id, phone, status: "PENDING", now: input.now });
      await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
    } else if (member.status !== "PENDING") {
      if (!(await transitionMember(trx, member, "PENDING", ["OPTED_OUT", "DELETED"], input.now))) return "ALREADY";
      await logConsent(trx, { ...base, memberId: member.id, action: "OPT_IN_REQUESTED" });
    }
    await enqueueSystemText(trx, { businessId: business.id, to: phone, body: optIn, memberId: member.id, now: input.now });
    return "SENT";
  });
}
