// The DM text box with the live segment counter (segments.ts analyse) and the merge-tag picker (every
// tag, custom {{attr.key}} ones from `customTags`), folded in a <details> so the reply box stays short.
// Server-rendered with the value kept; the counter updates as the member's owner types (with JS), and
// the picker's buttons insert at the cursor (without JS it lists the tags to type).
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { FieldMeta } from "~/components/form";
import { translateError } from "~/components/form";
import { analyse, MAX_MESSAGE_CHARACTERS } from "~/domain/messaging/segments";
import { MergeTagPicker, type CustomTag } from "~/components/merge-tag-picker";

export function DmComposer({ field, label, name = "text", customTags = [] }: { field: FieldMeta; label: string; name?: string; customTags?: CustomTag[] }) {
  const { t } = useTranslation();
  const [text, setText] = useState<string>(typeof field.initialValue === "string" ? field.initialValue : "");
  const a = analyse(text);
  const errors = [...new Set(field.errors ?? [])];
  const invalid = errors.length > 0;
  const counterId = `${field.id}-counter`;
  return (
    <div className={`field${invalid ? " field--invalid" : ""}`}>
      <label htmlFor={field.id}>{label}</label>
      <textarea
        id={field.id}
        name={name}
        key={field.key}
        rows={4}
        defaultValue={typeof field.initialValue === "string" ? field.initialValue : ""}
        onChange={(e) => setText(e.currentTarget.value)}
        aria-invalid={invalid || undefined}
        aria-describedby={[counterId, invalid ? field.errorId : null].filter(Boolean).join(" ")}
        maxLength={MAX_MESSAGE_CHARACTERS * 2}
      />
      <p className="field__hint dm-counter" id={counterId} aria-live="polite">
        {t("conversations.counter.characters", { count: a.characters, max: MAX_MESSAGE_CHARACTERS })}
        {" · "}
        {t("conversations.counter.segments", { count: a.segments, credits: a.segments })}
      </p>
      <details className="dm-tags">
        <summary>{t("conversations.counter.tagsSummary")}</summary>
        <MergeTagPicker textareaId={field.id} custom={customTags} id={`${field.id}-tags`} />
      </details>
      {invalid ? (
        <ul className="field__errors" id={field.errorId}>
          {errors.map((e) => (
            <li key={e}>{e.includes("|") ? translateError(t, e) : t(e, { field: label, max: MAX_MESSAGE_CHARACTERS })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
