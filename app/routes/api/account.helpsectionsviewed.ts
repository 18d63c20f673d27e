// POST /api/account/helpsectionsviewed {helpSectionViewed}: records a help section as seen
// (the quick-start tile hides once "quickStart" is recorded). Answers 204.
import { z } from "zod";
import { apiHandler, parseJsonBody, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { markHelpSectionViewed } from "~/domain/accounts/status.server";

const schema = z.object({ helpSectionViewed: z.string().regex(/^[A-Za-z0-9]{1,40}$/) });

const handler = apiHandler({
  POST: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const body = await parseJsonBody(request, schema);
    const { db, now } = getDeps(context);
    await markHelpSectionViewed(db, user.userId, body.helpSectionViewed, now());
    return null;
  },
});

export const loader = handler;
export const action = handler;
