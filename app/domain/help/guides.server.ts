// The help centre's guides: Markdown files in content/help/<locale>/<slug>.md, bundled into the server at build
// time, rendered once to HTML by markdown-it with raw HTML turned off (so a guide can only hold Markdown: no
// script, no style, no event handler; markdown-it also refuses javascript: and similar link targets), and
// searched with MiniSearch over each guide's title, text and video captions. A line `{video:<id>}` places one of
// the catalogue's videos at that point of the guide.
import MarkdownIt from "markdown-it";
import MiniSearch from "minisearch";
import type { Database } from "#db/index";
import { markHelpSectionViewed } from "~/domain/accounts/status.server";
import { QUICK_START_SECTION } from "~/domain/feed/feed.server";
import { GET_STARTED_SLUG, GUIDE_SLUGS, HELP_LOCALES, HELP_VIDEOS, SEARCH_QUERY_MAX, type GuideSlug, type HelpLocale } from "./catalogue";

const sources = import.meta.glob<string>("../../../content/help/*/*.md", { eager: true, query: "?raw", import: "default" });

export type GuidePart = { kind: "html"; html: string } | { kind: "video"; id: string };

export interface Guide {
  slug: GuideSlug;
  locale: HelpLocale;
  title: string;
  summary: string;
  /** The body after the title, in order: rendered Markdown and the videos between. */
  parts: GuidePart[];
  /** Plain text of the body (for search). */
  text: string;
  /** The body's section headings (for search, where they weigh more than the text). */
  headings: string[];
}

export interface GuideSummary {
  slug: GuideSlug;
  title: string;
  summary: string;
}

export interface SearchHit extends GuideSummary {
  /** A short passage around the first word found, as plain text. */
  excerpt: string;
}

const VIDEO_LINE = /^\{video:([a-z0-9-]+)\}[ \t]*$/gm;

