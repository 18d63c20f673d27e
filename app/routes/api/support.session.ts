// GET /api/support/session: {chatSessionId}, the caller's open support chat (started if none). When the
// support service fails the answer is 500 SE001, logged as the support channel being unavailable (§7).
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { getOrCreateSupportSession } from "~/domain/support/support.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, now } = getDeps(context);
    try {
      return { chatSessionId: await getOrCreateSupportSession(db, user, now()) };
    } catch (error) {
      if (error instanceof AppError) throw error;
      console.error("[support] the support channel is unavailable:", error instanceof Error ? error.message : error);
      throw new AppError("SE001");
    }
  },
});

export const loader = handler;
export const action = handler;
