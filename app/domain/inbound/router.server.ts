// The inbound router: what a text from a phone means, decided by an ordered list of handlers. Each handler
// either claims the text (and says what kind it was) or passes it on to the next. The order is fixed here:
//
//   1. compliance: STOP (and objections as people write them), START, HELP. Always first; nothing can override it.
//   2. the join keyword: the double opt-in by text.
//   3. campaign handlers: live campaign keywords and open questions (registered by the campaign engine).
//   4. the first name a new member gives in answer to the welcome text.
//   5. the conversation: any other text from a member opens or re-activates their DM thread as unread.
//   6. anything left is from an unknown sender and is only stored.
//
// The router runs inside the inbound worker's claim transaction, once per text, on a batch whose businesses and
// members were loaded up front. A handler that needs more (campaign keywords, open questions) loads it once per
// batch in `preload`, so the cost per text stays flat however many handlers there are.
import type { Kysely } from "kysely";
import type { DB, Member } from "#db/types";
import { classifyCompliance, keywordTokens, type Classification } from "~/domain/consent/objection";
import type { ConsentBusiness } from "~/domain/consent/consent.server";

type Db = Kysely<DB>;

export type InboundKind = "STOP" | "START" | "HELP" | "JOIN" | "NAME" | "MESSAGE" | "CAMPAIGN" | "UNKNOWN_SENDER";

/** A claimed inbound text. */
export interface InboundText {
  id: number;
  business_id: number;
  from_number: string;
  body: string;
  received_at: string;
}

export interface RouterBusiness extends ConsentBusiness {
  join_keyword: string;
  help_message: string | null;
}

export interface RouteContext {
  trx: Db;
  now: Date;
  text: InboundText;
  business: RouterBusiness;
  /** The member with the sending number, if any; a handler that creates one sets it. */
  member: Member | undefined;
  /** The text as the compliance rules read it. */
  compliance: Classification;
  /** The text's words, normalised (upper case, accents and punctuation removed). */
  words: string[];
  /** What each handler's `preload` returned for this batch, by handler name. */
  preloaded: ReadonlyMap<string, unknown>;
  /** The pipeline's pauses and public address, for handlers that queue texts of their own (campaign replies). */
  pipeline: PipelineSettings;
}

export interface PipelineSettings {
  sendDelaySeconds: number;
  dmSendDelaySeconds?: number;
  publicUrl?: string;
}

export const DEFAULT_PIPELINE_SETTINGS: PipelineSettings = { sendDelaySeconds: 60, dmSendDelaySeconds: 5 };

export interface RouteResult {
  kind: InboundKind;
  memberId: number | null;
  /** A text the owner should look at: it may be an objection the rules could not be sure of. */
  flag?: "MAYBE_STOP" | null;
  /** The campaign the text was routed to, if any. */
  campaignId?: number | null;
}

export interface InboundHandler {
  name: string;
  /** Loads what the handler needs for a whole batch, once (for example the live keywords of its businesses). */
  preload?(trx: Db, texts: readonly InboundText[], businesses: ReadonlyMap<number, RouterBusiness>): Promise<unknown>;
  /** Claims the text and acts on it, or returns null to pass it on. */
  handle(ctx: RouteContext): Promise<RouteResult | null>;
}

export interface InboundRouter {
  /** The handlers in the order they are asked. */
  readonly handlers: readonly InboundHandler[];
  preload(trx: Db, texts: readonly InboundText[], businesses: ReadonlyMap<number, RouterBusiness>): Promise<Map<string, unknown>>;
  route(
    trx: Db,
    now: Date,
    text: InboundText,
    business: RouterBusiness,
    member: Member | undefined,
    preloaded: ReadonlyMap<string, unknown>,
    pipeline?: PipelineSettings,
  ): Promise<RouteResult>;
}

/**
 * Builds a router from the fixed stages. Campaign handlers go between the join keyword and the conversation;
 * compliance is always first whatever is passed.
 */
export function createRouter(stages: {
  compliance: InboundHandler;
  join: InboundHandler;
  campaigns: readonly InboundHandler[];
  name: InboundHandler;
  conversation: InboundHandler;
}): InboundRouter {
  const handlers = [stages.compliance, stages.join, ...stages.campaigns, stages.name, stages.conversation];
  return {
    handlers,
    async preload(trx, texts, businesses) {
      const out = new Map<string, unknown>();
      for (const h of handlers) if (h.preload) out.set(h.name, await h.preload(trx, texts, businesses));
      return out;
    },
    async route(trx, now, text, business, member, preloaded, pipeline = DEFAULT_PIPELINE_SETTINGS) {
      const ctx: RouteContext = { trx, now, text, business, member, compliance: classifyCompliance(text.body), words: keywordTokens(text.body), preloaded, pipeline };
      for (const h of handlers) {
        const result = await h.handle(ctx);
        if (result) return result;
      }
      return { kind: "UNKNOWN_SENDER", memberId: ctx.member?.id ?? null };
    },
  };
}
