// POST /api/campaigns/{id}/end: end a campaign now (it takes no more replies; a draw not yet made is not made).
// Answers the campaign as it now stands. Another business's id is 404 NF001.
import { apiHandler } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { endCampaign } from "~/domain/campaigns/campaigns.server";
import { campaignIdParam } from "./campaigns.shared.server";

const handler = apiHandler({
  POST: {
    permission: "campaigns:manage",
    handler: async ({ params, context, user }) => {
      const id = campaignIdParam(params.id);
      const { db, now, config } = getDeps(context);
      return endCampaign({ db, now, config }, { businessId: user.businessId, campaignId: id, actorId: user.userId });
    },
  },
});

export const loader = handler;
export const action = handler;
