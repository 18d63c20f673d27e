// GET /api/campaigns/{id}: the campaign with its results (responses, winners, the type's figures).
// DELETE /api/campaigns/{id}: delete it (BR042 while its group is in use). Another business's id is 404 NF001.
import { apiError, apiHandler } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { campaignResults, deleteCampaign } from "~/domain/campaigns/campaigns.server";
import { campaignDetail, campaignIdParam } from "./campaigns.shared.server";

/** Replies listed in the detail answer (the newest); the totals always count them all. */
const REPLY_LIMIT = 50;

const handler = apiHandler({
  GET: {
    permission: "campaigns:manage",
    handler: async ({ params, context, user }) => {
      const id = campaignIdParam(params.id);
      const { db, now } = getDeps(context);
      const results = await campaignResults(db, user.businessId, id, now(), { replyLimit: REPLY_LIMIT });
      if (!results) throw apiError("NF001", null, 404);
      return campaignDetail(results);
    },
  },
  DELETE: {
    permission: "campaigns:manage",
    handler: async ({ params, context, user }) => {
      const id = campaignIdParam(params.id);
      const { db, now, config } = getDeps(context);
      await deleteCampaign({ db, now, config }, { businessId: user.businessId, campaignId: id });
      return null;
    },
  },
});

export const loader = handler;
export const action = handler;
