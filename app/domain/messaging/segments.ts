// SMS segments and credits. Pure and shared with the browser (the composer counts as you type):
// no Node imports.
//
// GSM-7 (3GPP TS 23.038, "GSM 03.38"): the 128-character basic set costs one septet a character; the
// extension table (^ { } \ [ ] ~ | € and form feed) costs two (an escape, then the character), and an
// escape pair is never split across segments. One character outside both tables switches the whole
// message to UCS-2, counted in UTF-16 code units (an emoji outside the BMP costs two), where a
// segment boundary never falls inside a surrogate pair nor inside a grapheme (a flag, a ZWJ family,
// a letter with its combining marks): segments are filled with whole graphemes.
//
//   single segment: 160 septets / 70 code units;  concatenated: 153 septets / 67 code units each
//   (the rest of each 140-byte part holds the 6-byte user data header).

export type Encoding = "GSM-7" | "UCS-2";

export interface SegmentAnalysis {
  encoding: Encoding;
  /** Number of SMS parts the text is sent as (0 for an empty text). */
  segments: number;
  /** What a person counts as characters: user-perceived graphemes. */
  characters: number;
  /** Graphemes that forced UCS-2, unique, in order of first appearance (empty in GSM-7). */
  nonGsmCharacters: string[];
  /** Septets (GSM-7) or UTF-16 code units (UCS-2) the text needs, before segment padding. */
  unitsUsed: number;
  /** Capacity of each segment for this text: 160/153 (GSM-7) or 70/67 (UCS-2). */
  unitsPerSegment: number;
}

export const GSM_SINGLE = 160;
export const GSM_MULTI = 153;
export const UCS2_SINGLE = 70;
export const UCS2_MULTI = 67;
/** Longest message text accepted, in characters as a person counts them (graphemes). */
export const MAX_MESSAGE_CHARACTERS = 1600;

/** The GSM 03.38 basic character set (the escape 0x1B is not a character and is left out). */
export const GSM_BASIC =
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?" +
  "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà";

/** The GSM 03.38 extension table: each costs two septets. */
export const GSM_EXTENSION = "\f^{}\\[~]|€";

const BASIC = new Set<number>();
for (const ch of GSM_BASIC) BASIC.add(ch.charCodeAt(0));
const EXTENSION = new Set<number>();
for (const ch of GSM_EXTENSION) EXTENSION.add(ch.charCodeAt(0));

/** Septets a single UTF-16 code unit costs in GSM-7: 1, 2, or 0 when it is not in GSM-7 at all. */
export function gsmSeptets(codeUnit: number): 0 | 1 | 2 {
  if (BASIC.has(codeUnit)) return 1;
  if (EXTENSION.has(codeUnit)) return 2;
  return 0;
}

export function isGsmText(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (gsmSeptets(text.charCodeAt(i)) === 0) return false;
  return true;
}

type SegmenterLike = { segment(input: string): Iterable<{ segment: string }> };
let segmenter: SegmenterLike | null | undefined;

/** Splits text into user-perceived characters (Intl.Segmenter; code points where it is missing). */
export function graphemes(text: string): string[] {
  if (segmenter === undefined) {
    const Ctor = (Intl as unknown as { Segmenter?: new (locale?: string, options?: { granularity: string }) => SegmenterLike }).Segmenter;
    segmenter = Ctor ? new Ctor(undefined, { granularity: "grapheme" }) : null;
  }
  if (!segmenter) return Array.from(text);
  const out: string[] = [];
  for (const s of segmenter.segment(text)) out.push(s.segment);
  return out;
}

/** Counts the parts needed for items of the given sizes packed whole, in order, into parts of `capacity`. */
function pack(sizes: Iterable<number>, capacity: number): number {
  let parts = 0;
  let room = 0;
  for (const size of sizes) {
    if (size > room) {
      parts++;
      room = capacity;
    }
    room -= size;
  }
  return parts;
}

/** Code-point sizes of a grapheme too long for one UCS-2 part: it must be split, but never inside a surrogate pair. */
function* codePointSizes(grapheme: string): Generator<number> {
  for (const cp of grapheme) yield cp.length;
}

function* ucs2Sizes(parts: string[]): Generator<number> {
  for (const g of parts) {
    if (g.length <= UCS2_MULTI) yield g.length;
    else yield* codePointSizes(g);
  }
}

