// /analytics: the business's texting over the last 7, 30 or 90 days: texts sent and received per day, credits
// used, members joined and left, the busiest hours, and each group message's and campaign's reach, replies and
// opt-outs. Without JavaScript the figures are tables; with it, chartist draws them and the tables fold away
// under a "show the figures" disclosure. The same figures download as CSV.
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/analytics";
import { EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { busiestHours, getAnalytics } from "~/domain/analytics/analytics.server";
import { ANALYTICS_RANGES, isAnalyticsRange, type AnalyticsRange } from "~/domain/analytics/ranges";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export const handle = { titleKey: "analytics.meta.title", descriptionKey: "analytics.meta.description" };

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const params = new URL(request.url).searchParams;
  const raw = params.get("days");
  const days: AnalyticsRange = isAnalyticsRange(raw) ? (Number(raw) as AnalyticsRange) : 7;
  const a = await getAnalytics(db, user.businessId, days, now());
  const pageCount = Math.max(1, Math.ceil(a.sends.length / PAGE_SIZE));
  const rawPage = Number(params.get("page") ?? "1");
  const page = Number.isSafeInteger(rawPage) && rawPage >= 1 ? Math.min(rawPage, pageCount) : 1;
  return {
    days,
    daily: a.daily,
    hours: a.hours,
    busiest: busiestHours(a.hours),
    totals: a.totals,
    sends: a.sends.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    sendCount: a.sends.length,
    page,
    pageCount,
  };
}

type Loaded = Awaited<ReturnType<typeof loader>>;

function useNumber() {
  const { i18n } = useTranslation();
  const locale = i18n.language === "fr" ? "fr-FR" : "en-GB";
  return {
    n: (x: number) => x.toLocaleString(locale),
    pct: (x: number) => (x * 100).toLocaleString(locale, { maximumFractionDigits: 1 }) + (locale === "fr-FR" ? " %" : "%"),
    day: (date: string, long = false) =>
      new Date(`${date}T12:00:00Z`).toLocaleDateString(locale, long ? { weekday: "short", day: "numeric", month: "long", timeZone: "UTC" } : { day: "numeric", month: "short", timeZone: "UTC" }),
    hour: (h: number) => `${String(h).padStart(2, "0")}:00`,
  };
}

/** True once the page runs with JavaScript (the server render and a no-JS visit stay false). */
function useEnhanced(): boolean {
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  return enhanced;
}

interface Series {
  name: string;
  values: number[];
}

