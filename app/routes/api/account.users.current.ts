// GET /api/account/users/current: the signed-in user's name and company name.
import { apiHandler, requireApiUser } from "~/lib/api.server";

const handler = apiHandler({
  GET: async ({ request, context }) => {
    const user = await requireApiUser(request, context);
    return { name: user.name, companyName: user.companyName };
  },
});

export const loader = handler;
export const action = handler;