function* gsmSizes(text: string): Generator<number> {
  for (let i = 0; i < text.length; i++) yield gsmSeptets(text.charCodeAt(i));
}

/** The encoding, segment count and character count of a text, as a handset and the provider see it. */
export function analyse(text: string): SegmentAnalysis {
  if (isGsmText(text)) {
    let septets = 0;
    let crlf = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      septets += gsmSeptets(c);
      if (c === 13 && text.charCodeAt(i + 1) === 10) crlf++;
    }
    // Every GSM character is one code point, so graphemes are code units less the CR LF pairs.
    const characters = text.length - crlf;
    if (septets <= GSM_SINGLE) {
      return { encoding: "GSM-7", segments: septets === 0 ? 0 : 1, characters, nonGsmCharacters: [], unitsUsed: septets, unitsPerSegment: GSM_SINGLE };
    }
    // An escape pair is one item of size 2, so it always lands whole in one part.
    return { encoding: "GSM-7", segments: pack(gsmSizes(text), GSM_MULTI), characters, nonGsmCharacters: [], unitsUsed: septets, unitsPerSegment: GSM_MULTI };
  }

  const parts = graphemes(text);
  const seen = new Set<string>();
  const nonGsm: string[] = [];
  for (const g of parts) {
    if (!seen.has(g) && !isGsmText(g)) {
      seen.add(g);
      nonGsm.push(g);
    }
  }
  const units = text.length;
  if (units <= UCS2_SINGLE) {
    return { encoding: "UCS-2", segments: 1, characters: parts.length, nonGsmCharacters: nonGsm, unitsUsed: units, unitsPerSegment: UCS2_SINGLE };
  }
  return {
    encoding: "UCS-2",
    segments: pack(ucs2Sizes(parts), UCS2_MULTI),
    characters: parts.length,
    nonGsmCharacters: nonGsm,
    unitsUsed: units,
    unitsPerSegment: UCS2_MULTI,
  };
}

/** Segments a text needs; the cheap call for the sending pipeline. */
export function segmentsFor(text: string): number {
  return analyse(text).segments;
}

/** Credits a send costs: one per segment per recipient. */
export function creditsFor(text: string, recipients: number): number {
  if (!Number.isInteger(recipients) || recipients < 0) throw new RangeError("recipients must be a whole number, 0 or more");
  return analyse(text).segments * recipients;
}

/**
 * Typographic characters that word processors and phones put in, with the GSM-7 text that looks the
 * same. Offered by the composer so one curly quote does not double the cost of a text.
 */
export const gsmReplacements: Readonly<Record<string, string>> = Object.freeze({
  // quotes and primes
  "\u2018": "'", "\u2019": "'", "\u201A": "'", "\u201B": "'", "\u2032": "'", "\u00B4": "'", "\u0060": "'",
  "\u201C": '"', "\u201D": '"', "\u201E": '"', "\u201F": '"', "\u2033": '"', "\u00AB": '"', "\u00BB": '"',
  "\u2039": "'", "\u203A": "'",
  // dashes and hyphens
  "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-", "\u00AD": "",
  // ellipsis and bullets
  "\u2026": "...", "\u2022": "-", "\u00B7": ".",
  // spaces
  "\u00A0": " ", "\u2000": " ", "\u2001": " ", "\u2002": " ", "\u2003": " ", "\u2004": " ", "\u2005": " ",
  "\u2006": " ", "\u2007": " ", "\u2008": " ", "\u2009": " ", "\u200A": " ", "\u202F": " ", "\u205F": " ",
  "\u3000": " ", "\t": " ",
  // invisible characters (the zero-width joiner is kept: it binds emoji sequences)
  "\u200B": "", "\uFEFF": "", "\u2060": "",
  // line separators
  "\u2028": "\n", "\u2029": "\n", "\u0085": "\n",
  // lookalikes
  "\u02C6": "^", "\u02DC": "~", "\u2044": "/", "\u00F7": "/", "\u00D7": "x",
});

/** Replaces the characters of `gsmReplacements`; anything else is left as it is. */
export function toGsm(text: string): string {
  let out = "";
  for (const ch of text) {
    const r = gsmReplacements[ch];
    out += r === undefined ? ch : r;
  }
  return out;
}
