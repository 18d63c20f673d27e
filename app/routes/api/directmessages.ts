// GET /api/directmessages?filter=UNREAD: unread message summaries {fullName, phoneNumber,
// issueDate, messageText}. UNREAD is the only filter the app uses; anything else is a 400 BR025.
import { z } from "zod";
import { apiHandler, parseQuery } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getUnreadMessages } from "~/domain/messaging/unread.server";

const schema = z.object({ filter: z.literal("UNREAD") });

const handler = apiHandler({
  GET: {
    permission: "messages:reply",
    handler: async ({ request, context, user }) => {
      parseQuery(request, schema);
      const { db, now } = getDeps(context);
      return getUnreadMessages(db, user.businessId, now());
    },
  },
});

export const loader = handler;
export const action = handler;
