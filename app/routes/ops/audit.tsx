// /ops/audit: every operator action, newest first (or one business's, ?business=id), a page at a time.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/audit";
import { EmptyState, PageHeader, Pagination } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { formatLongDate } from "~/lib/uk-time";
import { listAudit } from "~/domain/ops/audit.server";

export const handle = { titleKey: "ops.audit.title" };

const querySchema = z.object({
  business: z.coerce.number().int().positive().max(2 ** 31).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = getDeps(context);
  const params = new URL(request.url).searchParams;
  const query = querySchema.parse({ business: params.get("business"), page: params.get("page") ?? 1 });
  return { query, log: await listAudit(db, { page: query.page, businessId: query.business }) };
}

export default function OpsAudit({ loaderData: { query, log } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <PageHeader title={t("ops.audit.title")} lead={query.business ? <Link to="/ops/audit">{t("ops.audit.all")}</Link> : t("ops.audit.lead")} />
      {log.rows.length === 0 ? (
        <EmptyState title={t("ops.audit.empty")} />
      ) : (
        <div className="table-wrap">
          <table className="ops-table">
            <caption className="visually-hidden">{t("ops.audit.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("ops.audit.when")}</th>
                <th scope="col">{t("ops.audit.operator")}</th>
                <th scope="col">{t("ops.audit.action")}</th>
                <th scope="col">{t("ops.audit.business")}</th>
                <th scope="col">{t("ops.audit.details")}</th>
              </tr>
            </thead>
            <tbody>
              {log.rows.map((r) => (
                <tr key={r.id}>
                  <td>{formatLongDate(r.createdAt, i18n.language)}</td>
                  <td>{r.operatorEmail}</td>
                  <td data-action={r.action}>{t(`ops.audit.actions.${r.action.replace(".", "_")}`, { defaultValue: r.action })}</td>
                  <td>{r.businessId ? <Link to={`/ops/businesses/${r.businessId}`}>{r.businessName ?? r.businessId}</Link> : "—"}</td>
                  <td>{[r.target, r.detail].filter(Boolean).join(" · ") || "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={log.page} pageCount={log.pageCount} hrefFor={(p) => `/ops/audit?${query.business ? `business=${query.business}&` : ""}page=${p}`} />
    </>
  );
}
