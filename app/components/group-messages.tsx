// Pieces the group-message pages share: the three-step indicator (Compose, Schedule, Preview) and the
// list of group messages with their counts (/groupmessages, /allgroupmessages).
import { useTranslation } from "react-i18next";
import { Countdown } from "./countdown";
import { Link } from "react-router";
import { ButtonLink } from "~/components/ui";
import { Badge, StatList, type BadgeTone } from "~/components/choices";
import { MergeText } from "~/components/merge-text";
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

/** Who wrote a group message and who last edited it ("sent by Sam · edited by Kim"); nothing when nobody is recorded. */
export function ActorLine({ createdBy, updatedBy }: { createdBy: string | null; updatedBy: string | null }) {
  const { t } = useTranslation();
  const parts = [createdBy ? t("team.actor.sentBy", { name: createdBy }) : null, updatedBy ? t("team.actor.editedBy", { name: updatedBy }) : null].filter(Boolean);
  if (!parts.length) return null;
  return <p className="actor gm-list__actor">{parts.join(" · ")}</p>;
}

/** A tracking row as the domain computes it (see listGroupMessages). */
export type ListRow = Omit<GroupMessageRow, "editableUntil"> & { editableUntil?: string };

/** Status colours mean the same everywhere: waiting is yellow, gone is green, failed is red. */
const STATUS_TONE: Record<string, BadgeTone> = {
  SCHEDULED: "info",
  SENDING_SOON: "yellow",
  SENDING: "yellow",
  COMPLETE: "green",
  FAILED: "red",
};

export function GroupMessageList({ rows, showGroup }: { rows: ListRow[]; showGroup?: boolean }) {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  return (
    <ul className="list gm-list">
      {rows.map((m) => (
        <li key={m.id} className={`gm-list__item gm-status--${m.status.toLowerCase()}`} data-message-id={m.id}>
          <div className="gm-list__head">
            <Badge tone={STATUS_TONE[m.status] ?? "neutral"}>{t(`groupmessages.status.${m.status}`)}</Badge>
            {m.status === "SENDING_SOON" && m.editable && m.editableUntil ? (
              <Countdown until={m.editableUntil} doneLabel={t("groupmessages.status.SENDING")} />
            ) : (
              <time dateTime={m.sendAt}>{formatLongDate(m.sendAt, i18n.language)}</time>
            )}
          </div>
          {showGroup ? (
            <p className="gm-list__group">
              {t("groupmessages.list.group")}: <Link to={`/groupmessages?groupId=${m.groupId}`}>{m.groupName ?? t("groupmessages.allSubscribers")}</Link>
            </p>
          ) : null}
          <p className="gm-list__text">
            <MergeText text={truncateText(m.body, 160)} />
          </p>
          <ActorLine createdBy={m.createdBy} updatedBy={m.updatedBy} />
          <StatList
            className="gm-counts"
            items={[
              { label: t("groupmessages.list.recipients"), value: fmt(m.recipients) },
              { label: t("groupmessages.list.sent"), value: fmt(m.sent) },
              { label: t("groupmessages.list.delivered"), value: fmt(m.delivered) },
              { label: t("groupmessages.list.failed"), value: fmt(m.failed), tone: m.failed > 0 ? "bad" : undefined },
              { label: t("groupmessages.list.replies"), value: fmt(m.replies) },
              { label: t("groupmessages.list.credits"), value: fmt(m.credits) },
            ]}
          />
          {m.leftOut > 0 ? (
            <p className="gm-list__leftout" data-testid="left-out-note">
              {t("partialsend.list.note", { count: m.leftOut, sent: fmt(m.recipients) })}{" "}
              <Link to={`/groupmessages/${m.id}/leftout`}>{t("partialsend.list.see")}</Link>
            </p>
          ) : null}
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
