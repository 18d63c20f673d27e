// Merge-tag picker for every message editor. Without JavaScript it is a plain list of the tags to
// type ({{firstName}} …); with JavaScript each tag becomes a button that inserts it at the cursor in
// the textarea named by `textareaId` (and fires an input event so counters and previews update).
// Custom attributes come from the page (listAttributes gives key and name); so do integration tags
// ({{shopify.code}}, offered only once a shop is connected: integrationMergeTags).
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { CUSTOM_PREFIX, MERGE_TAG_CATALOGUE, type CustomTag } from "~/domain/messaging/merge";

export type { CustomTag };

/** Inserts text at the cursor of a textarea (or input), keeping React's value tracker in step. */
export function insertAtCursor(el: HTMLTextAreaElement | HTMLInputElement, text: string): void {
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? el.value.length;
  const next = el.value.slice(0, start) + text + el.value.slice(end);
  const descriptor = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), "value");
  if (descriptor?.set) descriptor.set.call(el, next);
  else el.value = next;
  el.dispatchEvent(new Event("input", { bubbles: true }));
  el.focus();
  const caret = start + text.length;
  el.setSelectionRange(caret, caret);
}

export function MergeTagPicker({
  textareaId,
  custom = [],
  integration = [],
  id = "merge-tags",
  headingLevel = 3,
}: {
  textareaId: string;
  custom?: CustomTag[];
  /** Integration tags the business can use (e.g. "shopify.code"). */
  integration?: readonly string[];
  id?: string;
  /** The picker's heading level, one below the page's heading above it (its categories one lower). */
  headingLevel?: 2 | 3;
}) {
  const { t } = useTranslation();
  const Title = headingLevel === 2 ? "h2" : "h3";
  const Category = headingLevel === 2 ? "h3" : "h4";
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  const groups: { key: string; title: string; tags: { tag: string; label: string }[] }[] = [
    { key: "member", title: t("mergetags.category.member"), tags: MERGE_TAG_CATALOGUE.member.map((tag) => ({ tag, label: t(`mergetags.tag.${tag}`) })) },
    { key: "business", title: t("mergetags.category.business"), tags: MERGE_TAG_CATALOGUE.business.map((tag) => ({ tag, label: t(`mergetags.tag.${tag}`) })) },
    { key: "system", title: t("mergetags.category.system"), tags: MERGE_TAG_CATALOGUE.system.map((tag) => ({ tag, label: t(`mergetags.tag.${tag}`) })) },
    { key: "custom", title: t("mergetags.category.custom"), tags: custom.map((c) => ({ tag: `${CUSTOM_PREFIX}${c.key}`, label: c.name })) },
    { key: "integration", title: t("shop.mergeTags.category"), tags: integration.map((tag) => ({ tag, label: tag === "shopify.code" ? t("shop.mergeTags.shopifyCode") : tag })) },
  ].filter((g) => g.tags.length);
  return (
    <section className="merge-tags" aria-labelledby={`${id}-title`}>
      <Title id={`${id}-title`} className="merge-tags__title">
        {t("mergetags.title")}
      </Title>
      <p className="field__hint">{enhanced ? t("mergetags.hintJs") : t("mergetags.hintNoJs")} {t("mergetags.fallback", { example: "{{firstName|there}}", interpolation: { escapeValue: false } })}</p>
      {groups.map((g) => (
        <div key={g.key} className="merge-tags__group">
          <Category className="merge-tags__category">{g.title}</Category>
          <ul className="merge-tags__list">
            {g.tags.map(({ tag, label }) => (
              <li key={tag}>
                {enhanced ? (
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    aria-label={t("mergetags.insert", { label })}
                    onClick={() => {
                      const el = document.getElementById(textareaId);
                      if (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) insertAtCursor(el, `{{${tag}}}`);
                    }}
                  >
                    {label}
                  </button>
                ) : (
                  <>
                    {label}: <code>{`{{${tag}}}`}</code>
                  </>
                )}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
