// GET /api/account/messageallowance: the monthly allowance (0 on a trial) and trial days left.
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getPlan } from "~/domain/accounts/status.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, now } = getDeps(context);
    const plan = await getPlan(db, user.businessId, now());
    return { messageAllowance: plan.messageAllowance, daysLeftOfTrial: plan.daysLeftOfTrial };
  },
});

export const loader = handler;
export const action = handler;
