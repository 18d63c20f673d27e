// The live segment and credit counter under the group-message text: characters of 1,600, texts
// per member, an estimate of the credits for the chosen group, and the characters that force UCS-2
// (70 characters a text instead of 160), highlighted. Pure: counts in the browser as you type
// (segments.ts), and the same numbers are rendered on the server, so it also reads without JavaScript.
import { useTranslation } from "react-i18next";
import { analyse } from "~/domain/messaging/segments";
import { GROUP_TEXT_MAX } from "~/domain/group-messages/text";

export function SegmentCounter({ text, members, id }: { text: string; members?: number | null; id?: string }) {
  const { t, i18n } = useTranslation();
  const a = analyse(text);
  const over = a.characters > GROUP_TEXT_MAX;
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  return (
    <div className={`segment-counter${over ? " segment-counter--over" : ""}`} id={id} aria-live="polite" data-encoding={a.encoding}>
      <p className="segment-counter__line">
        <span data-testid="characters">{t("groupmessages.counter.characters", { count: a.characters, max: fmt(GROUP_TEXT_MAX) })}</span>
        {" · "}
        <span data-testid="segments">{t("groupmessages.counter.segments", { count: a.segments })}</span>
        {members != null && members > 0 ? (
          <>
            {" · "}
            <span data-testid="credits">{t("groupmessages.counter.credits", { credits: fmt(a.segments * members), members: fmt(members) })}</span>
          </>
        ) : null}
      </p>
      {a.nonGsmCharacters.length > 0 ? (
        <p className="segment-counter__ucs2">
          {t("groupmessages.counter.nonGsm")}{" "}
          {a.nonGsmCharacters.map((c) => (
            <mark key={c} className="segment-counter__char">
              {c}
            </mark>
          ))}
        </p>
      ) : null}
    </div>
  );
}
