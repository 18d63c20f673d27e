// /ops/support: the support inbox. Open chats with the unread ones first (a user wrote after an operator
// last read it), or only the operator's own, the unread, or the closed ones; a page at a time.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/support";
import { Badge } from "~/components/choices";
import { EmptyState, PageHeader, Pagination } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { formatLongDate } from "~/lib/uk-time";
import { truncateText } from "~/domain/home/format";
import { listInbox } from "~/domain/support/inbox.server";

export const handle = { titleKey: "ops.inbox.title" };

const FILTERS = ["open", "unread", "mine", "closed"] as const;
const querySchema = z.object({ filter: z.enum(FILTERS).catch("open"), page: z.coerce.number().int().min(1).max(100_000).catch(1) });

export async function loader({ request, context }: Route.LoaderArgs) {
  const operator = requireOperator(context);
  const { db } = getDeps(context);
  const params = new URL(request.url).searchParams;
  const query = querySchema.parse({ filter: params.get("filter") ?? "open", page: params.get("page") ?? 1 });
  return { query, inbox: await listInbox(db, { ...query, operatorId: operator.id }) };
}

export default function OpsSupport({ loaderData: { query, inbox } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <PageHeader title={t("ops.inbox.title")} lead={t("ops.inbox.lead")} />
      <nav aria-label={t("ops.inbox.filters")} className="ops-actions">
        {FILTERS.map((f) => (
          <Link key={f} to={`/ops/support?filter=${f}`} aria-current={query.filter === f ? "page" : undefined} className={`btn btn--small ${query.filter === f ? "btn--primary" : "btn--secondary"}`}>
            {t(`ops.inbox.filter.${f}`)}
          </Link>
        ))}
      </nav>
      {inbox.rows.length === 0 ? (
        <EmptyState title={t("ops.inbox.empty")} />
      ) : (
        <div className="table-wrap">
          <table className="ops-table">
            <caption className="visually-hidden">{t("ops.inbox.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("ops.inbox.who")}</th>
                <th scope="col">{t("ops.inbox.last")}</th>
                <th scope="col">{t("ops.inbox.assigned")}</th>
                <th scope="col">{t("ops.inbox.when")}</th>
              </tr>
            </thead>
            <tbody>
              {inbox.rows.map((r) => (
                <tr key={r.id}>
                  <td>
                    <Link to={`/ops/support/${r.id}`}>{r.businessName}</Link>
                    {r.userName ? <span className="muted small"> · {r.userName}</span> : null} {r.unread ? <Badge tone="yellow">{t("ops.inbox.unread")}</Badge> : null}
                    {r.status === "CLOSED" ? <Badge>{t("ops.inbox.closed")}</Badge> : null}
                  </td>
                  <td>{r.lastText ? truncateText(r.lastText) : "—"}</td>
                  <td>{r.assignedTo ?? t("ops.inbox.nobody")}</td>
                  <td>{formatLongDate(r.lastAt, i18n.language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={inbox.page} pageCount={inbox.pageCount} hrefFor={(p) => `/ops/support?filter=${query.filter}&page=${p}`} />
    </>
  );
}
