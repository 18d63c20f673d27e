// The help centre's content: every guide in both languages under the same slugs, rendered without raw HTML,
// found by a word of its body in English and in French, linking only to pages the app has; and every video
// a guide shows committed with its captions in both languages, matching the transcript shown under it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "~/routes";
import { GUIDE_SLUGS, HELP_LOCALES, HELP_VIDEOS, videoFiles } from "~/domain/help/catalogue";
import { anchorOf, getGuide, listGuides, searchGuides } from "~/domain/help/guides.server";

const PUBLIC = path.resolve(import.meta.dirname, "../../public");

function routePatterns(entries: RouteConfigEntry[], parent = ""): string[] {
  return entries.flatMap((e) => {
    const p = e.path ? `${parent}/${e.path}` : parent;
    return [...(e.children?.length ? [] : [p || "/"]), ...routePatterns(e.children ?? [], p)];
  });
}

function routeExists(pathname: string): boolean {
  return routePatterns(routes).some((pattern) => {
    if (pattern.endsWith("*")) return false;
    const re = new RegExp(`^${pattern.replace(/:[A-Za-z0-9_]+/g, "[^/]+")}$`);
    return re.test(pathname);
  });
}

/** The cues of a WebVTT file: their text, in order. */
function vttCues(text: string): string[] {
  expect(text.startsWith("WEBVTT")).toBe(true);
  return text
    .split(/\r?\n\r?\n/)
    .filter((block) => block.includes("-->"))
    .map((block) => {
      const lines = block.split(/\r?\n/);
      const at = lines.findIndex((l) => l.includes("-->"));
      expect(lines[at]).toMatch(/^\d{2}:\d{2}:\d{2}\.\d{3} --> \d{2}:\d{2}:\d{2}\.\d{3}/);
      return lines.slice(at + 1).join("\n").trim();
    });
}

describe("help guides", () => {
  it("exist in en-GB and French with the same slugs, each with a title, a summary and a body", () => {
    for (const locale of HELP_LOCALES) {
      expect(listGuides(locale).map((g) => g.slug)).toEqual([...GUIDE_SLUGS]);
      for (const slug of GUIDE_SLUGS) {
        const g = getGuide(locale, slug)!;
        expect(g.title.length).toBeGreaterThan(3);
        expect(g.summary.length).toBeGreaterThan(20);
        expect(g.text.length).toBeGreaterThan(300);
      }
    }
    // The French is French, not a copy.
    expect(getGuide("fr", "billing")!.title).not.toBe(getGuide("en-GB", "billing")!.title);
    const files = (locale: string) => fs.readdirSync(path.resolve(import.meta.dirname, `../../content/help/${locale}`)).sort();
    expect(files("fr")).toEqual(files("en-GB"));
  });

  it("renders Markdown only: markup written in a guide is shown as text, and headings get anchors", () => {
    const html = getGuide("en-GB", "campaigns")!.parts.map((p) => (p.kind === "html" ? p.html : "")).join("");
    expect(html).toContain('<h2 id="quick-poll">Quick poll</h2>');
    expect(html).not.toMatch(/<(script|style|iframe)/i);
    expect(anchorOf("Vœux d’anniversaire")).toBe("voeux-d-anniversaire");
  });

  it("describes each of the ten campaign types in both languages", () => {
    for (const locale of HELP_LOCALES) {
      const headings = getGuide(locale, "campaigns")!.parts.flatMap((p) => (p.kind === "html" ? [...p.html.matchAll(/<h2 id="[^"]+">/g)] : []));
      expect(headings.length).toBe(11); // ten types and what a failure means
    }
  });

  it("finds a guide by a word of its body, in English and in French (accents optional)", () => {
    expect(searchGuides("en-GB", "quiet hours").map((h) => h.slug)).toContain("joining-and-leaving");
    expect(searchGuides("en-GB", "waitlist").map((h) => h.slug)).toEqual(["campaigns"]);
    const hit = searchGuides("en-GB", "segment")[0];
    expect(hit.slug).toBe("group-messages");
    expect(hit.excerpt.toLowerCase()).toContain("segment");
    expect(searchGuides("fr", "désabonner").map((h) => h.slug)).toContain("joining-and-leaving");
    expect(searchGuides("fr", "gagnants").map((h) => h.slug)).toEqual(["campaigns"]);
    expect(searchGuides("fr", "desabonner").map((h) => h.slug)).toContain("joining-and-leaving");
    expect(searchGuides("en-GB", "zzqx nothing")).toEqual([]);
    expect(searchGuides("en-GB", "   ")).toEqual([]);
    expect(searchGuides("en-GB", "<script>alert(1)</script>")).toEqual([]);
  });

  it("links only to pages the app has", () => {
    for (const locale of HELP_LOCALES) {
      for (const slug of GUIDE_SLUGS) {
        const html = getGuide(locale, slug)!.parts.map((p) => (p.kind === "html" ? p.html : "")).join("");
        for (const [, href] of html.matchAll(/href="([^"]+)"/g)) {
          expect(href.startsWith("/"), `${locale}/${slug}: ${href}`).toBe(true);
          expect(routeExists(href.split("#")[0]), `${locale}/${slug} links to ${href}`).toBe(true);
        }
      }
    }
  });
});

describe("help videos", () => {
  const placed = GUIDE_SLUGS.flatMap((slug) => getGuide("en-GB", slug)!.parts.flatMap((p) => (p.kind === "video" ? [{ slug, id: p.id }] : [])));

  it("are placed in the same guides in both languages, and each is in the catalogue", () => {
    const placedFr = GUIDE_SLUGS.flatMap((slug) => getGuide("fr", slug)!.parts.flatMap((p) => (p.kind === "video" ? [{ slug, id: p.id }] : [])));
    expect(placedFr).toEqual(placed);
    expect(placed.map((p) => p.id).sort()).toEqual(HELP_VIDEOS.map((v) => v.id).sort());
    for (const p of placed) expect(HELP_VIDEOS.find((v) => v.id === p.id)?.guide).toBe(p.slug);
  });

  it("are committed as small WebM files with captions in both languages that match the transcripts", () => {
    for (const video of HELP_VIDEOS) {
      const files = videoFiles(video.id);
      const webm = fs.readFileSync(path.join(PUBLIC, files.webm));
      // The EBML magic number of a WebM (Matroska) file, and a size fit for a help page.
      expect(webm.subarray(0, 4).toString("hex")).toBe("1a45dfa3");
      expect(webm.length).toBeGreaterThan(10_000);
      expect(webm.length).toBeLessThan(1_600_000);
      for (const locale of HELP_LOCALES) {
        const vtt = fs.readFileSync(path.join(PUBLIC, files.captions[locale]), "utf8");
        expect(vttCues(vtt), `${video.id} ${locale}`).toEqual([...video.captions[locale]]);
      }
      expect(video.captions.fr.length).toBe(video.captions["en-GB"].length);
    }
  });
});
