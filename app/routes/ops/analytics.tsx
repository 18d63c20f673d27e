// /ops/analytics: product analytics from the usage events businesses send (POST /api/track): page views per
// title, trial starts, subscription purchases and custom events over the last 7, 30 or 90 days; the
// trial-to-paid conversion of the businesses that signed up in that time; and active businesses per week,
// as a table (always) and a bar chart drawn by chartist once JavaScript runs.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/analytics";
import { EmptyState, PageHeader, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { productAnalytics } from "~/domain/ops/analytics.server";
import { ANALYTICS_PERIODS } from "~/domain/ops/periods";

export const handle = { titleKey: "ops.analytics.title" };

const querySchema = z.object({ days: z.coerce.number().refine((n) => (ANALYTICS_PERIODS as readonly number[]).includes(n)).catch(30) });

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db, now } = getDeps(context);
  const { days } = querySchema.parse({ days: new URL(request.url).searchParams.get("days") ?? 30 });
  return { analytics: await productAnalytics(db, days, now()) };
}

function WeeklyChart({ weeks, label }: { weeks: Array<{ weekStart: string; businesses: number }>; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let chart: { detach(): void } | null = null;
    void import("chartist").then(({ BarChart }) => {
      if (cancelled || !ref.current) return;
      chart = new BarChart(ref.current, { labels: weeks.map((w) => w.weekStart.slice(5)), series: [weeks.map((w) => w.businesses)] }, { low: 0, axisY: { onlyInteger: true }, chartPadding: { top: 20, right: 10, bottom: 5, left: 10 } });
      setDrawn(true);
    });
    return () => {
      cancelled = true;
      chart?.detach();
    };
  }, [weeks]);
  return <div ref={ref} className="ops-chart" role="img" aria-label={label} hidden={!drawn} />;
}

export default function OpsAnalytics({ loaderData: { analytics: a } }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t("ops.analytics.title")} lead={t("ops.analytics.lead", { days: a.periodDays })} />
      <nav aria-label={t("ops.analytics.period")} className="ops-actions">
        {ANALYTICS_PERIODS.map((d) => (
          <Link key={d} to={`/ops/analytics?days=${d}`} aria-current={a.periodDays === d ? "page" : undefined} className={`btn btn--small ${a.periodDays === d ? "btn--primary" : "btn--secondary"}`}>
            {t("ops.analytics.days", { count: d })}
          </Link>
        ))}
      </nav>
      <Panel title={t("ops.analytics.funnel")} id="funnel">
        <dl className="ops-facts">
          <div>
            <dt>{t("ops.analytics.startTrial")}</dt>
            <dd data-event="start_trial">{a.events.startTrial}</dd>
          </div>
          <div>
            <dt>{t("ops.analytics.purchase")}</dt>
            <dd data-event="purchase_subscription">{a.events.purchaseSubscription}</dd>
          </div>
          <div>
            <dt>{t("ops.analytics.newBusinesses")}</dt>
            <dd>{a.conversion.newBusinesses}</dd>
          </div>
          <div>
            <dt>{t("ops.analytics.conversion")}</dt>
            <dd data-conversion>{t("ops.analytics.conversionValue", { percent: a.conversion.percent, paid: a.conversion.paid, total: a.conversion.newBusinesses })}</dd>
          </div>
        </dl>
      </Panel>
      <Panel title={t("ops.analytics.active")} id="active">
        <WeeklyChart weeks={a.activeWeeks} label={t("ops.analytics.chartLabel")} />
        <div className="table-wrap">
          <table className="ops-table" id="active-table">
            <caption className="visually-hidden">{t("ops.analytics.active")}</caption>
            <thead>
              <tr>
                <th scope="col">{t("ops.analytics.week")}</th>
                <th scope="col" className="num">
                  {t("ops.analytics.businesses")}
                </th>
              </tr>
            </thead>
            <tbody>
              {a.activeWeeks.map((w) => (
                <tr key={w.weekStart}>
                  <td>{w.weekStart}</td>
                  <td className="num">{w.businesses}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Panel>
      <Panel title={t("ops.analytics.pageViews")} id="views">
        {a.pageViews.length === 0 ? (
          <EmptyState title={t("ops.analytics.none")} />
        ) : (
          <div className="table-wrap">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">{t("ops.analytics.page")}</th>
                  <th scope="col" className="num">
                    {t("ops.analytics.views")}
                  </th>
                  <th scope="col" className="num">
                    {t("ops.analytics.businesses")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {a.pageViews.map((v) => (
                  <tr key={v.title}>
                    <td>{v.title}</td>
                    <td className="num">{v.views}</td>
                    <td className="num">{v.businesses}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Panel>
      <Panel title={t("ops.analytics.custom")} id="custom">
        {a.events.custom.length === 0 ? (
          <EmptyState title={t("ops.analytics.none")} />
        ) : (
          <div className="table-wrap">
            <table className="ops-table">
              <thead>
                <tr>
                  <th scope="col">{t("ops.analytics.event")}</th>
                  <th scope="col" className="num">
                    {t("ops.analytics.total")}
                  </th>
                </tr>
              </thead>
              <tbody>
                {a.events.custom.map((e) => (
                  <tr key={e.name}>
                    <td>{e.name}</td>
                    <td className="num">{e.total}</td>
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
