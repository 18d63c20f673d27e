// The inbound router as the worker uses it: the one place where the handlers are put in order. Campaign
// handlers (live campaign keywords, answers to open questions) are registered in `campaigns` below.
import { complianceHandler, conversationHandler, joinHandler, nameHandler } from "./handlers.server";
import { createRouter } from "./router.server";
import { campaignAnswerHandler, campaignKeywordHandler } from "~/domain/campaigns/replies.server";

// A live campaign's keyword first, then an answer to the member's most recent open question.
const campaignHandlers = [campaignKeywordHandler, campaignAnswerHandler];

export const inboundRouter = createRouter({
  compliance: complianceHandler,
  join: joinHandler,
  campaigns: campaignHandlers,
  name: nameHandler,
  conversation: conversationHandler,
});

export type { InboundKind, InboundText, PipelineSettings, RouteResult, RouterBusiness } from "./router.server";
