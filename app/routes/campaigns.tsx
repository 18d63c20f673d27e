// /campaigns: every campaign of the business, One Time and Ongoing as two tabs (?kind=), headed by status
// (failed, suspended, scheduled, live, ongoing, ended), each with its type, status and key figures, a page at a
// time. With none yet, one action: create a campaign.
import { useTranslation } from "react-i18next";
import { Link, useLoaderData } from "react-router";
import type { Route } from "./+types/campaigns";
import { CampaignStatusBadge, FailureReason, TimeLeft } from "~/components/campaign-bits";
import { ButtonLink, EmptyState, PageHeader, Pagination } from "~/components/ui";
import { listCampaigns } from "~/domain/campaigns/campaigns.server";
import { CAMPAIGN_STATUSES, type CampaignKind } from "~/domain/campaigns/model";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "campaigns.meta.listTitle", descriptionKey: "campaigns.meta.listDescription", permission: "campaigns:manage" };

const PAGE_SIZE = 25;

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const url = new URL(request.url);
  const kind: CampaignKind = url.searchParams.get("kind") === "ONGOING" ? "ONGOING" : "ONETIME";
  const page = Math.max(1, Math.min(100_000, Math.floor(Number(url.searchParams.get("page"))) || 1));
  const [list, other] = await Promise.all([
    listCampaigns(db, user.businessId, { kind, page, pageSize: PAGE_SIZE }),
    listCampaigns(db, user.businessId, { kind: kind === "ONETIME" ? "ONGOING" : "ONETIME", page: 1, pageSize: 1 }),
  ]);
  const items = list.items.map((c) => ({
    id: c.id,
    type: c.type,
    name: c.name,
    status: c.status,
    errorMessage: c.errorMessage,
    keyword: c.keyword,
    issueDate: c.issueDate,
    closeDate: c.closeDate,
    totalSent: c.totalSent,
    totalReceived: c.totalReceived,
    contactGroupName: c.contactGroupName,
    contactGroupId: c.contactGroupId,
  }));
  return {
    kind,
    items,
    page,
    pageCount: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
    totals: { [kind]: list.total, [kind === "ONETIME" ? "ONGOING" : "ONETIME"]: other.total } as Record<CampaignKind, number>,
    now: now().toISOString(),
  };
}

type Row = Awaited<ReturnType<typeof loader>>["items"][number];

function Figures({ c, now }: { c: Row; now: Date }) {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  const group = c.contactGroupId === -1 || c.contactGroupId === null ? t("campaigns.allSubscribers") : (c.contactGroupName ?? "");
  const parts: React.ReactNode[] = [];
  if (c.status === "SCHEDULED" && c.issueDate) parts.push(t("campaigns.list.sends", { date: formatLongDate(c.issueDate, i18n.language) }));
  if (c.type === "BOUNCEBACK") {
    if (c.keyword) parts.push(t("campaigns.list.keyword", { keyword: c.keyword }));
    parts.push(t("campaigns.list.texts", { count: c.totalReceived, formatted: fmt(c.totalReceived) }));
  } else if (c.type === "PICKWINNERS") {
    parts.push(t("campaigns.list.entries", { count: c.totalReceived, formatted: fmt(c.totalReceived) }));
    if (c.closeDate) parts.push(t("campaigns.list.draw", { date: formatLongDate(c.closeDate, i18n.language) }));
  } else if (c.status !== "SCHEDULED") {
    parts.push(t("campaigns.list.sent", { count: c.totalSent, formatted: fmt(c.totalSent) }));
    parts.push(t("campaigns.list.replied", { count: c.totalReceived, formatted: fmt(c.totalReceived) }));
  }
  if (c.type !== "BOUNCEBACK" && group && c.type !== "PICKWINNERS") parts.push(group);
  if ((c.status === "LIVE" || c.status === "ONGOING" || c.status === "SCHEDULED") && c.closeDate && c.type !== "PICKWINNERS") {
    parts.push(<TimeLeft key="left" until={c.closeDate} now={now} />);
  } else if (c.status === "ENDED" && c.closeDate && Date.parse(c.closeDate) <= now.getTime() && c.type !== "PICKWINNERS") {
    parts.push(t("campaigns.list.closed", { date: formatLongDate(c.closeDate, i18n.language) }));
  }
  return (
    <p className="cl-row__figures">
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 ? " · " : null}
          {p}
        </span>
      ))}
    </p>
  );
}

export default function Campaigns() {
  const { t } = useTranslation();
  const { kind, items, page, pageCount, totals, now: nowIso } = useLoaderData<typeof loader>();
  const now = new Date(nowIso);
  const none = totals.ONETIME + totals.ONGOING === 0;
  const create = <ButtonLink to="/newcampaign">{t("campaigns.list.create")}</ButtonLink>;
  const byStatus = CAMPAIGN_STATUSES.map((status) => ({ status, rows: items.filter((c) => c.status === status) })).filter((g) => g.rows.length > 0);
  return (
    <div className="stack cl-page">
      <PageHeader title={t("campaigns.meta.listTitle")} lead={t("campaigns.list.lead")} actions={none ? undefined : create} />
      {none ? (
        <EmptyState title={t("campaigns.list.emptyTitle")} body={t("campaigns.list.emptyBody")} action={create} />
      ) : (
        <>
          <nav className="cl-tabs" aria-label={t("campaigns.list.kinds")}>
            {(["ONETIME", "ONGOING"] as const).map((k) => (
              <Link key={k} to={`/campaigns?kind=${k}`} className="cl-tabs__tab" aria-current={k === kind ? "page" : undefined}>
                {t(`campaigns.kind.${k}`)} <span className="cl-tabs__count">{totals[k]}</span>
              </Link>
            ))}
          </nav>
          {byStatus.length === 0 ? (
            <EmptyState title={t(`campaigns.list.emptyKind.${kind}`)} body={t(`campaigns.list.emptyKindBody.${kind}`)} action={create} />
          ) : (
            byStatus.map(({ status, rows }) => (
              <section key={status} className="cl-group" aria-labelledby={`cl-${status}`}>
                <h2 id={`cl-${status}`} className="cl-group__title">
                  {t(`campaigns.statusHeading.${status}`)} <span className="muted">({rows.length})</span>
                </h2>
                <ul className="cl-list list-reset">
                  {rows.map((c) => (
                    <li key={c.id} className="cl-row">
                      <div className="cl-row__head">
                        <Link to={`/viewcampaign?id=${c.id}`} className="cl-row__name">
                          {c.name}
                        </Link>
                        <CampaignStatusBadge status={c.status} />
                      </div>
                      <p className="cl-row__type">{t(`campaigns.types.${c.type}.name`)}</p>
                      <Figures c={c} now={now} />
                      {c.status === "FAILED" && c.errorMessage ? (
                        <p className="cl-row__error">
                          <FailureReason code={c.errorMessage} />
                        </p>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </section>
            ))
          )}
          <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/campaigns?kind=${kind}&page=${p}`} />
        </>
      )}
    </div>
  );
}

