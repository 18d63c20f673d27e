// /ops: every business with its state (trial, subscribed, payment failed, disabled, suspended, locked) and
// its texts this month; search by name or a user's email, filter by state, a page at a time.
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/businesses";
import { StateBadge } from "~/components/ops-bits";
import { Button, EmptyState, PageHeader, Pagination } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { formatLongDate } from "~/lib/uk-time";
import { listBusinesses } from "~/domain/ops/businesses.server";

export const handle = { titleKey: "ops.businesses.title" };

const STATES = ["TRIAL", "SUBSCRIBED", "PAYMENT_FAILED", "DISABLED", "SUSPENDED", "LOCKED"] as const;

const querySchema = z.object({
  q: z.string().max(100).catch(""),
  state: z.enum(STATES).nullable().catch(null),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db, now } = getDeps(context);
  const params = new URL(request.url).searchParams;
  const query = querySchema.parse({ q: params.get("q") ?? "", state: params.get("state") || null, page: params.get("page") ?? 1 });
  return { query, list: await listBusinesses(db, query, now()) };
}

export default function OpsBusinesses({ loaderData: { query, list } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hrefFor = (page: number) => `/ops?${new URLSearchParams({ ...(query.q ? { q: query.q } : {}), ...(query.state ? { state: query.state } : {}), page: String(page) })}`;
  return (
    <>
      <PageHeader title={t("ops.businesses.title")} lead={t("ops.businesses.lead", { count: list.total })} />
      <Form method="get" className="form form--inline" role="search">
        <div className="field">
          <label htmlFor="q">{t("ops.businesses.search")}</label>
          <input id="q" name="q" type="search" defaultValue={query.q} maxLength={100} />
        </div>
        <div className="field">
          <label htmlFor="state">{t("ops.businesses.stateFilter")}</label>
          <select id="state" name="state" defaultValue={query.state ?? ""}>
            <option value="">{t("ops.businesses.anyState")}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`ops.state.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <Button variant="secondary">{t("ops.businesses.find")}</Button>
      </Form>
      {list.rows.length === 0 ? (
        <EmptyState title={t("ops.businesses.empty")} />
      ) : (
        <div className="table-wrap">
          <table className="ops-table">
            <caption className="visually-hidden">{t("ops.businesses.title")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("ops.businesses.name")}</th>
                <th scope="col">{t("ops.businesses.state")}</th>
                <th scope="col">{t("ops.businesses.owner")}</th>
                <th scope="col" className="num">
                  {t("ops.businesses.texts")}
                </th>
                <th scope="col">{t("ops.businesses.created")}</th>
              </tr>
            </thead>
            <tbody>
              {list.rows.map((b) => (
                <tr key={b.id}>
                  <td>
                    <Link to={`/ops/businesses/${b.id}`}>{b.name}</Link>
                  </td>
                  <td>
                    <StateBadge state={b.state} locked={b.locked} />
                  </td>
                  <td>{b.ownerEmail ?? "—"}</td>
                  <td className="num">{b.textsThisMonth}</td>
                  <td>{formatLongDate(b.createdAt, i18n.language)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={list.page} pageCount={list.pageCount} hrefFor={hrefFor} />
    </>
  );
}
