// The campaign model shared by the server, the pages (browser validation) and the JSON API: the type names (the
// feed item types of the spec), kinds and statuses, the input every campaign is created from (the spec's field
// names), and what a campaign looks like when read back. Browser-safe: no server imports.
import { z } from "zod";
import { analyse } from "~/domain/messaging/segments";

/** The campaign types built so far (each is a module in ./types, registered in ./registry.server.ts). */
export const CAMPAIGN_TYPES = ["BOUNCEBACK", "ONEQUESTION", "POLL", "INVITATION", "PICKWINNERS", "BIRTHDAYGREETING", "REMINDER", "POSTREGISTRATION", "CUSTOMEREXP", "CHECKIN"] as const;
export type CampaignTypeName = (typeof CAMPAIGN_TYPES)[number];

export function isCampaignType(value: unknown): value is CampaignTypeName {
  return typeof value === "string" && (CAMPAIGN_TYPES as readonly string[]).includes(value);
}

/** The page that creates and edits each type (spec section 2). */
export const TYPE_PATHS: Readonly<Record<CampaignTypeName, string>> = {
  BOUNCEBACK: "/bounceback",
  ONEQUESTION: "/onequestion",
  POLL: "/quickpoll",
  INVITATION: "/invitation",
  PICKWINNERS: "/pickwinners",
  BIRTHDAYGREETING: "/birthday",
  REMINDER: "/reminder",
  POSTREGISTRATION: "/postregistration",
  CUSTOMEREXP: "/customerexp",
  CHECKIN: "/checkin",
};

export type CampaignKind = "ONETIME" | "ONGOING";

/** The kind of each type: an auto responder runs until it is ended; the others happen once. */
export const TYPE_KINDS: Readonly<Record<CampaignTypeName, CampaignKind>> = {
  BOUNCEBACK: "ONGOING",
  ONEQUESTION: "ONETIME",
  POLL: "ONETIME",
  INVITATION: "ONETIME",
  PICKWINNERS: "ONETIME",
  BIRTHDAYGREETING: "ONGOING",
  REMINDER: "ONGOING",
  POSTREGISTRATION: "ONGOING",
  CUSTOMEREXP: "ONGOING",
  CHECKIN: "ONGOING",
};

/**
 * SCHEDULED: waiting for its issue time. LIVE: issued, taking replies until its close date (a draw: awaiting the
 * draw). ONGOING: an ongoing campaign running. SUSPENDED: the business is suspended. FAILED: could not run
 * (errorMessage says why). ENDED: closed, ended by the owner, or drawn.
 */
