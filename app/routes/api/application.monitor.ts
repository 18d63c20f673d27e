// GET /api/application/monitor: the analytics identifiers the browser loads (gaId, metaPixelId,
// rumScript), from configuration. Signed-in callers only, like every other /api/ call.
import { apiHandler, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    await requireApiUser(request, context);
    const { monitor } = getDeps(context).config;
    return { gaId: monitor.gaId, metaPixelId: monitor.metaPixelId, rumScript: { ...monitor.rumScript } };
  },
});

export const loader = handler;
export const action = handler;
