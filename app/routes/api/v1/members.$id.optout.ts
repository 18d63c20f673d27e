// POST /api/v1/members/{id}/optout: opt the member out (the consent service records it and texts the confirmation).
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { optOutApiMember } from "~/domain/public-api/members.server";

const handler = v1Route([v1(OPERATIONS.optOutMember, ({ deps, key, params }) => optOutApiMember(deps.db, key.businessId, Number(params.id), key.name, deps.now()))]);

export const loader = handler;
export const action = handler;