export const CAMPAIGN_STATUSES = ["FAILED", "SUSPENDED", "SCHEDULED", "LIVE", "ONGOING", "ENDED"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Why a campaign could not run (spec section 8), shown translated in the list, the results page and the feed. */
export const FAILURE_CODES = [
  "SURVEYERROR_COMPANY_DISABLED",
  "SURVEYERROR_COMPANY_SUSPENDED",
  "SURVEYERROR_SG_SHORT",
  "SURVEYERROR_FAILED_PROCESSING",
  "SURVEYERROR_CLOSEDATE_PASSED",
  "SURVEYERROR_CONTACTS_LESS_CYCLIC",
  "SURVEYERROR_PROCESSING_FAILED",
  "SURVEYERROR_NOTAPPROVED",
  "SURVEYERROR_APPSERVER_FAILURE",
  "SURVEYERROR_OUTOFCREDIT_FAILURE",
] as const;
export type FailureCode = (typeof FAILURE_CODES)[number];

/** Words a campaign keyword can never be: the compliance words and the replies campaigns themselves expect. */
export const RESERVED_KEYWORDS = [
  "STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "OPTOUT", "REVOKE", "ARRET", "ARRÊT",
  "START", "UNSTOP", "YES", "NO", "HELP", "INFO", "AIDE", "OUI", "NON",
] as const;

export const KEYWORD_MAX = 20;
export const NAME_MAX = 40;
export const TEXT_MAX = 1600;
export const OPTION_MAX = 40;
export const MIN_OPTIONS = 2;
export const MAX_OPTIONS = 9;
export const MAX_WINNERS = 100;

/** A keyword as stored and matched: upper case, letters and digits only. */
export function normaliseKeyword(value: string): string {
  return value.normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim().toUpperCase();
}

const text = (max = TEXT_MAX) =>
  z
    .string({ error: "validation.required" })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .refine((v) => v.length > 0, "validation.required")
    .refine((v) => analyse(v).characters <= max, "campaigns.errors.tooLong");

const optionalText = (max = TEXT_MAX) =>
  z
    .string()
    .optional()
    .nullable()
    .transform((v) => (v ?? "").replace(/\r\n?/g, "\n").trim() || null)
    .refine((v) => v === null || analyse(v).characters <= max, "campaigns.errors.tooLong");

const keyword = z
  .string()
  .transform(normaliseKeyword)
  .refine((v) => /^[A-Z0-9]+$/.test(v), "campaigns.errors.keywordFormat")
  .refine((v) => v.length <= KEYWORD_MAX, "campaigns.errors.keywordFormat")
  .refine((v) => !(RESERVED_KEYWORDS as readonly string[]).includes(v), "errors.BR017");

const optionalKeyword = z
  .string()
  .optional()
  .nullable()
  .transform((v) => (v ?? "").trim() || null)
  .pipe(z.union([z.null(), keyword]));

/** An instant as ISO-8601 (the API), or null. Pages turn their UK date and time fields into this. */
const instant = z
  .string()
  .optional()
  .nullable()
  .transform((v, ctx) => {
    if (v === undefined || v === null || v === "") return null;
    const t = Date.parse(v);
    if (!Number.isFinite(t) || !/^\d{4}-\d{2}-\d{2}T/.test(v)) {
      ctx.addIssue({ code: "custom", message: "campaigns.errors.date" });
      return z.NEVER;
    }
    return new Date(t).toISOString();
  });

const option = z
  .string()
  .transform((v) => v.replace(/\s+/g, " ").trim())
  .refine((v) => v.length > 0, "validation.required")
  .refine((v) => v.length <= OPTION_MAX, "campaigns.errors.optionTooLong");

function distinct(options: string[]): boolean {
  const seen = new Set(options.map((o) => o.toLowerCase()));
  return seen.size === options.length;
}

const common = {
  name: z
    .string({ error: "validation.required" })
    .transform((v) => v.replace(/\s+/g, " ").trim())
    .refine((v) => v.length > 0, "validation.required")
    .refine((v) => v.length <= NAME_MAX, "validation.tooLongShort")
    .refine((v) => !/[<>\u0000-\u001F\u007F]/.test(v), "errors.BR022"),
  /** The group it goes to; -1 is every subscribed member. */
  contactGroupId: z.coerce.number({ error: "campaigns.errors.groupRequired" }).int("campaigns.errors.groupRequired"),
  /** When it is issued; null or missing means now. */
  issueDate: instant,
};

export const bouncebackInput = z.object({
  type: z.literal("BOUNCEBACK"),
  name: common.name,
  keyword,
  messageText: text(),
  issueDate: instant,
  closeDate: instant,
});

export const oneQuestionInput = z.object({
  type: z.literal("ONEQUESTION"),
  ...common,
  keyword: optionalKeyword,
  messageText: text(),
  thankYouText: optionalText(),
  closeDate: instant.refine((v) => v !== null, "campaigns.errors.closeRequired"),
  /** A member attribute (its key) the answer is also written into. */
  attributeKey: z.string().max(60).optional().nullable().transform((v) => v || null),
});

export const pollInput = z.object({
  type: z.literal("POLL"),
  ...common,
  keyword: optionalKeyword,
  messageText: text(),
  thankYouText: optionalText(),
  closeDate: instant.refine((v) => v !== null, "campaigns.errors.closeRequired"),
  responseOptions: z
    .array(option)
    .min(MIN_OPTIONS, "campaigns.errors.optionsCount")
    .max(MAX_OPTIONS, "campaigns.errors.optionsCount")
    .refine(distinct, "campaigns.errors.optionsDiffer"),
});

export const invitationInput = z.object({
  type: z.literal("INVITATION"),
  ...common,
  keyword: optionalKeyword,
  messageText: text(),
  /** The accept and decline replies (YES and NO unless the owner chooses others); they must differ. */
  responseOptions: z
    .array(option)
    .length(2, "campaigns.errors.rsvpOptions")
    .refine(distinct, "campaigns.errors.optionsDiffer")
    .default(["YES", "NO"]),
  acceptText: text(),
  declineText: text(),
  closeDate: instant.refine((v) => v !== null, "campaigns.errors.closeRequired"),
  /** Places available (people, party sizes counted); null for no limit. Past it, acceptances join a waitlist. */
  capacity: z.coerce.number().int("campaigns.errors.capacity").min(1, "campaigns.errors.capacity").max(100000, "campaigns.errors.capacity").optional().nullable().transform((v) => v ?? null),
  /** Accept "YES 3" for a party of three. */
  allowPartySize: z.boolean().default(false),
  /** When the event is; with remindDayBefore, those who accepted get a reminder the day before. */
  eventDate: instant,
  remindDayBefore: z.boolean().default(false),
  reminderText: optionalText(),
});

export const pickWinnersInput = z.object({
  type: z.literal("PICKWINNERS"),
  name: common.name,
  /** Who can win: the members of a group, or the members who text the entry keyword before the draw. */
  entrySource: z.enum(["GROUP", "KEYWORD"]).default("GROUP"),
  contactGroupId: z.coerce.number().int().optional().nullable().transform((v) => v ?? null),
  keyword: optionalKeyword,
  /** The reply to an entry by keyword. */
  thankYouText: optionalText(),
  numberWinnersToPick: z.coerce
    .number({ error: "campaigns.errors.winners" })
    .int("campaigns.errors.winners")
    .min(1, "campaigns.errors.winners")
    .max(MAX_WINNERS, "campaigns.errors.winners"),
  /** When entries open (keyword entries); null means now. */
  issueDate: instant,
  /** The draw date. */
  closeDate: instant.refine((v) => v !== null, "campaigns.errors.drawRequired"),
  /** Leave out members who won a draw of this business in the last N days (0: nobody is left out). */
  excludeWinnersDays: z.coerce.number().int().min(0, "campaigns.errors.excludeDays").max(3650, "campaigns.errors.excludeDays").default(0),
  /** A text to the winners once drawn; none when empty. */
  messageText: optionalText(),
  /** The owner confirmed drawing from a group that has no members today (spec section 5). */
  confirmEmptyGroup: z.boolean().default(false),
});

/** A time of day in UK time, "HH:MM". */
const sendTime = z
  .string({ error: "campaigns.errors.sendTime" })
  .trim()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "campaigns.errors.sendTime");

