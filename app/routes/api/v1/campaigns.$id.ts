// GET /api/v1/campaigns/{id}: a campaign's results, in the same shape as GET /api/campaigns/{id}.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { AppError } from "~/lib/errors";
import { campaignResults } from "~/domain/campaigns/campaigns.server";
import { campaignDetail } from "../campaigns.shared.server";

const handler = v1Route([
  v1(OPERATIONS.getCampaign, async ({ deps, key, params }) => {
    const results = await campaignResults(deps.db, key.businessId, Number(params.id), deps.now(), { replyLimit: 50 });
    if (!results) throw new AppError("NF001", undefined, { status: 404 });
    return campaignDetail(results);
  }),
]);

export const loader = handler;
export const action = handler;
