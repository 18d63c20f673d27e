// GET /api/campaigns: the business's campaigns, newest first (?kind=ONETIME|ONGOING, page, pageSize).
// POST /api/campaigns: create one from the campaign model's input (the spec's field names); a missing issueDate
// issues it now. An Idempotency-Key header makes a retried POST give back the campaign the first one created.
import { z } from "zod";
import { apiJson, apiHandler, parseQuery } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { createCampaign, listCampaigns } from "~/domain/campaigns/campaigns.server";
import { idempotencyKey, parseCampaignBody } from "./campaigns.shared.server";

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;

const whole = (max: number) =>
  z
    .string()
    .regex(/^[1-9][0-9]{0,5}$/)
    .transform(Number)
    .refine((n) => n <= max);

const listQuery = z.object({
  kind: z.enum(["ONETIME", "ONGOING"]).optional(),
  page: whole(100000).optional(),
  pageSize: whole(PAGE_SIZE_MAX).optional(),
});

const handler = apiHandler({
  GET: {
    permission: "campaigns:manage",
    handler: async ({ request, context, user }) => {
      const query = parseQuery(request, listQuery);
      const page = query.page ?? 1;
      const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
      const { db } = getDeps(context);
      const { items, total } = await listCampaigns(db, user.businessId, { kind: query.kind, page, pageSize });
      return { items, total, page, pageSize };
    },
  },
  POST: {
    permission: "campaigns:manage",
    handler: async ({ request, context, user }) => {
      const key = idempotencyKey(request);
      const input = await parseCampaignBody(request);
      const { db, now, config } = getDeps(context);
      const campaign = await createCampaign({ db, now, config }, { businessId: user.businessId, userId: user.userId, input, idempotencyKey: key });
      return apiJson(campaign, { status: 201, headers: { Location: `/api/campaigns/${campaign.id}` } });
    },
  },
});

export const loader = handler;
export const action = handler;
