// GET /api/stats?type=…: {total} for one statistic. UNREADMESSAGESSUBSCRIBERTOTAL and
// CONTACTCAMPAIGNINTERACTIONTOTAL need contactId; CONTACTGROUPPENDINGMESSAGESTOTAL takes an optional
// contactGroupId (-1 is the all-subscribers group). Anything else is a 400 BR025; a contactId
// that is not one of the caller's members is 404 NF001 (never another business's figures).
import { z } from "zod";
import { apiError, apiHandler, badRequest, parseQuery, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getMember } from "~/domain/members/core.server";
import { getStat, isStatType, STAT_TYPES } from "~/domain/stats/stats.server";

const positiveId = z.string().regex(/^[1-9][0-9]{0,14}$/).transform(Number);
const schema = z.object({
  type: z.enum(STAT_TYPES),
  contactId: positiveId.optional(),
  contactGroupId: z.union([z.literal("-1").transform(() => -1), positiveId]).optional(),
});

const NEEDS_CONTACT = new Set(["UNREADMESSAGESSUBSCRIBERTOTAL", "CONTACTCAMPAIGNINTERACTIONTOTAL"]);

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const query = parseQuery(request, schema);
    if (!isStatType(query.type)) throw badRequest(["type"]);
    if (NEEDS_CONTACT.has(query.type) && query.contactId === undefined) throw badRequest(["contactId"]);
    const { db, now } = getDeps(context);
    if (NEEDS_CONTACT.has(query.type) && !(await getMember(db, user.businessId, query.contactId!))) throw apiError("NF001", null, 404);
    const total = await getStat(db, user.businessId, query.type, { contactId: query.contactId, contactGroupId: query.contactGroupId }, now());
    return { total };
  },
});

export const loader = handler;
export const action = handler;
