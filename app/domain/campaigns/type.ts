// The one interface every campaign type implements. The engine owns storage, scheduling, sending, the reply router
// and the totals; a type module only says what is particular to it.
import type { Member } from "#db/types";
import type { CampaignInput, CampaignKind, CampaignTypeName } from "./model";
import type { Db, EngineCtx, LoadedCampaign, PreviousAnswer } from "./kit.server";

/** A reply understood as an answer: `key` is what it counts as (an option, ACCEPT…); `label` what people read. */
export interface ParsedAnswer {
  key: string;
  label: string;
  partySize?: number;
}

/** An inbound text as a campaign sees it. */
export interface CampaignText {
  inboundId: number;
  phone: string;
  body: string;
  receivedAt: string;
}

export interface CampaignType<T extends CampaignTypeName = CampaignTypeName> {
  type: T;
  kind: CampaignKind;
  /** Whether the campaign has a keyword members text: none, required, or the owner's choice. */
  keyword: "none" | "required" | "optional";
  /** The type's own settings, stored as JSON, from its input. */
  settingsOf(input: Extract<CampaignInput, { type: T }>): Record<string, unknown>;
  /** Checks against the database beyond the input schema (an attribute that must exist…): throws AppError. */
  check?(trx: Db, businessId: number, input: Extract<CampaignInput, { type: T }>, now: Date): Promise<void>;
  /** The text sent to the campaign's group when it is issued, or null when the type sends nothing then. */
  issueText(c: LoadedCampaign, locale: string): string | null;
  /** Every recipient of the issue text is then waiting to answer (one question, poll, invitation). */
  asks: boolean;
  /** After an answer the question stays open until the close date, a later answer replacing the earlier one. */
  reanswer: boolean;
  /** Steps of its own to plan besides issue and close (an invitation's reminder, a draw). */
  extraSteps?(c: LoadedCampaign): { step: string; fireAt: string }[];
  /** Runs one of its own steps (inside the fire's transaction). */
  runStep?(ctx: EngineCtx, c: LoadedCampaign, step: string): Promise<void>;
  /** The question a member is asked when they text the keyword alone (the issue text when missing). */
  askText?(c: LoadedCampaign, locale: string): string | null;
  /** The step a new question waits on ("answer" when missing); a survey moves on to further steps. */
  firstStep?: string;
  /** A reply to the question the member is waiting on (`step`), read as an answer, or null when it fits none. */
  parseAnswer?(c: LoadedCampaign, body: string, step: string): ParsedAnswer | null;
  /** The one help text for a reply that fits no answer. */
  helpText?(c: LoadedCampaign, locale: string, step: string): string;
  /**
   * Called once the answer is stored and counted: may move it (an acceptance onto a waitlist), and sends the
   * thank-you or whatever the type says. `previous` is the answer it replaced.
   */
  afterAnswer?(
    ctx: EngineCtx,
    c: LoadedCampaign,
    member: Member,
    responseId: number,
    answer: ParsedAnswer,
    previous: PreviousAnswer | null,
    step: string,
  ): Promise<void | { nextStep: string }>;
  /** A text whose first word is the campaign's keyword (`rest` is what follows it). True when handled. */
  onKeyword?(ctx: EngineCtx, c: LoadedCampaign, member: Member | undefined, text: CampaignText, rest: string): Promise<boolean>;
  /** How an answer key reads in results (an option's own words). */
  labels?(c: LoadedCampaign): string[];
  /**
   * Date-driven types (birthday, reminder, follow-up): the member's next send strictly after `after`, or null when
   * they have none. `occurrence` names it (a year, an appointment, a join), so a moved date plans a new send and
   * the old one is cancelled.
   */
  planMember?(c: LoadedCampaign, m: MemberDates, after: Date): { occurrence: string; fireAt: string } | null;
  /** A date-driven send found later than this after its time (a worker was down) is skipped as too late. */
  lateAfterMs?: number;
}

/** What a date-driven type reads of a member. */
export interface MemberDates {
  id: number;
  joinedAt: string | null;
  /** "MM-DD". */
  birthday: string | null;
  appointmentAt: string | null;
  /** The chosen custom date attribute's value ("YYYY-MM-DD"), when the type reads one. */
  dateValue: string | null;
}
