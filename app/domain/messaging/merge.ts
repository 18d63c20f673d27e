// Merge tags: {{tagName}} or {{tagName|fallback}} in a message template, rendered per member.
// Pure and shared with the browser (previews, the picker in app/components/merge-tag-picker.tsx).
//
// Tags, by category (MERGE_TAG_CATALOGUE):
//   business   {{businessName}} {{businessNumber}} {{joinKeyword}}
//   system     {{memberFormLink}}   (the member's own form, /myinfo/<ref>; the checkout link comes with campaigns)
//   member     {{firstName}} {{fullName}} {{birthday}} {{appointmentDate}} {{appointmentTime}}
//   custom     {{attr.<key>}}      a business's own member attribute, by its key (e.g. {{attr.favouriteCake}})
//   integration {{shopify.code}}  a discount code of the member's own from the connected shop: made ahead and
//              reserved per member by the pipeline (domain/shop/codes.server.ts); offered once a shop is connected.
// Every tag takes a fallback for empty values: {{firstName|there}}.
//
// A template is compiled once into literal and tag parts, then rendered cheaply for every member
// (a 100,000-member send renders 100,000 times). An empty value uses the tag's fallback; a tag
// nobody knows stays as typed, so the person sees it in the preview rather than losing text.
// `usesExtendedValues` tells the pipeline whether it must load more than names for each member
// (mergeValuesForMembers in merge-values.server.ts beside it, batched per page).

import { formatUkDayMonthAndTime } from "~/lib/uk-time";

export interface MergeValues {
  firstName?: string | null;
  fullName?: string | null;
  businessName?: string | null;
  businessNumber?: string | null;
  joinKeyword?: string | null;
  memberFormLink?: string | null;
  /** Already formatted for reading ("14 March"). */
  birthday?: string | null;
  appointmentDate?: string | null;
  appointmentTime?: string | null;
  /** Custom attribute values by key, formatted for reading. */
  custom?: Record<string, string | null | undefined> | null;
  /** The member's own discount code ({{shopify.code}}). */
  shopifyCode?: string | null;
}

/** The basic tags every message editor has always offered. */
export const MERGE_TAGS = ["firstName", "fullName", "businessName"] as const;
export type MergeTag = (typeof MERGE_TAGS)[number];

export const BUSINESS_TAGS = ["businessName", "businessNumber", "joinKeyword"] as const;
export const SYSTEM_TAGS = ["memberFormLink"] as const;
export const MEMBER_TAGS = ["firstName", "fullName", "birthday", "appointmentDate", "appointmentTime"] as const;
/** Integration tags: a connected shop's discount code, one per member. */
export const INTEGRATION_TAGS = ["shopify.code"] as const;
export type IntegrationTag = (typeof INTEGRATION_TAGS)[number];
export type BuiltInTag = (typeof BUSINESS_TAGS)[number] | (typeof SYSTEM_TAGS)[number] | (typeof MEMBER_TAGS)[number] | IntegrationTag;
export const BUILT_IN_TAGS: readonly BuiltInTag[] = [...MEMBER_TAGS, ...BUSINESS_TAGS.filter((t) => t !== "businessName"), "businessName", ...SYSTEM_TAGS, ...INTEGRATION_TAGS];

export const MERGE_TAG_CATALOGUE = {
  business: BUSINESS_TAGS,
  system: SYSTEM_TAGS,
  member: MEMBER_TAGS,
  integration: INTEGRATION_TAGS,
} as const;

/** Tags that need more than the member's names and the business name (loaded per page of members). */
const EXTENDED = new Set<string>(["memberFormLink", "birthday", "appointmentDate", "appointmentTime"]);
const KNOWN = new Set<string>(BUILT_IN_TAGS);
export const CUSTOM_PREFIX = "attr.";
const TAG = /\{\{\s*([A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]{1,40})?)\s*(?:\|([^{}]*))?\}\}/g;

type Part = string | { tag: string; custom: boolean; fallback: string };

export interface CompiledTemplate {
  readonly parts: readonly Part[];
  /** True when the text has no tags: every member gets the same body. */
  readonly constant: boolean;
  /** True when rendering needs member details beyond names (see mergeValuesForMembers). */
  readonly usesExtendedValues: boolean;
  /** The custom attribute keys the text uses ({{attr.key}}). */
  readonly customKeys: readonly string[];
  /** True when the text gives each member a discount code ({{shopify.code}}). */
  readonly usesShopCode: boolean;
  render(values: MergeValues): string;
}

export function compileTemplate(template: string): CompiledTemplate {
  const parts: Part[] = [];
  const customKeys = new Set<string>();
  let extended = false;
  let shopCode = false;
  let last = 0;
  for (const m of template.matchAll(TAG)) {
    const name = m[1];
    const custom = name.startsWith(CUSTOM_PREFIX) && name.length > CUSTOM_PREFIX.length;
    if (!custom && !KNOWN.has(name)) continue;
    if (m.index > last) parts.push(template.slice(last, m.index));
    const tag = custom ? name.slice(CUSTOM_PREFIX.length) : name;
    parts.push({ tag, custom, fallback: (m[2] ?? "").trim() });
    if (custom) customKeys.add(tag);
    if (custom || EXTENDED.has(name)) extended = true;
    if (name === "shopify.code") shopCode = true;
    last = m.index + m[0].length;
  }
  if (last < template.length) parts.push(template.slice(last));
  const constant = parts.every((p) => typeof p === "string");
  const text = constant ? parts.join("") : "";
  return {
    parts,
    constant,
    usesExtendedValues: extended,
    customKeys: [...customKeys],
    usesShopCode: shopCode,
    render(values: MergeValues): string {
      if (constant) return text;
      let out = "";
      for (const p of parts) {
        if (typeof p === "string") out += p;
        else {
          const v = p.custom ? (values.custom?.[p.tag]?.trim() ?? "") : valueOf(p.tag as BuiltInTag, values);
          out += v ? v : p.fallback;
        }
      }
      return out;
    },
  };
}

