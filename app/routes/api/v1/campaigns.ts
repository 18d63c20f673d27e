// GET /api/v1/campaigns: the business's campaigns with their headline figures.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { listCampaigns } from "~/domain/campaigns/campaigns.server";

const handler = v1Route([
  v1(OPERATIONS.listCampaigns, async ({ deps, key, query }) => {
    const page = query.page ? Number(query.page) : 1;
    const pageSize = query.pageSize ? Number(query.pageSize) : 20;
    const { items, total } = await listCampaigns(deps.db, key.businessId, { kind: query.kind, page, pageSize });
    return { items, total, page, pageSize };
  }),
]);

export const loader = handler;
export const action = handler;
