// GET /api/v1/groups/{id}/members: a group's members, paged by id.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { listApiGroupMembers } from "~/domain/public-api/messaging.server";

const handler = v1Route([
  v1(OPERATIONS.listGroupMembers, ({ deps, key, params, query }) =>
    listApiGroupMembers(deps.db, key.businessId, Number(params.id), { after: query.after ? Number(query.after) : undefined, limit: query.limit ? Number(query.limit) : undefined }),
  ),
]);

export const loader = handler;
export const action = handler;
