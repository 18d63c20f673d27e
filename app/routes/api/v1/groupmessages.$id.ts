// GET /api/v1/groupmessages/{id}: one group message. DELETE: delete it while it has not been issued.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { deleteApiGroupMessage, getApiGroupMessage } from "~/domain/public-api/messaging.server";

const handler = v1Route([
  v1(OPERATIONS.getGroupMessage, ({ deps, key, params }) => getApiGroupMessage(deps.db, key.businessId, Number(params.id), deps.now())),
  v1(OPERATIONS.deleteGroupMessage, async ({ deps, key, params }) => {
    await deleteApiGroupMessage(deps, key.businessId, Number(params.id));
    return null;
  }),
]);

export const loader = handler;
export const action = handler;
