// The inbound router as the worker uses it: the one place where the handlers are put in order. Campaign
// handlers (live campaign keywords, answers to open questions) are registered in `campaigns` below.
import { complianceHandler, conversationHandler, joinHandler, nameHandler } from "./handlers.server";
import { createRouter, type InboundHandler } from "./router.server";

const campaignHandlers: InboundHandler[] = [];

export const inboundRouter = createRouter({
  compliance: complianceHandler,
  join: joinHandler,
  campaigns: campaignHandlers,
  name: nameHandler,
  conversation: conversationHandler,
});

export type { InboundKind, InboundText, RouteResult, RouterBusiness } from "./router.server";
