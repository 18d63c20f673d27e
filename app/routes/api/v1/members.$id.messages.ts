// GET /api/v1/members/{id}/messages: the member's conversation. POST: send them a direct message.
import { Created, v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { getApiConversation, sendApiDirectMessage } from "~/domain/public-api/messaging.server";

const handler = v1Route([
  v1(OPERATIONS.getConversation, ({ deps, key, params, query }) =>
    getApiConversation(deps.db, key.businessId, Number(params.id), { before: query.before, limit: query.limit ? Number(query.limit) : undefined }, deps.now()),
  ),
  v1(OPERATIONS.sendMessage, async ({ deps, key, params, body, idempotencyKey }) => {
    const { duplicate: _duplicate, ...sent } = await sendApiDirectMessage(deps, { businessId: key.businessId, memberId: Number(params.id), text: body.text, idempotencyKey });
    return new Created(sent, `/api/v1/members/${sent.memberId}/messages`);
  }),
]);

export const loader = handler;
export const action = handler;
