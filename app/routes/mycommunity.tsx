// Members list: search (name, number, attribute values), tabs all / invited / subscribed with counts,
// paging (25 a page, newest first), each row linking to member info. A plain GET form: works without JavaScript.
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import type { Route } from "./+types/mycommunity";
import { Badge } from "~/components/choices";
import { ButtonLink, EmptyState, Icon, PageHeader, Pagination } from "~/components/ui";
import { listMembers, type MemberTab } from "~/domain/members/community.server";
import { formatLongDate } from "~/domain/home/format";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "members.meta.title", descriptionKey: "members.meta.description" };

const TABS: MemberTab[] = ["all", "invited", "subscribed"];

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const url = new URL(request.url);
  const tabParam = url.searchParams.get("tab");
  const tab: MemberTab = TABS.includes(tabParam as MemberTab) ? (tabParam as MemberTab) : "all";
  const page = Number(url.searchParams.get("page") ?? "1");
  const q = (url.searchParams.get("q") ?? "").slice(0, 100);
  const list = await listMembers(db, user.businessId, { tab, q, page: Number.isFinite(page) ? page : 1 });
  return { ...list, tab, rows: list.rows.map((r) => ({ ...r, phoneDisplay: formatUkNumber(r.phone) })) };
}

function href(tab: MemberTab, q: string, page = 1) {
  const p = new URLSearchParams();
  if (tab !== "all") p.set("tab", tab);
  if (q) p.set("q", q);
  if (page > 1) p.set("page", String(page));
  const s = p.toString();
  return s ? `/mycommunity?${s}` : "/mycommunity";
}

export default function MyCommunity({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { rows, counts, tab, q, page, pageCount } = loaderData;
  return (
    <>
      <PageHeader
        title={t("members.list.title")}
        lead={t("members.list.lead")}
        actions={
          <>
            <ButtonLink to="/invitemember">
              <Icon name="user" /> {t("members.list.invite")}
            </ButtonLink>
            <ButtonLink variant="secondary" to="/mycommunity/import">
              {t("members.list.import")}
            </ButtonLink>
            {/* A CSV download (resource route): a full document request, not a client navigation. */}
            <ButtonLink variant="secondary" to="/mycommunity/export" reloadDocument>
              {t("members.list.export")}
            </ButtonLink>
          </>
        }
      />
      <Form method="get" action="/mycommunity" role="search" className="members-search">
        {tab !== "all" ? <input type="hidden" name="tab" value={tab} /> : null}
        <label htmlFor="members-q">{t("members.list.searchLabel")}</label>
        <div className="members-search__row">
          <input id="members-q" name="q" type="search" defaultValue={q} maxLength={100} placeholder={t("members.list.searchPlaceholder")} />
          <button type="submit" className="btn btn--secondary">
            {t("members.list.search")}
          </button>
        </div>
      </Form>
      <nav className="members-tabs" aria-label={t("members.list.tabsLabel")}>
        {TABS.map((k) => (
          <Link key={k} to={href(k, q)} aria-current={k === tab ? "page" : undefined} className="members-tabs__tab">
            {t(`members.list.tabs.${k}`)} <span className="members-tabs__count">{counts[k]}</span>
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <EmptyState
          title={q ? t("members.list.noResults", { q }) : t(`members.list.empty.${tab}`)}
          body={q ? undefined : t("members.list.emptyBody")}
          action={<ButtonLink to="/invitemember">{t("members.list.invite")}</ButtonLink>}
        />
      ) : (
        <ul className="members-list">
          {rows.map((m) => (
            <li key={m.id}>
              <Link to={`/memberinfo?id=${m.id}`} className="members-list__row">
                {/* Without a name, the number is the label, shown once. */}
                <span className="members-list__name nowrap">{m.full_name || m.first_name || m.phoneDisplay}</span>
                {m.full_name || m.first_name ? <span className="members-list__phone nowrap">{m.phoneDisplay}</span> : null}
                <Badge tone={m.status === "SUBSCRIBED" ? "green" : m.status === "PENDING" ? "yellow" : "red"} className="members-list__status">
                  {t(`members.status.${m.status}`)}
                </Badge>
                <span className="members-list__date">
                  {m.status === "PENDING" && m.invited_at
                    ? t("members.list.invitedOn", { date: formatLongDate(m.invited_at, i18n.language) })
                    : m.joined_at
                      ? t("members.list.joinedOn", { date: formatLongDate(m.joined_at, i18n.language) })
                      : ""}
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Pagination page={page} pageCount={pageCount} hrefFor={(p) => href(tab, q, p)} />
    </>
  );
}
