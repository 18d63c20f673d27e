// GET /api/account/status: onboarding, acceptTermsAndConditions, helpSectionsViewed, locale, displayNotification.
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getAccountStatus } from "~/domain/accounts/status.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, now } = getDeps(context);
    return getAccountStatus(db, user, now());
  },
});

export const loader = handler;
export const action = handler;
