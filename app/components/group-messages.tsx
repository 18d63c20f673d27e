// Pieces the group-message pages share: the three-step indicator (Compose, Schedule, Preview) and the
// list of group messages with their counts (/groupmessages, /allgroupmessages).
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui";
import { failureKey } from "~/components/broadcast-panel";
import { formatLongDate, truncateText } from "~/domain/home/format";
import type { GroupMessageRow } from "~/domain/group-messages/group-messages.server";

export type Step = "compose" | "schedule" | "preview";

export function Steps({ current, draftId }: { current: Step; draftId?: number | null }) {
  const { t } = useTranslation();
  const steps: Step[] = ["compose", "schedule", "preview"];
  const at = steps.indexOf(current);
  const href = (s: Step) => (s === "compose" ? `/newgroupmessage?draft=${draftId}` : `/newgroupmessage/${s}?draft=${draftId}`);
  return (
    <nav aria-label={t("groupmessages.steps.label")}>
      <ol className="steps">
        {steps.map((s, i) => (
          <li key={s} className={i < at ? "done" : undefined} aria-current={i === at ? "step" : undefined}>
            {i < at && draftId ? <Link to={href(s)}>{`${i + 1}. ${t(`groupmessages.steps.${s}`)}`}</Link> : <span>{`${i + 1}. ${t(`groupmessages.steps.${s}`)}`}</span>}
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** A tracking row as the domain computes it (see listGroupMessages). */
export type ListRow = Omit<GroupMessageRow, "editableUntil">;

export function GroupMessageList({ rows, showGroup }: { rows: ListRow[]; showGroup?: boolean }) {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  return (
    <ul className="list gm-list">
      {rows.map((m) => (
        <li key={m.id} className={`gm-list__item gm-status--${m.status.toLowerCase()}`} data-message-id={m.id}>
          <div className="gm-list__head">
            <span className={`status gm-badge gm-badge--${m.status.toLowerCase()}`}>{t(`groupmessages.status.${m.status}`)}</span>
            <time dateTime={m.sendAt}>{formatLongDate(m.sendAt, i18n.language)}</time>
          </div>
          {showGroup ? (
            <p className="gm-list__group">
              {t("groupmessages.list.group")}: <Link to={`/groupmessages?groupId=${m.groupId}`}>{m.groupName ?? t("groupmessages.allSubscribers")}</Link>
            </p>
          ) : null}
          <p className="gm-list__text">{truncateText(m.body, 160)}</p>
          <dl className="gm-counts">
            <div><dt>{t("groupmessages.list.recipients")}</dt><dd>{fmt(m.recipients)}</dd></div>
            <div><dt>{t("groupmessages.list.sent")}</dt><dd>{fmt(m.sent)}</dd></div>
            <div><dt>{t("groupmessages.list.delivered")}</dt><dd>{fmt(m.delivered)}</dd></div>
            <div><dt>{t("groupmessages.list.failed")}</dt><dd>{fmt(m.failed)}</dd></div>
            <div><dt>{t("groupmessages.list.replies")}</dt><dd>{fmt(m.replies)}</dd></div>
            <div><dt>{t("groupmessages.list.credits")}</dt><dd>{fmt(m.credits)}</dd></div>
          </dl>
          {m.status === "FAILED" && m.error ? (
            <p className="gm-list__error">
              {t("groupmessages.list.error")}: {t(failureKey(m.error))}
            </p>
          ) : null}
          {m.editable ? (
            <div className="gm-list__actions">
              <ButtonLink to={`/groupmessages/${m.id}/edit`} variant="secondary" className="btn--small">
                {t("groupmessages.list.edit")}
              </ButtonLink>
              <ButtonLink to={`/groupmessages/${m.id}/delete`} variant="destructive" className="btn--small">
                {t("groupmessages.list.delete")}
              </ButtonLink>
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
