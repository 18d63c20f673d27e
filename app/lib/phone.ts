// UK mobile numbers for people (owners, members): libphonenumber-js with mobile-only metadata, GB only.
import { parsePhoneNumberFromString } from "libphonenumber-js/mobile";

/** Only digits, plus, parentheses, hyphen and white space may be typed. */
export const PHONE_CHARS = /^[0-9+()\-\s]*$/;
export const PHONE_MAX_LENGTH = 25;

/** E.164 form of a valid UK mobile, or null. */
export function parseUkMobile(input: string): string | null {
  if (!input || input.length > PHONE_MAX_LENGTH || !PHONE_CHARS.test(input)) return null;
  const digits = input.replace(/\D/g, "");
  if (digits.length < 2 || digits.length > 17) return null;
  const parsed = parsePhoneNumberFromString(input, "GB");
  // +44 numbers only; Crown Dependency mobiles (GG, JE, IM) share the UK numbering plan.
  if (!parsed || parsed.countryCallingCode !== "44" || !parsed.isValid()) return null;
  return parsed.number;
}

/** 07700 900123 style for display. */
export function formatUkNumber(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164, "GB");
  return parsed ? parsed.formatNational() : e164;
}