function valueOf(tag: BuiltInTag, values: MergeValues): string {
  switch (tag) {
    case "firstName": {
      const first = values.firstName?.trim();
      if (first) return first;
      // A member with only a full name is still greeted by their first name.
      return values.fullName?.trim().split(/\s+/)[0] ?? "";
    }
    case "fullName":
      return values.fullName?.trim() || values.firstName?.trim() || "";
    case "shopify.code":
      return values.shopifyCode?.trim() ?? "";
    default:
      return values[tag]?.trim() ?? "";
  }
}

/** Renders a template once (compile and render; use compileTemplate for many members). */
export function renderTemplate(template: string, values: MergeValues): string {
  return compileTemplate(template).render(values);
}

const MONTHS_EN = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "MM-DD" -> "14 March" (a birthday has no year). Empty when malformed. */
export function formatBirthday(mmdd: string | null | undefined): string {
  const m = /^(\d{2})-(\d{2})$/.exec(mmdd ?? "");
  if (!m || +m[1] < 1 || +m[1] > 12 || +m[2] < 1 || +m[2] > 31) return "";
  return `${+m[2]} ${MONTHS_EN[+m[1] - 1]}`;
}

/** An ISO instant as the UK date ("21 November") and time ("14:05"). */
export function formatAppointment(iso: string | null | undefined): { date: string; time: string } {
  const d = iso ? new Date(iso) : null;
  if (!d || Number.isNaN(d.getTime())) return { date: "", time: "" };
  return formatUkDayMonthAndTime(d);
}

/** A business's own merge tag ({{attr.key}}): its key and the attribute's name. */
export interface CustomTag {
  key: string;
  name: string;
}

// ---- checks at compose time ----

/** Anything written as a merge tag: {{name}} or {{name|fallback}}, whatever the name. */
const ANY_TAG = /\{\{\s*([^{}|]*?)\s*(?:\|[^{}]*)?\}\}/g;

export interface UnknownTag {
  /** The tag as written, braces included. */
  written: string;
  /** The closest known tag, braces included, or null when none is close. */
  suggestion: string | null;
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/**
 * The tags a text uses that would not be filled in: misspelt ({{firstname}}), unknown ({{nosuchtag}}), or a
 * custom attribute the business does not have. Each comes with the closest known tag, if one is close.
 * `customKeys` lists the business's own attribute keys; without it, {{attr.…}} tags are not checked.
 */
export function unknownTags(template: string, customKeys?: readonly string[]): UnknownTag[] {
  const known = [...BUILT_IN_TAGS, ...(customKeys ?? []).map((k) => CUSTOM_PREFIX + k)];
  const out: UnknownTag[] = [];
  for (const m of template.matchAll(ANY_TAG)) {
    const name = m[1];
    if (KNOWN.has(name)) continue;
    if (name.startsWith(CUSTOM_PREFIX) && (!customKeys || customKeys.includes(name.slice(CUSTOM_PREFIX.length)))) continue;
    const lower = name.toLowerCase().replace(/[\s_-]/g, "");
    let best: string | null = null;
    let bestScore = Infinity;
    for (const k of known) {
      const score = k.toLowerCase() === lower ? 0 : distance(lower, k.toLowerCase());
      if (score < bestScore) {
        best = k;
        bestScore = score;
      }
    }
    const close = best !== null && bestScore <= Math.max(2, Math.floor(best.length / 3));
    out.push({ written: m[0], suggestion: close ? `{{${best}}}` : null });
  }
  return out;
}

/** The line that tells a member how to stop marketing texts, in the business's language. */
export const OPT_OUT_LINES: Record<string, string> = {
  "en-GB": "Reply STOP to opt out",
  fr: "Répondez STOP pour vous désabonner",
};

/** Whether a text already tells the member how to stop (names STOP, or the French ARRET). */
export function mentionsStop(text: string): boolean {
  return /(^|[^\p{L}-])(STOP|ARR[EÊ]T)([^\p{L}-]|$)/iu.test(text);
}

/**
 * A marketing text (group messages, campaigns) must offer a way to stop: the opt-out line is added to a text that
 * lacks one. Returns the text to send and whether the line was added, so the owner can be told why.
 */
export function withOptOutLine(text: string, locale: string): { body: string; added: boolean } {
  if (mentionsStop(text)) return { body: text, added: false };
  const line = OPT_OUT_LINES[locale] ?? OPT_OUT_LINES["en-GB"];
  return { body: `${text.replace(/\s+$/, "")}\n${line}`, added: true };
}
