// GET /api/v1/members/{id}: one member with their attributes. PATCH: change their details and attributes.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { getApiMember, updateApiMember } from "~/domain/public-api/members.server";

const handler = v1Route([
  v1(OPERATIONS.getMember, ({ deps, key, params }) => getApiMember(deps.db, key.businessId, Number(params.id))),
  v1(OPERATIONS.updateMember, ({ deps, key, params, body }) => updateApiMember(deps.db, key.businessId, Number(params.id), body, deps.now())),
]);

export const loader = handler;
export const action = handler;
