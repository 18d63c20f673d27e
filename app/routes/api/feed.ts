// GET /api/feed: the signed-in business's feed items, as the home screen shows them.
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getFeed } from "~/domain/feed/feed.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const { db, now } = getDeps(context);
    return getFeed(db, user, now());
  },
});

export const loader = handler;
export const action = handler;
