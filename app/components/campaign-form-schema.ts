// The campaign pages' form schema: the model's input schema for the type (the same rules in the browser and on
// the server), fed from the fields a person fills in. A form has UK date and time fields where the model takes
// ISO instants, a "now or later" choice for the issue time, and nine poll option inputs of which the blank ones
// are ignored; this module turns the posted form into the model's input before the model's schema checks it, so
// every error lands on the field that caused it (a bad date on its date input, a duplicate option on the list).
import { z } from "zod";
import {
  birthdayInput,
  bouncebackInput,
  checkinInput,
  customerExpInput,
  invitationInput,
  postRegistrationInput,
  reminderInput,
  oneQuestionInput,
  pickWinnersInput,
  pollInput,
  type CampaignInputOf,
  type CampaignTypeName,
} from "~/domain/campaigns/model";
import { ukDateTimeToUtc, utcToUkDateTime } from "~/lib/uk-time";

const INPUTS = {
  BOUNCEBACK: bouncebackInput,
  ONEQUESTION: oneQuestionInput,
  POLL: pollInput,
  INVITATION: invitationInput,
  PICKWINNERS: pickWinnersInput,
  BIRTHDAYGREETING: birthdayInput,
  REMINDER: reminderInput,
  POSTREGISTRATION: postRegistrationInput,
  CUSTOMEREXP: customerExpInput,
  CHECKIN: checkinInput,
} as const satisfies Record<CampaignTypeName, z.ZodType>;

/** The form's date pairs: the date input carries the model's field name; beside it, its time input. */
const DATE_FIELDS = [
  ["issueDate", "issueTime"],
  ["closeDate", "closeTime"],
  ["eventDate", "eventTime"],
] as const;

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

/** A UK date and time as an ISO instant; "" for none; "invalid" (refused by the model) for a half-filled or unreal one. */
function instant(date: unknown, time: unknown): string {
  const d = text(date);
  const t = text(time);
  if (!d && !t) return "";
  const at = ukDateTimeToUtc(d, t);
  return at ? at.toISOString() : "invalid";
}

/** The posted form (strings, as conform parses it) as the model's input for `type`. */
export function formToInput(type: CampaignTypeName, raw: unknown): unknown {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return raw;
  const v: Record<string, unknown> = { ...(raw as Record<string, unknown>), type };
  for (const [date, time] of DATE_FIELDS) {
    v[date] = instant(v[date], v[time]);
    delete v[time];
  }
  // "Now" sends at once whatever the date fields still hold; "later" needs a date.
  if (v.issueMode !== "LATER") v.issueDate = "";
  else if (v.issueDate === "") v.issueDate = "invalid";
  delete v.issueMode;
  // "Nobody" (a survey started only by its keyword or QR code) and empty number fields are left out.
  for (const key of ["contactGroupId", "capacity", "autoCheckoutHours"]) if (v[key] === "") delete v[key];
  if (type === "CUSTOMEREXP" && v.contactGroupId === "0") delete v.contactGroupId;
  if (Array.isArray(v.responseOptions)) {
    const given = v.responseOptions.filter((o) => typeof o !== "string" || o.trim() !== "");
    // An invitation with both reply words cleared goes back to YES and NO.
    v.responseOptions = type === "INVITATION" && given.length === 0 ? undefined : given;
  }
  return v;
}

const schemas = new Map<CampaignTypeName, z.ZodType>();

/** The schema a campaign page's form is checked with (browser and server). */
export function campaignFormSchema<T extends CampaignTypeName>(type: T): z.ZodType<CampaignInputOf<T>> {
  let schema = schemas.get(type);
  if (!schema) {
    schema = z.preprocess((raw) => formToInput(type, raw), INPUTS[type]);
    schemas.set(type, schema);
  }
  return schema as z.ZodType<CampaignInputOf<T>>;
}

/** An ISO instant as the form's UK date and time values ("" and "" for none). */
export function isoToFormDateTime(iso: string | null | undefined): { date: string; time: string } {
  if (!iso) return { date: "", time: "" };
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return { date: "", time: "" };
  return utcToUkDateTime(at);
}

/**
 * The poll options as the inputs show them: the values given first (in order, so they line up with the errors the
 * schema reports for the list without its blanks), then blank inputs up to `slots`.
 */
export function optionSlots(values: unknown, slots: number): string[] {
  const list = (Array.isArray(values) ? values : typeof values === "string" ? [values] : []).map((o) => (typeof o === "string" ? o : ""));
  const given = list.filter((o) => o.trim() !== "");
  return [...given, ...Array.from({ length: Math.max(0, slots - given.length) }, () => "")];
}