/** Heading anchors: lower-case words joined by hyphens ("Quick poll" → "quick-poll"), accents removed. */
export function anchorOf(text: string): string {
  return text
    .replace(/œ/gi, "oe")
    .replace(/æ/gi, "ae")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function markdown() {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  // Headings get an id, so a section (a campaign type, say) can be linked to.
  md.core.ruler.push("heading_ids", (state) => {
    const tokens = state.tokens;
    for (let i = 0; i < tokens.length; i++) {
      if (tokens[i].type !== "heading_open") continue;
      const inline = tokens[i + 1];
      if (inline?.type === "inline") tokens[i].attrSet("id", anchorOf(inline.content));
    }
  });
  // Tables scroll on their own on a narrow screen.
  md.renderer.rules.table_open = () => '<div class="table-wrap"><table class="help-table">\n';
  md.renderer.rules.table_close = () => "</table></div>\n";
  return md;
}

const md = markdown();

/** The headings of a Markdown text, as plain text. */
function headingsOf(source: string): string[] {
  const tokens = md.parse(source, {});
  return tokens.flatMap((t, i) => (t.type === "heading_open" && tokens[i + 1]?.type === "inline" ? [tokens[i + 1].content] : []));
}

/** The plain words of a Markdown text (no markup), one paragraph or list item a line. */
function plainText(source: string): string {
  const out: string[] = [];
  for (const token of md.parse(source, {})) {
    if (token.type !== "inline") continue;
    out.push((token.children ?? []).filter((c) => c.type === "text" || c.type === "code_inline").map((c) => c.content).join(""));
  }
  return out.join("\n");
}

function parseGuide(slug: GuideSlug, locale: HelpLocale, source: string): Guide {
  const titleMatch = /^#[ \t]+(.+)$/m.exec(source);
  if (!titleMatch) throw new Error(`help guide ${locale}/${slug} has no title line`);
  const title = titleMatch[1].trim();
  const body = source.slice(titleMatch.index + titleMatch[0].length).trim();
  const parts: GuidePart[] = [];
  let last = 0;
  for (const m of body.matchAll(VIDEO_LINE)) {
    const chunk = body.slice(last, m.index).trim();
    if (chunk) parts.push({ kind: "html", html: md.render(chunk) });
    parts.push({ kind: "video", id: m[1] });
    last = m.index + m[0].length;
  }
  const rest = body.slice(last).trim();
  if (rest) parts.push({ kind: "html", html: md.render(rest) });
  const withoutVideos = body.replace(VIDEO_LINE, "");
  const firstParagraph = withoutVideos.split(/\n\s*\n/).find((p) => p.trim() && !p.trim().startsWith("#")) ?? "";
  return { slug, locale, title, summary: plainText(firstParagraph), parts, text: plainText(withoutVideos), headings: headingsOf(withoutVideos) };
}

function loadGuides(): Map<string, Guide> {
  const guides = new Map<string, Guide>();
  for (const [file, source] of Object.entries(sources)) {
    const m = /content\/help\/([^/]+)\/([^/]+)\.md$/.exec(file);
    if (!m) continue;
    const [, locale, slug] = m;
    if (!(HELP_LOCALES as readonly string[]).includes(locale) || !(GUIDE_SLUGS as readonly string[]).includes(slug)) continue;
    guides.set(`${locale}/${slug}`, parseGuide(slug as GuideSlug, locale as HelpLocale, source));
  }
  return guides;
}

let cache: Map<string, Guide> | null = null;
function all(): Map<string, Guide> {
  cache ??= loadGuides();
  return cache;
}

/** One guide in one locale, or null when there is none. */
export function getGuide(locale: HelpLocale, slug: GuideSlug): Guide | null {
  return all().get(`${locale}/${slug}`) ?? null;
}

/** Every guide of a locale, in the catalogue's order. */
export function listGuides(locale: HelpLocale): GuideSummary[] {
  return GUIDE_SLUGS.map((slug) => getGuide(locale, slug))
    .filter((g): g is Guide => g !== null)
    .map(({ slug, title, summary }) => ({ slug, title, summary }));
}

/** Lower case without accents, so "desabonner" finds "désabonner" and "Opt" finds "opt". */
function fold(term: string): string {
  return term.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

interface Indexed {
  id: string;
  slug: GuideSlug;
  title: string;
  headings: string;
  text: string;
  captions: string;
}

const indexes = new Map<HelpLocale, MiniSearch<Indexed>>();

function indexFor(locale: HelpLocale): MiniSearch<Indexed> {
  const existing = indexes.get(locale);
  if (existing) return existing;
  const index = new MiniSearch<Indexed>({
    fields: ["title", "headings", "text", "captions"],
    storeFields: ["slug"],
    processTerm: (term) => fold(term) || null,
    // Slight typos are forgiven in longer words only: "shop" must not find "stop".
    searchOptions: { boost: { title: 3, headings: 2 }, prefix: true, fuzzy: (term) => (term.length >= 6 ? 0.2 : false), combineWith: "AND" },
  });
  for (const slug of GUIDE_SLUGS) {
    const g = getGuide(locale, slug);
    if (!g) continue;
    const captions = HELP_VIDEOS.filter((v) => v.guide === slug)
      .flatMap((v) => v.captions[locale])
      .join("\n");
    index.add({ id: slug, slug, title: g.title, headings: g.headings.join("\n"), text: g.text, captions });
  }
  indexes.set(locale, index);
  return index;
}


/**
 * The paragraph where one of the words first appears: whole when short, otherwise about 160 characters around the
 * word, cut at spaces and marked with an ellipsis. The summary when no word appears as written (a fuzzy match).
 */
function excerptOf(guide: Guide, words: string[]): string {
  const folded = fold(guide.text);
  let at = -1;
  for (const w of words) {
    const i = folded.indexOf(fold(w));
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  if (at < 0) return guide.summary;
  const lineStart = guide.text.lastIndexOf("\n", at) + 1;
  const lineEnd = guide.text.indexOf("\n", at) < 0 ? guide.text.length : guide.text.indexOf("\n", at);
  let line = guide.text.slice(lineStart, lineEnd);
  let local = at - lineStart;
  // A word found in a section heading: show the heading's first paragraph.
  if (guide.headings.includes(line) && lineEnd < guide.text.length) {
    const next = guide.text.indexOf("\n", lineEnd + 1);
    line = guide.text.slice(lineEnd + 1, next < 0 ? guide.text.length : next);
    local = 0;
  }
  if (line.length <= 200) return line;
  let from = Math.max(0, local - 60);
  let to = Math.min(line.length, from + 160);
  if (from > 0) from = line.indexOf(" ", from) + 1 || from;
  if (to < line.length) to = line.lastIndexOf(" ", to) > local ? line.lastIndexOf(" ", to) : to;
  return `${from > 0 ? "…" : ""}${line.slice(from, to).trim()}${to < line.length ? "…" : ""}`;
}

/** The guides of a locale matching every word of the query (titles count most), best first. */
export function searchGuides(locale: HelpLocale, query: string): SearchHit[] {
  const q = query.slice(0, SEARCH_QUERY_MAX).trim();
  if (!q) return [];
  const words = q.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return indexFor(locale)
    .search(q)
    .map((r) => getGuide(locale, r.id as GuideSlug))
    .filter((g): g is Guide => g !== null)
    .map((g) => ({ slug: g.slug, title: g.title, summary: g.summary, excerpt: excerptOf(g, words) }));
}

/**
 * Opening a guide: the getting-started guide records the quick start as seen (the home page's quick-start
 * panel then hides, §4), once. Someone looking at the account through admin access records nothing.
 */
export async function recordGuideOpened(db: Database, user: { userId: number; adminAccess: boolean }, slug: GuideSlug, now: Date): Promise<void> {
  if (slug !== GET_STARTED_SLUG || user.adminAccess) return;
  const seen = await db
    .selectFrom("help_sections_viewed")
    .select("section")
    .where("user_id", "=", user.userId)
    .where("section", "=", QUICK_START_SECTION)
    .executeTakeFirst();
  if (!seen) await markHelpSectionViewed(db, user.userId, QUICK_START_SECTION, now);
}
