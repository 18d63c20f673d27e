// The business's team: its Administrator and team members, for the Administrator's
// "Manage team" screen and GET /api/account/team.
import type { Database } from "#db/index";

export interface TeamMember {
  id: number;
  name: string;
  email: string;
  role: "ADMIN" | "TEAM";
  disabled: boolean;
  lastActiveAt: string | null;
}

/** Everyone who can sign in to the business, the Administrator first, then by name. */
export async function listTeam(db: Database, businessId: number): Promise<TeamMember[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "name", "email", "role", "disabled", "last_active_at"])
    .where("business_id", "=", businessId)
    .orderBy((eb) => eb.case().when("role", "=", "ADMIN").then(0).else(1).end())
    .orderBy("name")
    .orderBy("id")
    .limit(500)
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, email: r.email, role: r.role, disabled: r.disabled === 1, lastActiveAt: r.last_active_at }));
}
