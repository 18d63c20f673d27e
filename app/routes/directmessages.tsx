// /directmessages: the DM inbox, filtered by unread, read, active and snoozed (tabs), newest
// activity first, keyset-paged. With JavaScript it refreshes every 10 s; without, a reload does.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { Route } from "./+types/directmessages";
import { usePagePoll } from "~/components/use-page-poll";
import { ButtonLink, EmptyState, PageHeader } from "~/components/ui";
import { listInbox, parseInboxCursor } from "~/domain/conversations/conversations.server";
import { INBOX_TABS, TAB_COUNT_CAP, type InboxTab } from "~/domain/conversations/inbox";
import { truncateText } from "~/domain/home/format";
import { formatLongDate } from "~/lib/uk-time";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "conversations.meta.inboxTitle", descriptionKey: "conversations.meta.inboxDescription" };

function tabOf(v: string | null): InboxTab {
  return (INBOX_TABS as readonly string[]).includes(v ?? "") ? (v as InboxTab) : "active";
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const url = new URL(request.url);
  const tab = tabOf(url.searchParams.get("tab"));
  const before = parseInboxCursor(url.searchParams.get("before"));
  const page = await listInbox(db, user.businessId, { tab, before }, now());
  return { tab, paged: Boolean(before), ...page, rows: page.rows.map((r) => ({ ...r, phoneDisplay: formatUkNumber(r.phone) })) };
}

export default function DirectMessages({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  usePagePoll();
  const { tab, rows, counts, next, paged } = loaderData;
  return (
    <div className="stack">
      <PageHeader
        title={t("conversations.inbox.title")}
        lead={t("conversations.inbox.lead")}
        actions={<ButtonLink to="/newdirectmessage">{t("conversations.inbox.new")}</ButtonLink>}
      />
      <nav className="dm-tabs" aria-label={t("conversations.inbox.tabsLabel")}>
        {INBOX_TABS.map((name) => (
          <Link key={name} to={`/directmessages?tab=${name}`} className="dm-tabs__tab" aria-current={name === tab ? "page" : undefined} id={`dm-tab-${name}`}>
            {t(`conversations.inbox.tabs.${name}`, { count: counts[name] > TAB_COUNT_CAP ? `${TAB_COUNT_CAP}+` : counts[name] })}
          </Link>
        ))}
      </nav>
      {rows.length === 0 ? (
        <EmptyState title={t(`conversations.inbox.empty.${tab}`)} body={t("conversations.inbox.emptyBody")} />
      ) : (
        <ul className="list dm-inbox" id="dm-inbox">
          {rows.map((r) => (
            <li key={r.memberId}>
              <Link to={`/member/messages?id=${r.memberId}`} className={`dm-row${r.state === "UNREAD" ? " dm-row--unread" : ""}`} data-member-id={r.memberId}>
                <span className="dm-row__who">
                  {r.name ? (
                    <>
                      <strong>{r.name}</strong> <span className="dm-row__phone nowrap">{r.phoneDisplay}</span>
                    </>
                  ) : (
                    <strong className="nowrap">{r.phoneDisplay}</strong>
                  )}
                </span>
                <span className="dm-row__when">{formatLongDate(r.lastMessageAt, i18n.language)}</span>
                <span className="dm-row__text">
                  {r.lastDirection === "out" ? t("conversations.inbox.you", { text: truncateText(r.lastText) }) : truncateText(r.lastText)}
                </span>
                {r.mayWantToStop ? <span className="status status--soon">{t("conversations.mayWantToStop.badge")}</span> : null}
                {r.state === "UNREAD" ? <span className="dm-row__badge">{t("conversations.inbox.unreadBadge", { count: r.unreadCount })}</span> : null}
                {r.state === "SNOOZED" && r.snoozedUntil ? (
                  <span className="dm-row__badge">{t("conversations.inbox.snoozedUntil", { date: formatLongDate(r.snoozedUntil, i18n.language) })}</span>
                ) : null}
              </Link>
            </li>
          ))}
        </ul>
      )}
      <nav className="pagination" aria-label={t("common.pagination")}>
        {paged ? <Link to={`/directmessages?tab=${tab}`}>{t("conversations.inbox.newest")}</Link> : <span aria-hidden="true" />}
        {next ? (
          <Link to={`/directmessages?tab=${tab}&before=${encodeURIComponent(next)}`} rel="next">
            {t("conversations.inbox.older")}
          </Link>
        ) : null}
      </nav>
    </div>
  );
}
