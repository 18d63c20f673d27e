// /manageteam: the business's team (Administrator and team members) with their role and when each
// was last active. Only the Administrator may see it (the handle's permission).
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/manageteam";
import { EmptyState, PageHeader, Panel } from "~/components/ui";
import { listTeam } from "~/domain/accounts/team.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "team.meta.title", descriptionKey: "team.meta.description", permission: "team:manage" } as const;

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  return { team: await listTeam(db, user.businessId) };
}

export default function ManageTeam({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { team } = loaderData;
  return (
    <>
      <PageHeader title={t("team.title")} lead={t("team.lead")} />
      <Panel title={t("team.list.title")} id="team-list">
        {team.length === 0 ? (
          <EmptyState title={t("team.list.empty")} />
        ) : (
          // On a phone the table scrolls sideways: the region can take focus so a keyboard can scroll it too.
          <div className="table-wrap" role="group" aria-labelledby="team-list-title" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("team.list.name")}</th>
                  <th scope="col">{t("team.list.email")}</th>
                  <th scope="col">{t("team.list.role")}</th>
                  <th scope="col">{t("team.list.lastActive")}</th>
                </tr>
              </thead>
              <tbody>
                {team.map((m) => (
                  <tr key={m.id}>
                    <td>{m.name}</td>
                    <td>{m.email}</td>
                    <td>{t(`team.role.${m.role}`)}{m.disabled ? ` · ${t("team.list.disabled")}` : ""}</td>
                    <td>{m.lastActiveAt ? formatLongDate(m.lastActiveAt, i18n.language) : t("team.list.never")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
    </>
  );
}