/** Birthday greeting: on each member's birthday, every year, at the chosen time (one per business). */
export const birthdayInput = z.object({
  type: z.literal("BIRTHDAYGREETING"),
  name: common.name,
  messageText: text(),
  contactGroupId: common.contactGroupId.optional().transform((v) => v ?? -1),
  sendTime: sendTime.default("10:00"),
  issueDate: instant,
  closeDate: instant,
});

/** Reminder: a date (or date and time) attribute, 1 or 2 days before it, at the chosen time. */
export const reminderInput = z.object({
  type: z.literal("REMINDER"),
  name: common.name,
  messageText: text(),
  contactGroupId: common.contactGroupId.optional().transform((v) => v ?? -1),
  /** "appointment" (the member's appointment date and time) or the key of a custom date attribute. */
  dateAttribute: z
    .string({ error: "campaigns.errors.dateAttribute" })
    .trim()
    .min(1, "campaigns.errors.dateAttribute")
    .max(60, "campaigns.errors.dateAttribute"),
  daysBefore: z.coerce.number({ error: "campaigns.errors.daysBefore" }).int("campaigns.errors.daysBefore").refine((v) => v === 1 || v === 2, "campaigns.errors.daysBefore"),
  sendTime: sendTime.default("10:00"),
  issueDate: instant,
  closeDate: instant,
});

