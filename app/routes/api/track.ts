// POST /api/track {action}: records a usage event against the caller's business. Answers 204
// (the app does not read the answer and ignores failures).
import { z } from "zod";
import { apiHandler, parseJsonBody, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { isTrackAction, recordTrackEvent } from "~/domain/tracking/track.server";

const schema = z.object({ action: z.string().refine(isTrackAction) });

const handler = apiHandler({
  POST: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const body = await parseJsonBody(request, schema);
    const { db, now } = getDeps(context);
    await recordTrackEvent(db, user, body.action, now());
    return null;
  },
});

export const loader = handler;
export const action = handler;
