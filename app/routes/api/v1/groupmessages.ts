// GET /api/v1/groupmessages: group messages, newest first. POST: create one, now or scheduled.
import { Created, v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { createApiGroupMessage, listApiGroupMessages } from "~/domain/public-api/messaging.server";

const handler = v1Route([
  v1(OPERATIONS.listGroupMessages, ({ deps, key, query }) =>
    listApiGroupMessages(deps.db, key.businessId, { contactGroupId: query.contactGroupId ? Number(query.contactGroupId) : undefined, page: query.page ? Number(query.page) : undefined }, deps.now()),
  ),
  v1(OPERATIONS.createGroupMessage, async ({ deps, key, body, idempotencyKey }) => {
    const message = await createApiGroupMessage(deps, {
      businessId: key.businessId,
      contactGroupId: body.contactGroupId,
      text: body.text,
      sendAt: body.sendAt ? new Date(body.sendAt) : null,
      idempotencyKey,
    });
    return new Created(message, `/api/v1/groupmessages/${message.id}`);
  }),
]);

export const loader = handler;
export const action = handler;