/** Post-registration follow-up: a text a chosen time after a member joins. */
export const postRegistrationInput = z.object({
  type: z.literal("POSTREGISTRATION"),
  name: common.name,
  messageText: text(),
  contactGroupId: common.contactGroupId.optional().transform((v) => v ?? -1),
  duration: z.coerce.number({ error: "campaigns.errors.duration" }).int("campaigns.errors.duration").min(1, "campaigns.errors.duration").max(100, "campaigns.errors.duration"),
  durationUnit: z.enum(["HOURS", "DAYS"], { error: "campaigns.errors.durationUnit" }).default("DAYS"),
  /** Also those who joined in the last N days (0: only members who join from now on). */
  includeJoinedWithinDays: z.coerce.number().int().min(0, "campaigns.errors.duration").max(100, "campaigns.errors.duration").default(0),
  issueDate: instant,
  closeDate: instant,
});

/**
 * Customer experience (a 0 to 10 score survey): started by its keyword (a text or the QR code) or sent to a group.
 * The second question and the thank-you differ for scores 0 to 6 and 7 to 10.
 */
export const customerExpInput = z.object({
  type: z.literal("CUSTOMEREXP"),
  name: common.name,
  keyword,
  introText: text(),
  scoreQuestionText: text(),
  detractorQuestionText: text(),
  promoterQuestionText: text(),
  detractorThankYouText: text(),
  promoterThankYouText: text(),
  /** A review page a promoter (9 or 10) is offered in their thank-you, if set. */
  reviewLink: z
    .string()
    .trim()
    .max(500, "campaigns.errors.reviewLink")
    .optional()
    .nullable()
    .transform((v) => v || null)
    .refine((v) => v === null || /^https:\/\/[^\s]+$/.test(v), "campaigns.errors.reviewLink"),
  contactGroupId: z.coerce.number().int().optional().nullable().transform((v) => v ?? null),
  issueDate: instant,
  closeDate: instant,
});

/** Venue check-in: people text the keyword (or scan the QR code) and get a personal check-out link. */
export const checkinInput = z.object({
  type: z.literal("CHECKIN"),
  name: common.name,
  keyword,
  /** The check-in reply; the check-out link is added to it. */
  messageText: text(),
  /** Checked out by themselves after this many hours, if set. */
  autoCheckoutHours: z.coerce.number().int().min(1, "campaigns.errors.autoCheckout").max(72, "campaigns.errors.autoCheckout").optional().nullable().transform((v) => v ?? null),
  issueDate: instant,
  closeDate: instant,
});

/** Every campaign's input, told apart by `type`. */
export const campaignInput = z.discriminatedUnion("type", [
  bouncebackInput,
  oneQuestionInput,
  pollInput,
  invitationInput,
  pickWinnersInput,
  birthdayInput,
  reminderInput,
  postRegistrationInput,
  customerExpInput,
  checkinInput,
]);
export type CampaignInput = z.output<typeof campaignInput>;
export type CampaignInputOf<T extends CampaignTypeName> = Extract<CampaignInput, { type: T }>;

/** One line of results: an answer and how many gave it. */
export interface ResponseTotal {
  response: string;
  total: number;
}

/** A campaign as read back (the spec's field names; fields a type does not use are absent). */
export interface CampaignView {
  id: number;
  type: CampaignTypeName;
  kind: CampaignKind;
  name: string;
  status: CampaignStatus;
  /** The SURVEYERROR_* reason when FAILED. */
  errorMessage: string | null;
  keyword: string | null;
  messageText: string | null;
  thankYouText: string | null;
  contactGroupId: number | null;
  contactGroupName: string | null;
  issueDate: string | null;
  closeDate: string | null;
  /** The type's own settings (responseOptions, acceptText, capacity, numberWinnersToPick…), spec names. */
  settings: Record<string, unknown>;
  /** Members the campaign's texts went to. */
  totalSent: number;
  /** Replies (members who answered) or keyword texts received. */
  totalReceived: number;
  responses: ResponseTotal[];
  /** Once anything was sent it can no longer be edited (BR028). */
  editable: boolean;
  createdAt: string;
  createdByName: string | null;
  updatedAt: string;
}
