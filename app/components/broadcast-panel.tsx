// The BROADCASTMESSAGE feed panel: a group message sending
// soon (with its member count), sent (with the total sent) or failed (with the reason); the text is
// cut at 70 characters. Choosing it opens /groupmessages for that group.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Icon } from "~/components/ui";
import type { FeedItem } from "~/domain/feed/feed.server";
import { truncateText } from "~/domain/home/format";
import { formatLongDate } from "~/lib/uk-time";

/** A pipeline error ("opted out", "undelivered", provider text) as a translated reason. */
export function failureKey(error: string | null | undefined): string {
  const e = (error ?? "").toLowerCase();
  if (e.includes("opted out")) return "messaging.providerFailure.optedOut";
  if (e.includes("invalid")) return "messaging.providerFailure.invalidNumber";
  if (e.includes("undelivered") || e.includes("rejected")) return "messaging.providerFailure.rejected";
  return "messaging.providerFailure.unknown";
}

export function BroadcastPanel({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation();
  const group = item.contactGroupName ?? t("groupmessages.allSubscribers");
  const status = item.status ?? "SCHEDULED";
  const href = `/groupmessages?groupId=${item.contactGroupId ?? -1}`;
  return (
    <article className={`panel feed-item feed-item--broadcast gm-status--${status.toLowerCase()}`} aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          <Link to={href}>
            <Icon name="group" /> {t("groupmessages.feed.title", { group })}
          </Link>
        </h3>
        <span className={`status gm-badge gm-badge--${status.toLowerCase()}`}>{t(`groupmessages.status.${status}`)}</span>
      </div>
      <p>{truncateText(item.messageText ?? "")}</p>
      <p className="feed-item__meta">
        {status === "SCHEDULED"
          ? t("groupmessages.feed.scheduled", { count: item.contactGroupCount ?? 0, when: item.nextSending ? formatLongDate(item.nextSending, i18n.language) : "" })
          : status === "FAILED"
            ? `${t("groupmessages.feed.failed")}: ${t(failureKey(item.errorMessage))}`
            : t("groupmessages.feed.sent", { count: item.totalSent ?? 0 })}
      </p>
    </article>
  );
}
