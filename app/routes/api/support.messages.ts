// GET /api/support/messages?limit=1: {messages: [{text, sender, createdAt}]}, newest first, of
// the caller's open support session (limit 1 to 50, default 1; none when no session is open).
import { z } from "zod";
import { apiHandler, parseQuery, requireApiUser } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { getSupportMessages, SUPPORT_MESSAGES_LIMIT_MAX } from "~/domain/support/support.server";

const schema = z.object({
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/)
    .transform(Number)
    .refine((n) => n >= 1 && n <= SUPPORT_MESSAGES_LIMIT_MAX)
    .optional(),
});

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    const query = parseQuery(request, schema);
    const { db } = getDeps(context);
    return { messages: await getSupportMessages(db, user, query.limit ?? 1) };
  },
});

export const loader = handler;
export const action = handler;