/** A chartist line or bar chart; the figure's caption names it and the table beside it carries the numbers. */
function Chart({ kind, labels, series, caption }: { kind: "line" | "bar"; labels: string[]; series: Series[]; caption: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const key = JSON.stringify([kind, labels, series]);
  useEffect(() => {
    let cancelled = false;
    let chart: { detach(): void } | null = null;
    const [k, l, s] = JSON.parse(key) as [string, string[], Series[]];
    // Every nth label on a long period, so they do not overlap.
    const step = Math.ceil(l.length / 10);
    void import("chartist").then(({ LineChart, BarChart }) => {
      if (cancelled || !ref.current) return;
      const data = { labels: l, series: s.map((x) => x.values) };
      const axisX = { labelInterpolationFnc: (value: unknown, index: number) => (index % step === 0 ? String(value) : "") };
      const axisY = { onlyInteger: true };
      // A scale of at least 0 to 1, so an empty or tiny period still shows its axis.
      const high = Math.max(1, ...s.flatMap((x) => x.values));
      const chartPadding = { top: 16, left: 0, right: 16 };
      chart =
        k === "bar"
          ? new BarChart(ref.current, data, { axisX, axisY, low: 0, high, seriesBarDistance: 8, chartPadding })
          : new LineChart(ref.current, data, { axisX, axisY, low: 0, high, lineSmooth: false, showArea: false, fullWidth: true, chartPadding });
    });
    return () => {
      cancelled = true;
      chart?.detach();
    };
  }, [key]);
  return (
    <figure className="analytics-figure" data-chart={kind}>
      <div ref={ref} className="analytics-chart" aria-hidden="true" />
      <figcaption>
        <span className="visually-hidden">{caption}</span>
        <ul className="analytics-legend">
          {series.map((s, i) => (
            <li key={s.name}>
              <span className={`analytics-legend__swatch${i === 1 ? " analytics-legend__swatch--b" : ""}`} aria-hidden="true" />
              {s.name}
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** With JavaScript: the chart, and the table under a disclosure. Without: the table. */
function ChartOrTable({ enhanced, chart, table, id }: { enhanced: boolean; chart: ReactNode; table: ReactNode; id: string }) {
  const { t } = useTranslation();
  if (!enhanced) return <>{table}</>;
  return (
    <>
      {chart}
      <details className="analytics-details" id={`${id}-details`}>
        <summary>{t("analytics.showTable")}</summary>
        {table}
      </details>
    </>
  );
}

function DailyTable({ daily, caption }: { daily: Loaded["daily"]; caption: string }) {
  const { t } = useTranslation();
  const f = useNumber();
  return (
    <div className="table-wrap">
      <table className="cv-table" id="analytics-daily-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t("analytics.table.date")}</th>
            <th scope="col" className="num">{t("analytics.table.sent")}</th>
            <th scope="col" className="num">{t("analytics.table.received")}</th>
            <th scope="col" className="num">{t("analytics.table.credits")}</th>
            <th scope="col" className="num">{t("analytics.table.joined")}</th>
            <th scope="col" className="num">{t("analytics.table.left")}</th>
          </tr>
        </thead>
        <tbody>
          {[...daily].reverse().map((d) => (
            <tr key={d.date}>
              <th scope="row">
                <time dateTime={d.date}>{f.day(d.date, true)}</time>
              </th>
              <td className="num">{f.n(d.sent)}</td>
              <td className="num">{f.n(d.received)}</td>
              <td className="num">{f.n(d.credits)}</td>
              <td className="num">{f.n(d.joined)}</td>
              <td className="num">{f.n(d.left)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export default function Analytics({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const f = useNumber();
  const enhanced = useEnhanced();
  const { days, daily, hours, busiest, totals, sends, sendCount, page, pageCount } = loaderData;
  const labels = daily.map((d) => f.day(d.date));
  const nothing = totals.sent + totals.received + totals.joined + totals.left + totals.credits === 0;
  return (
    <>
      <PageHeader
        title={t("analytics.title")}
        lead={t("analytics.lead", { count: days })}
        actions={
          <a className="btn btn--secondary" href={`/analytics/export?days=${days}`} download>
            {t("analytics.csv")}
          </a>
        }
      />
      <nav aria-label={t("analytics.range.label")}>
        <ul className="analytics-range">
          {ANALYTICS_RANGES.map((r) => (
            <li key={r}>
              <Link to={`/analytics?days=${r}`} aria-current={r === days ? "page" : undefined}>
                {t("analytics.range.days", { count: r })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <dl className="analytics-figures" id="analytics-totals">
        <div>
          <dt>{t("analytics.totals.sent")}</dt>
          <dd>{f.n(totals.sent)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.received")}</dt>
          <dd>{f.n(totals.received)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.credits")}</dt>
          <dd>{f.n(totals.credits)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.members")}</dt>
          <dd>
            +{f.n(totals.joined)} / −{f.n(totals.left)}
          </dd>
        </div>
        <div>
          <dt>{t("analytics.totals.replyRate")}</dt>
          <dd>{f.pct(totals.recipients ? totals.repliers / totals.recipients : 0)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.optOuts")}</dt>
          <dd>{f.n(totals.optOuts)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.optOutRate")}</dt>
          <dd>{f.pct(totals.recipients ? totals.optOuts / totals.recipients : 0)}</dd>
        </div>
        <div>
          <dt>{t("analytics.totals.busiest")}</dt>
          <dd>{busiest[0] ? f.hour(busiest[0].hour) : "–"}</dd>
        </div>
      </dl>
      {nothing ? <EmptyState title={t("analytics.empty")} body={t("analytics.emptyBody")} /> : null}

      <Panel title={t("analytics.texts.title")} id="analytics-texts">
        <ChartOrTable
          id="analytics-texts"
          enhanced={enhanced}
          chart={
            <Chart
              kind="line"
              labels={labels}
              caption={t("analytics.texts.title")}
              series={[
                { name: t("analytics.table.sent"), values: daily.map((d) => d.sent) },
                { name: t("analytics.table.received"), values: daily.map((d) => d.received) },
              ]}
            />
          }
          table={<DailyTable daily={daily} caption={t("analytics.texts.title")} />}
        />
      </Panel>

      <Panel title={t("analytics.members.title")} id="analytics-members">
        <ChartOrTable
          id="analytics-members"
          enhanced={enhanced}
          chart={
            <Chart
              kind="bar"
              labels={labels}
              caption={t("analytics.members.title")}
              series={[
                { name: t("analytics.table.joined"), values: daily.map((d) => d.joined) },
                { name: t("analytics.table.left"), values: daily.map((d) => d.left) },
              ]}
            />
          }
          table={
            <ul className="list-reset small">
              <li>{t("analytics.members.summary", { joined: f.n(totals.joined), left: f.n(totals.left) })}</li>
              <li>{t("analytics.members.seeDaily")}</li>
            </ul>
          }
        />
      </Panel>

      <Panel title={t("analytics.hours.title")} id="analytics-hours">
        <p className="small">{busiest.length ? t("analytics.hours.lead", { hours: busiest.map((h) => f.hour(h.hour)).join(", ") }) : t("analytics.hours.none")}</p>
        <ChartOrTable
          id="analytics-hours"
          enhanced={enhanced}
          chart={
            <Chart
              kind="bar"
              labels={hours.map((h) => f.hour(h.hour))}
              caption={t("analytics.hours.title")}
              series={[
                { name: t("analytics.table.received"), values: hours.map((h) => h.received) },
                { name: t("analytics.table.sent"), values: hours.map((h) => h.sent) },
              ]}
            />
          }
          table={
            <div className="table-wrap">
              <table className="cv-table">
                <caption className="visually-hidden">{t("analytics.hours.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("analytics.table.hour")}</th>
                    <th scope="col" className="num">{t("analytics.table.received")}</th>
                    <th scope="col" className="num">{t("analytics.table.sent")}</th>
                  </tr>
                </thead>
                <tbody>
                  {hours
                    .filter((h) => h.sent + h.received > 0)
                    .map((h) => (
                      <tr key={h.hour}>
                        <th scope="row">{f.hour(h.hour)}</th>
                        <td className="num">{f.n(h.received)}</td>
                        <td className="num">{f.n(h.sent)}</td>
                      </tr>
                    ))}
                </tbody>
              </table>
            </div>
          }
        />
      </Panel>

      <Panel title={t("analytics.sends.title")} id="analytics-sends">
        <p className="small">{t("analytics.sends.lead")}</p>
        {sendCount === 0 ? (
          <EmptyState title={t("analytics.sends.empty")} />
        ) : (
          <>
            <div className="table-wrap">
              <table className="cv-table" id="analytics-sends-table">
                <caption className="visually-hidden">{t("analytics.sends.title")}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t("analytics.sends.what")}</th>
                    <th scope="col" className="num">{t("analytics.sends.recipients")}</th>
                    <th scope="col" className="num">{t("analytics.sends.replyRate")}</th>
                    <th scope="col" className="num">{t("analytics.sends.optOuts")}</th>
                    <th scope="col" className="num">{t("analytics.sends.optOutRate")}</th>
                  </tr>
                </thead>
                <tbody>
                  {sends.map((s) => (
                    <tr key={`${s.kind}-${s.id}`}>
                      <th scope="row">
                        <span className="small">
                          {s.kind === "GROUP" ? t("analytics.sends.group") : t(`campaigns.types.${s.type}.name`, { defaultValue: t("analytics.sends.campaign") })} ·{" "}
                          <time dateTime={s.sentAt}>{f.day(s.sentAt.slice(0, 10))}</time>
                        </span>
                        <br />
                        {s.kind === "GROUP" ? (s.name ?? t("analytics.sends.allSubscribers")) : s.name}
                      </th>
                      <td className="num">{f.n(s.recipients)}</td>
                      <td className="num">{f.pct(s.replyRate)}</td>
                      <td className="num">{f.n(s.optOuts)}</td>
                      <td className="num">{f.pct(s.optOutRate)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {pageCount > 1 ? <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/analytics?days=${days}&page=${p}`} /> : null}
          </>
        )}
      </Panel>
    </>
  );
}
