// The home feed's campaign panels: one question, quick poll, invitation, auto responder and pick winners
// (spec sections 4 and 9). A one-time campaign shows a sending message with its date until something has been
// sent, then how many it went to and how many replied, with the time left; a failed one shows its reason. The
// poll and invitation show the top response and its share as text (all there is without JavaScript) and, once
// someone has replied, a two-slice doughnut drawn by chartist in the browser. The auto responder counts today,
// yesterday and this month; pick winners awaits its draw, then shows when it was drawn.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Icon } from "~/components/ui";
import { useHasScreen } from "~/components/app-shell";
import type { FeedItem } from "~/domain/feed/feed-item";
import { campaignIdOf, exportOf, timeLeft, topResponseShare } from "~/domain/feed/campaign-figures";
import { truncateText } from "~/domain/home/format";
import { formatLongDate } from "~/lib/uk-time";

export const CAMPAIGN_FEED_TYPES = [
  "ONEQUESTION",
  "POLL",
  "INVITATION",
  "BOUNCEBACK",
  "PICKWINNERS",
  "BIRTHDAYGREETING",
  "REMINDER",
  "POSTREGISTRATION",
  "CUSTOMEREXP",
  "CHECKIN",
] as const;

/** Types that send to each member on their own date (a birthday, an appointment, a join). */
const DATED = new Set(["BIRTHDAYGREETING", "REMINDER", "POSTREGISTRATION"]);

export function isCampaignFeedItem(item: FeedItem): boolean {
  return (CAMPAIGN_FEED_TYPES as readonly string[]).includes(item.type);
}

/** Statuses of a campaign that has ended, or whose draw has been made (the feed's COMPLETE, the campaign's ENDED). */
const DRAWN = new Set(["COMPLETE", "ENDED"]);

function statusKey(item: FeedItem): string {
  const status = item.status ?? "SCHEDULED";
  if (item.type === "PICKWINNERS" && status !== "FAILED" && status !== "SUSPENDED") return DRAWN.has(status) ? "drawn" : "awaitingDraw";
  // The feed says COMPLETE for a campaign that has ended; for a question, poll or auto responder that reads "Ended".
  return DRAWN.has(status) ? "ENDED" : status;
}

export function CampaignPanel({ item }: { item: FeedItem }) {
  const file = exportOf(item.id);
  return file ? <CheckinExportPanel item={item} campaignId={file.campaignId} /> : <CampaignFiguresPanel item={item} />;
}

/** The second kind of check-in panel: a check-in export file on its way, ready (its rows and until when) or failed. */
function CheckinExportPanel({ item, campaignId }: { item: FeedItem; campaignId: number }) {
  const { t, i18n } = useTranslation();
  const status = item.status ?? "PENDING";
  const href = `/checkinexport?id=${campaignId}`;
  return (
    <article className={`panel feed-item feed-campaign feed-campaign--checkin-export feed-campaign--${status.toLowerCase()}`} aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          <Link to={href}>
            <Icon name="campaign" /> {t("feed.checkinExport.title", { name: item.name })}
          </Link>
        </h3>
        <span className={`status feed-campaign__status feed-campaign__status--${status.toLowerCase()}`}>{t(`feed.checkinExport.status.${status}`, { defaultValue: status })}</span>
      </div>
      <p className="feed-item__meta">
        {status === "AVAILABLE"
          ? t("feed.checkinExport.ready", { count: item.totalReceived ?? 0, n: (item.totalReceived ?? 0).toLocaleString(i18n.language), until: item.closeDate ? formatLongDate(item.closeDate, i18n.language) : "" })
          : status === "FAILED"
            ? t("feed.checkinExport.failed")
            : t("feed.checkinExport.waiting")}
      </p>
    </article>
  );
}

