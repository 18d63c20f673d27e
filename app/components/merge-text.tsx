// A message text as the team reads it back: each merge tag ({{firstName|there}}) shows as a chip
// with its name ("First name", or "First name, or “there”") instead of the raw curly brackets.
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { CUSTOM_PREFIX } from "~/domain/messaging/merge";

// The tag grammar of the merge engine: a name (custom attributes as attr.key) and an optional fallback.
const TAG = /\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]{1,40})?)\s*(?:\|([^{}]*))?\}\}/g;

export function MergeText({ text, className }: { text: string; className?: string }) {
  const { t, i18n } = useTranslation();
  const parts: ReactNode[] = [];
  let last = 0;
  for (const m of text.matchAll(TAG)) {
    const at = m.index ?? 0;
    if (at > last) parts.push(text.slice(last, at));
    const tag = m[1];
    const known = `mergetags.tag.${tag}`;
    const name = tag.startsWith(CUSTOM_PREFIX) ? tag.slice(CUSTOM_PREFIX.length) : i18n.exists(known) ? t(known) : tag;
    const fallback = m[2]?.trim();
    parts.push(
      <span key={at} className="merge-chip" title={m[0]}>
        {fallback ? t("mergetags.chipWithFallback", { name, fallback }) : name}
      </span>,
    );
    last = at + m[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return <span className={className}>{parts}</span>;
}
