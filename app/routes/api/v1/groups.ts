// GET /api/v1/groups: the business's groups with their subscribed counts.
import { v1, v1Route } from "~/lib/public-api/handler.server";
import { OPERATIONS } from "~/lib/public-api/operations";
import { listApiGroups } from "~/domain/public-api/messaging.server";

const handler = v1Route([v1(OPERATIONS.listGroups, async ({ deps, key }) => ({ items: await listApiGroups(deps.db, key.businessId) }))]);

export const loader = handler;
export const action = handler;