function CampaignFiguresPanel({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation();
  const hasScreen = useHasScreen();
  const id = campaignIdOf(item.id);
  // Check-in opens its export page (spec section 2); the other types their results.
  const target = item.type === "CHECKIN" ? "/checkinexport" : "/viewcampaign";
  const href = id !== null && hasScreen(target) ? `${target}?id=${id}` : null;
  const status = statusKey(item);
  const title = item.name || t(`feed.type.${item.type}`);
  const when = (iso: string | undefined) => (iso ? formatLongDate(iso, i18n.language) : "");
  return (
    <article className={`panel feed-item feed-campaign feed-campaign--${item.type.toLowerCase()} feed-campaign--${status.toLowerCase()}`} aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          {href ? (
            <Link to={href}>
              <Icon name="campaign" /> {title}
            </Link>
          ) : (
            <>
              <Icon name="campaign" /> {title}
            </>
          )}
        </h3>
        <span className={`status feed-campaign__status feed-campaign__status--${status.toLowerCase()}`}>{t(`feed.campaigns.status.${status}`, { defaultValue: status })}</span>
      </div>
      <p className="feed-campaign__type small muted">{t(`feed.type.${item.type}`)}</p>
      {item.messageText ? <p className="feed-campaign__text">{truncateText(item.messageText)}</p> : null}
      {item.errorMessage ? (
        <p className="feed-campaign__error">
          <Icon name="alert" /> {t("feed.campaigns.failed", { reason: t(`errors.campaignFailure.${item.errorMessage}`, { defaultValue: t("errors.generic") }) })}
        </p>
      ) : null}
      {item.type === "BOUNCEBACK" ? (
        <BouncebackFigures item={item} />
      ) : item.type === "PICKWINNERS" ? (
        <DrawFigures item={item} drawn={status === "drawn"} when={when} />
      ) : DATED.has(item.type) ? (
        <DatedFigures item={item} when={when} />
      ) : item.type === "CUSTOMEREXP" ? (
        <SurveyFigures item={item} />
      ) : item.type === "CHECKIN" ? (
        <CheckinFigures item={item} />
      ) : (
        <ReplyFigures item={item} when={when} />
      )}
    </article>
  );
}

/** One question, poll, invitation: sending (with the date) until sent, then sent, replied and the time left. */
function ReplyFigures({ item, when }: { item: FeedItem; when: (iso?: string) => string }) {
  const { t, i18n } = useTranslation();
  const number = (n: number) => n.toLocaleString(i18n.language);
  const sent = item.totalSent ?? 0;
  const received = item.totalReceived ?? 0;
  const failed = item.status === "FAILED";
  // A campaign that failed before sending anything has only its error line to show.
  if (sent === 0 && failed) return null;
  const ended = DRAWN.has(item.status ?? "");
  if (sent === 0 && !ended) {
    return <p className="feed-item__meta">{item.nextSending ? t("feed.campaigns.sending", { when: when(item.nextSending) }) : t("feed.campaigns.sendingSoon")}</p>;
  }
  const withChart = item.type === "POLL" || item.type === "INVITATION";
  const top = withChart ? topResponseShare(item.responses) : null;
  return (
    <div className={withChart ? "feed-campaign__body feed-campaign__body--chart" : "feed-campaign__body"}>
      <div>
        <p className="feed-campaign__counts">
          <span>{t("feed.campaigns.sent", { count: sent, n: number(sent) })}</span>
          <span>{t("feed.campaigns.replied", { count: received, n: number(received) })}</span>
        </p>
        {withChart ? <p className="feed-campaign__top">{top ? t("feed.campaigns.topResponse", { response: top.response, percent: top.percent }) : t("feed.campaigns.noReplies")}</p> : null}
        <p className="feed-item__meta">
          <TimeLeft closeDate={ended || failed ? undefined : item.closeDate} />
        </p>
      </div>
      {withChart && top && received > 0 ? <Doughnut top={top.total} rest={top.rest} /> : null}
    </div>
  );
}

/** "3 DAYS left" until the close date, "Closed" after it. Computed at render: the server's and the browser's may differ by a tick. */
function TimeLeft({ closeDate }: { closeDate?: string }) {
  const { t } = useTranslation();
  const left = timeLeft(closeDate, new Date());
  return (
    <span suppressHydrationWarning>
      {left ? t("feed.campaigns.timeLeft", { value: left.value, unit: t(`feed.campaigns.units.${left.unit}`, { count: left.value }) }) : t("feed.campaigns.closed")}
    </span>
  );
}

/** A row of labelled counts (feed.campaigns.<key>), numbers in the reader's language. */
function Figures({ figures }: { figures: [string, number][] }) {
  const { t, i18n } = useTranslation();
  return (
    <dl className="feed-campaign__figures">
      {figures.map(([key, value]) => (
        <div key={key}>
          <dt>{t(`feed.campaigns.${key}`)}</dt>
          <dd>{value.toLocaleString(i18n.language)}</dd>
        </div>
      ))}
    </dl>
  );
}

function BouncebackFigures({ item }: { item: FeedItem }) {
  return (
    <Figures
      figures={[
        ["today", item.totalToday ?? 0],
        ["yesterday", item.totalYesterday ?? 0],
        ["thisMonth", item.totalMonth ?? 0],
      ]}
    />
  );
}

function DrawFigures({ item, drawn, when }: { item: FeedItem; drawn: boolean; when: (iso?: string) => string }) {
  const { t } = useTranslation();
  return (
    <p className="feed-item__meta">
      {item.numberWinnersToPick ? <span>{t("feed.campaigns.winners", { count: item.numberWinnersToPick })} · </span> : null}
      {item.closeDate ? t(drawn ? "feed.campaigns.drawnOn" : "feed.campaigns.drawOn", { when: when(item.closeDate) }) : null}
    </p>
  );
}

/** Birthday greetings, reminders, follow-ups: texts sent, planned this month, and the next one. */
function DatedFigures({ item, when }: { item: FeedItem; when: (iso?: string) => string }) {
  const { t } = useTranslation();
  return (
    <>
      <Figures
        figures={[
          ["textsSent", item.totalSent ?? 0],
          ["plannedThisMonth", item.totalMonth ?? 0],
        ]}
      />
      {item.nextSending ? <p className="feed-item__meta">{t("feed.campaigns.next", { when: when(item.nextSending) })}</p> : null}
    </>
  );
}

/**
 * Customer experience: this month's score (the month in capitals, spec section 9) against last month's, the three
 * classes as text, and a three-slice doughnut in the browser.
 */
function SurveyFigures({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation();
  const promoters = item.promoters ?? 0;
  const passives = item.passives ?? 0;
  const detractors = item.detractors ?? 0;
  const month = new Date().toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB", { month: "long", timeZone: "Europe/London" }).toUpperCase();
  const score = item.currentScore;
  const previous = item.previousScore;
  const trend = score === undefined || previous === undefined || score === previous ? "unchanged" : score > previous ? "up" : "down";
  return (
    <div className="feed-campaign__body feed-campaign__body--chart">
      <div>
        <p className="feed-campaign__counts">
          <span suppressHydrationWarning>{month}</span>
          <span>{score === undefined ? t("feed.campaigns.noScore") : t("feed.campaigns.score", { score })}</span>
        </p>
        {score !== undefined && previous !== undefined ? <p className="feed-item__meta">{t(`feed.campaigns.trend.${trend}`, { previous })}</p> : null}
        <p className="feed-item__meta">{t("feed.campaigns.classes", { promoters, passives, detractors })}</p>
      </div>
      {promoters + passives + detractors > 0 ? <Doughnut series={[promoters, passives, detractors]} /> : null}
    </div>
  );
}

/** Check-in: who is here now, visits today, and over the last 21 days. */
function CheckinFigures({ item }: { item: FeedItem }) {
  return (
    <Figures
      figures={[
        ["hereNow", item.contactGroupCount ?? 0],
        ["today", item.totalToday ?? 0],
        ["last21Days", item.totalReceived ?? 0],
      ]}
    />
  );
}

/** The doughnut (top response and the rest, or a survey's three classes), drawn only in the browser; the text beside it says the same. */
function Doughnut({ top, rest, series }: { top?: number; rest?: number; series?: number[] }) {
  const values = series ?? [top ?? 0, rest ?? 0];
  const key = values.join(",");
  const ref = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let chart: { detach(): void } | null = null;
    void import("chartist").then(({ PieChart }) => {
      if (cancelled || !ref.current) return;
      chart = new PieChart(ref.current, { series: key.split(",").map(Number) }, { donut: true, donutWidth: 12, showLabel: false, width: 64, height: 64 });
      setDrawn(true);
    });
    return () => {
      cancelled = true;
      chart?.detach();
    };
  }, [key]);
  return <div ref={ref} className={drawn ? "feed-chart feed-chart--drawn" : "feed-chart"} aria-hidden="true" />;
}
