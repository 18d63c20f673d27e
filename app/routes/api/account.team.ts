// GET /api/account/team: the business's team [{name, email, mobile, role, disabled, lastLoginAt, lastActiveAt}], Administrator first.
// Administrator only: a team member's call is 403 FB001.
import { apiHandler } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { listTeam } from "~/domain/accounts/team.server";

const handler = apiHandler({
  GET: {
    permission: "team:manage",
    handler: async ({ context, user }) => {
      const team = await listTeam(getDeps(context).db, user.businessId);
      return team.map((m) => ({ name: m.name, email: m.email, mobile: m.mobile, role: m.role, disabled: m.disabled, lastLoginAt: m.lastLoginAt, lastActiveAt: m.lastActiveAt }));
    },
  },
});

export const loader = handler;
export const action = handler;
