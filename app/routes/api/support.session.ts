// GET /api/support/session: {chatSessionId}, the caller's open support chat (started if none).
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getOrCreateSupportSession } from "~/domain/support/support.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, now } = getDeps(context);
    return { chatSessionId: await getOrCreateSupportSession(db, user, now()) };
  },
});

export const loader = handler;
export const action = handler;
