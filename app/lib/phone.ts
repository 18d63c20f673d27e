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
  if (!parsed || parsed.countryCallingCode !== "44") return null;
  // libphonenumber's metadata lists the blocks it knows to be allocated, and lags behind Ofcom: an ordinary
  // number such as 07911 578481 is "invalid" to it. Any number in the UK mobile plan is taken.
  if (!parsed.isValid() && !UK_MOBILE_PLAN.test(parsed.nationalNumber)) return null;
  return parsed.number;
}

/**
 * The UK mobile plan after the leading 0: 071-075 and 077-079 with eight more digits, and the Isle of Man's 07624
 * (076 is otherwise pagers). Ofcom's drama range, 07700 900000-900999, is never a person's phone.
 */
const UK_MOBILE_PLAN = /^(?!7700900)7(?:[1-57-9][0-9]{8}|624[0-9]{6})$/;

/** 07700 900123 style for display. */
/** Parsing is the slow part of showing a number (lists show many, pages show some on every render): remembered. */
const formatted = new Map<string, string>();

export function formatUkNumber(e164: string): string {
  let shown = formatted.get(e164);
  if (shown === undefined) {
    const parsed = parsePhoneNumberFromString(e164, "GB");
    shown = parsed ? parsed.formatNational() : e164;
    if (formatted.size >= 5000) formatted.clear();
    formatted.set(e164, shown);
  }
  return shown;
}
