// GET /api/v1/members: the members, searched and paged by id. POST: add a member with a consent source.
import { Created, v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { addApiMember, listApiMembers } from "~/domain/public-api/members.server";

const handler = v1Route([
  v1(OPERATIONS.listMembers, ({ deps, key, query }) =>
    listApiMembers(deps.db, key.businessId, { q: query.q, status: query.status, after: query.after ? Number(query.after) : undefined, limit: query.limit ? Number(query.limit) : undefined }),
  ),
  v1(OPERATIONS.addMember, async ({ deps, key, body }) => {
    const member = await addApiMember(deps.db, key.businessId, key.name, body, deps.now());
    return new Created(member, `/api/v1/members/${member.id}`);
  }),
]);

export const loader = handler;
export const action = handler;
