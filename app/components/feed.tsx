// Feed panels on the home screen: quick-start help (with Hide), information notices, unread
// messages, group messages, campaigns (campaign-panels.tsx), and a plain card for the activity types that later
// features add. Display rules:
// message text cut at 70 characters, dates as "21 November, 14:05" in UK time.
import { useTranslation } from "react-i18next";
import { Link, useFetcher } from "react-router";
import { CsrfField } from "~/components/form";
import { Button, EmptyState, Icon, Panel } from "~/components/ui";
import type { FeedItem } from "~/domain/feed/feed.server";
import { truncateText } from "~/domain/home/format";
import { formatLongDate } from "~/lib/uk-time";
import type { UnreadSummary } from "~/domain/home/home.server";
import { BroadcastPanel } from "~/components/broadcast-panel";
import { useHasScreen } from "~/components/app-shell";
import { CampaignPanel, isCampaignFeedItem } from "~/components/campaign-panels";
import { ChatSessionPanel } from "~/components/support-chat";

export const HIDE_QUICK_START = "hideQuickStart";

/** Notices store i18n keys ("feed.info.…"); anything else is shown as written. */
function useMaybeKey() {
  const { t, i18n } = useTranslation();
  return (text: string | undefined) => (text && /^feed\.[A-Za-z0-9_.]+$/.test(text) && i18n.exists(text) ? t(text) : (text ?? ""));
}

function When({ iso }: { iso?: string }) {
  const { i18n } = useTranslation();
  if (!iso) return null;
  return <time dateTime={iso}>{formatLongDate(iso, i18n.language)}</time>;
}

/** A quick-start step's video in the getting-started guide (opening the guide also hides this panel). */
function WatchLink({ step, video, task }: { step: number; video: string; task: string }) {
  const { t } = useTranslation();
  return (
    <>
      {" "}
      <Link to={`/helpcentre/getstarted#video-${video}`} className="quick-start__watch">
        <Icon name="play" /> {t("help.quickStart.watch", { step })}
        <span className="visually-hidden"> {t("help.quickStart.watchTask", { task })}</span>
      </Link>
    </>
  );
}

export function QuickStartPanel() {
  const { t } = useTranslation();
  const fetcher = useFetcher();
  const hasScreen = useHasScreen();
  const campaigns = hasScreen("/newcampaign");
  const guide = hasScreen("/helpcentre/getstarted");
  // With JavaScript the panel goes at once; without it the form posts and the page comes back without it.
  if (fetcher.state !== "idle" && fetcher.formData?.get("intent") === HIDE_QUICK_START) return null;
  return (
    <Panel
      id="quick-start"
      title={t("feed.help.title")}
      className="feed-item feed-item--help"
      action={
        <fetcher.Form method="post" action="/?index" className="inline-form">
          <CsrfField />
          <input type="hidden" name="intent" value={HIDE_QUICK_START} />
          <Button variant="secondary" className="btn--small" aria-label={t("feed.help.hideLabel")}>
            {t("feed.help.hide")}
          </Button>
        </fetcher.Form>
      }
    >
      <p>{campaigns ? t("feed.help.lead") : t("feed.help.leadWithoutCampaigns")}</p>
      <ol className="quick-start">
        <li>
          <Link to="/joinus">{t("feed.help.step1")}</Link>
          {guide ? <WatchLink step={1} video="join-code" task={t("feed.help.step1")} /> : null}
        </li>
        <li>
          <Link to="/invitemember">{t("feed.help.step2")}</Link>
          {guide ? <WatchLink step={2} video="invite-member" task={t("feed.help.step2")} /> : null}
        </li>
        <li>
          <Link to="/newgroupmessage">{t("feed.help.step3")}</Link>
          {guide ? <WatchLink step={3} video="group-message" task={t("feed.help.step3")} /> : null}
        </li>
        {campaigns ? (
          <li>
            <Link to="/newcampaign">{t("feed.help.step4")}</Link>
            {guide ? <WatchLink step={4} video="quick-poll" task={t("feed.help.step4")} /> : null}
          </li>
        ) : null}
      </ol>
      {guide ? (
        <p className="small">
          <Link to="/helpcentre/getstarted">{t("feed.help.more")}</Link>
        </p>
      ) : null}
    </Panel>
  );
}

export function InfoPanel({ item }: { item: FeedItem }) {
  const text = useMaybeKey();
  return (
    <article className="panel feed-item feed-item--info" aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          <Icon name="info" /> {text(item.name)}
        </h3>
      </div>
      <p>{text(item.messageText)}</p>
      <p className="feed-item__meta">
        <When iso={item.lastInteraction} />
      </p>
    </article>
  );
}

/** Activity types from later features (campaigns, group messages…): name, status and text. */
export function ActivityPanel({ item }: { item: FeedItem }) {
  const { t } = useTranslation();
  const text = useMaybeKey();
  return (
    <article className="panel feed-item" aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          {text(item.name) || t(`feed.type.${item.type}`)}
        </h3>
        {item.status ? <span className="status">{t(`feed.status.${item.status}`, { defaultValue: item.status })}</span> : null}
      </div>
      {item.messageText ? <p>{truncateText(text(item.messageText))}</p> : null}
      <p className="feed-item__meta">
        <When iso={item.lastInteraction ?? item.nextSending} />
      </p>
    </article>
  );
}

export function UnreadPanel({ messages, total }: { messages: UnreadSummary[]; total: number }) {
  const { t } = useTranslation();
  return (
    <Panel
      id="unread"
      title={t("feed.unread.title", { count: total })}
      className="feed-item feed-item--unread"
      action={
        <Link to="/directmessages" className="panel__link">
          {t("feed.unread.seeAll")}
        </Link>
      }
    >
      {messages.length === 0 ? (
        <EmptyState title={t("feed.unread.empty")} body={t("feed.unread.emptyBody")} />
      ) : (
        <ul className="list unread-list">
          {messages.map((m, i) => (
            <li key={`${m.phoneNumber}-${m.issueDate}-${i}`}>
              <Link to={m.memberId ? `/member/messages?id=${m.memberId}` : "/directmessages"} className="unread-list__item">
                <span className="unread-list__who">
                  <strong>{m.fullName || m.phoneNumber}</strong>
                  <span className="feed-item__meta">
                    <When iso={m.issueDate} />
                  </span>
                </span>
                <span className="unread-list__text">{truncateText(m.messageText ?? "")}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

export function FeedList({ items }: { items: FeedItem[] }) {
  return (
    <>
      {items.map((item) =>
        item.type === "HELPCENTRE" ? (
          <QuickStartPanel key={item.id} />
        ) : item.type === "INFO" ? (
          <InfoPanel key={item.id} item={item} />
        ) : item.type === "CHATSESSION" ? (
          <ChatSessionPanel key={item.id} item={item} />
        ) : item.type === "BROADCASTMESSAGE" ? (
          <BroadcastPanel key={item.id} item={item} />
        ) : isCampaignFeedItem(item) ? (
          <CampaignPanel key={item.id} item={item} />
        ) : (
          <ActivityPanel key={item.id} item={item} />
        ),
      )}
    </>
  );
}
