// The support chat's pieces shared by the user's /agentchat page, the home feed's CHATSESSION panel and
// the operators' inbox: the message log (text always shown as text, never as markup) and the panel.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { FeedItem } from "~/domain/feed/feed-item";
import { formatLongDate } from "~/lib/uk-time";
import { truncateText } from "~/domain/home/format";
import chatStyles from "~/styles/support.css?url";

export const chatCss = chatStyles;

export interface ChatLine {
  key: string;
  sender: "USER" | "AGENT";
  text: string;
  createdAt: string;
  automatic: boolean;
  /** Who wrote it, when the reader should know (the operators' view). */
  author?: string | null;
}

/** The messages, oldest first; new ones are announced politely to screen readers. */
export function ChatLog({ lines, you, agent, automatic, ownSide = "USER" }: { lines: ChatLine[]; you: string; agent: string; automatic: string; ownSide?: "USER" | "AGENT" }) {
  const { i18n } = useTranslation();
  return (
    <ol className="chat-log" aria-live="polite" aria-relevant="additions">
      {lines.map((m) => (
        <li key={m.key} className={`chat-msg chat-msg--${m.sender === ownSide ? "own" : "other"}${m.automatic ? " chat-msg--auto" : ""}`}>
          <p className="chat-msg__meta">
            <strong>{m.author ?? (m.sender === "USER" ? you : m.automatic ? automatic : agent)}</strong>{" "}
            <time dateTime={m.createdAt}>{formatLongDate(m.createdAt, i18n.language)}</time>
          </p>
          <p className="chat-msg__text">{m.text}</p>
        </li>
      ))}
    </ol>
  );
}

/** The home feed's support chat panel: the open chat and its last answer, or that support is unavailable. */
export function ChatSessionPanel({ item }: { item: FeedItem }) {
  const { t, i18n } = useTranslation();
  const unavailable = item.status === "UNAVAILABLE";
  return (
    <article className="panel feed-item feed-item--chat" aria-labelledby={`${item.id}-title`}>
      <div className="panel__head">
        <h3 id={`${item.id}-title`} className="panel__title">
          {t("feed.chat.title")}
        </h3>
        {!unavailable ? (
          <Link to="/agentchat" className="panel__link">
            {t("feed.chat.open")}
          </Link>
        ) : null}
      </div>
      {unavailable ? (
        <p role="status">{t("feed.chat.unavailable")}</p>
      ) : (
        <>
          <p>{item.messageText ? truncateText(item.messageText) : t("feed.chat.noAnswer")}</p>
          {item.lastInteraction ? (
            <p className="feed-item__meta">
              <time dateTime={item.lastInteraction}>{formatLongDate(item.lastInteraction, i18n.language)}</time>
            </p>
          ) : null}
        </>
      )}
    </article>
  );
}
