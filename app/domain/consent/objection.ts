// Recognising a member's objection to marketing texts as people actually write it.
//
// PECR says any clear objection must be honoured, and people rarely send a bare "STOP": they write
// "stop please", "Stop texting me", "please take me off your list", "désabonnez-moi", or paste the
// word with an emoji, in full-width letters or with an invisible character copied from somewhere.
// This module turns a text into one of three verdicts:
//   - a compliance intent (STOP, START or HELP) that the inbound router can act on automatically;
//   - no intent but `maybeStop`, when the text looks like an objection without being clear enough to
//     act on alone (the owner's inbox flags it "may want to stop");
//   - an ordinary message.
// It is pure and dependency-free: no I/O, no imports, never throws.
//
// How a text is read: normaliseText() folds it (compatibility forms, invisible characters, accents,
// case, whitespace), keywordTokens() splits it into words with the punctuation and emoji gone, and
// the RULES table below is tried top to bottom; the first rule that matches decides.

export type ComplianceIntent = "STOP" | "START" | "HELP";

export interface Classification {
  intent: ComplianceIntent | null;
  maybeStop: boolean;
  normalised: string;
}

// ---------------------------------------------------------------------------------------------
// Word lists (single words, in normalised form: upper case, no accents)
// ---------------------------------------------------------------------------------------------

/** Words that opt out when they are the whole text (or lead a short polite text). */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "STOP",
  "STOPALL",
  "UNSUBSCRIBE",
  "CANCEL",
  "END",
  "QUIT",
  "REVOKE",
  "OPTOUT",
  "ARRET",
  "ARRETER",
  "DESABONNER",
  "DESINSCRIRE",
]);

/** Words that opt in (rejoin, or confirm the double opt-in) when they are the whole text. */
export const START_WORDS: ReadonlySet<string> = new Set(["START", "UNSTOP", "YES", "OUI"]);

/** Words that ask for the help text when they are the whole text. */
export const HELP_WORDS: ReadonlySet<string> = new Set(["HELP", "INFO", "AIDE"]);

/**
 * STOP words that are also everyday words ("see you at the end of the week", "I had to cancel my
 * table"). They count only when they are the whole text or lead a short polite text; mentioned
 * anywhere else they are not even a "maybe".
 */
const EVERYDAY_STOP_WORDS: ReadonlySet<string> = new Set(["CANCEL", "END", "QUIT"]);

/** Politeness and sign-offs that may follow a keyword without changing what it means. */
const POLITE = new Set([
  "PLEASE", "PLS", "PLZ", "PLEASEE", "THANKS", "THANK", "YOU", "THANKYOU", "THX", "TA", "CHEERS",
  "MERCI", "SVP", "STP", "OK", "OKAY", "X", "XX", "XXX",
]);

/**
 * Words that may follow a leading STOP word in a short text and still leave a plain "stop": the
 * polite words plus what is being stopped ("stop texting me", "stop sending me messages", "stop all
 * texts now"). "IT"/"THIS" are left out on purpose: "stop it" is ambiguous.
 */
const STOP_FILLER = new Set([
  ...POLITE,
  "NOW", "ASAP", "IMMEDIATELY", "RIGHT", "ME", "US", "MY", "NUMBER", "ALL", "THE", "THESE", "ANY", "MORE",
  "TEXTING", "TEXTS", "TEXT", "MESSAGING", "MESSAGES", "MESSAGE", "MSGS", "MSG", "SMS",
  "SENDING", "CONTACTING", "SPAMMING", "SPAM", "EMAILING", "CALLING", "BOTHERING",
]);

/** HELP may be followed by these as well as by polite words ("help me", "aide moi"). */
const HELP_FILLER = new Set([...POLITE, "ME", "MOI", "US"]);

/** Verbs whose -ING form after STOP means "stop contacting me", not "stop doing something else". */
const CONTACT_VERBS_ING = new Set([
  "TEXTING", "MESSAGING", "SENDING", "CONTACTING", "SPAMMING", "EMAILING", "CALLING", "BOTHERING",
  "PESTERING", "HARASSING",
]);

/**
 * Words that negate an objection phrase shortly after them ("please don't remove me", "je ne veux pas
 * me désabonner"). "won't"/"didn't" are left out: they mostly start complaints ("why won't you take me off").
 */
const NEGATIONS = new Set(["DONT", "NOT", "NEVER", "PAS"]);

/** How far back (in words) a negation reaches over an objection phrase. */
const NEGATION_REACH = 3;

/** A STOP word may lead a text of at most this many words and still be a plain "stop". */
const SHORT_LEADING = 6;
/** An objection phrase is acted on in a text of at most this many words; in a longer one it is a "maybe". */
const SHORT_PHRASE = 12;
/** A START or HELP reply (keyword plus politeness) is at most this many words. */
const SHORT_REPLY = 6;

// ---------------------------------------------------------------------------------------------
// Phrases (sequences of normalised words; apostrophes are removed, so "don't" is DONT)
// ---------------------------------------------------------------------------------------------

const p = (text: string): readonly string[] => text.split(" ");

/** Clear objections, English and French. Anywhere in a short text they opt out. */
const OBJECTION_PHRASES: readonly (readonly string[])[] = [
  // Asking politely, with the keyword somewhere in the text.
  "PLEASE STOP", "STOP PLEASE", "STOP PLS", "STOP PLZ", "STOP SVP", "STOP MERCI", "STOP STP",
  // Opting out and unsubscribing.
  "OPT OUT", "OPTOUT", "OPT ME OUT", "UNSUBSCRIBE", "UNSUB", "STOPALL",
  // Asking to be removed from the list.
  "REMOVE ME", "REMOVE MY NUMBER", "TAKE ME OFF", "TAKE MY NUMBER OFF", "DELETE MY NUMBER",
  // No more texts.
  "NO MORE TEXTS", "NO MORE TEXT", "NO MORE MESSAGES", "NO MORE MSGS", "NO MORE SMS",
  "DONT WANT ANY MORE", "DONT WANT ANYMORE", "DO NOT WANT ANY MORE", "DONT WANT THESE",
  // Don't contact me.
  "DONT TEXT ME", "DO NOT TEXT ME", "DONT MESSAGE ME", "DO NOT MESSAGE ME", "DONT CONTACT ME",
  "DO NOT CONTACT ME", "DONT SEND ME", "DO NOT SEND ME", "LEAVE ME ALONE",
  // Stop contacting me (STOP followed by a contact verb).
  "STOP TEXTING", "STOP MESSAGING", "STOP SENDING", "STOP CONTACTING", "STOP SPAMMING", "STOP EMAILING",
  // Withdrawing consent in so many words.
  "REVOKE MY CONSENT", "REVOKE CONSENT", "WITHDRAW MY CONSENT", "WITHDRAW CONSENT",
  // French: stop, unsubscribe, no longer receive, leave me alone, remove me.
  "ARRETER", "ARRETEZ", "ARRETE DE MENVOYER", "DESABONNER", "DESABONNEZ", "DESINSCRIRE", "DESINSCRIVEZ",
  "NE PLUS RECEVOIR", "VEUX PLUS RECEVOIR", "PLUS DE SMS", "PLUS DE MESSAGES", "LAISSEZ MOI TRANQUILLE", "RETIREZ MOI", "ENLEVEZ MOI",
].map(p);

/** Weariness or refusal that may be an objection but is not clear enough to act on. */
const WEARY_PHRASES: readonly (readonly string[])[] = [
  "ENOUGH TEXTS", "ENOUGH MESSAGES", "TOO MANY TEXTS", "TOO MANY MESSAGES", "NOT INTERESTED",
  "WRONG NUMBER", "SPAM", "TROP DE MESSAGES", "TROP DE SMS", "PAS INTERESSE",
].map(p);

/** A whole text that refuses (typically answering the opt-in request): worth a look, not an opt-out. */
const REFUSALS: readonly (readonly string[])[] = ["NO", "NOPE", "NO THANKS", "NO THANK YOU", "NON", "NON MERCI", "ENOUGH"].map(p);

// ---------------------------------------------------------------------------------------------
// Normalisation and words
// ---------------------------------------------------------------------------------------------

/**
 * The text folded for matching: compatibility forms unified (NFKC: full-width ＳＴＯＰ, 𝐒𝐓𝐎𝐏, ligatures),
 * invisible format characters removed (zero-width space/joiner, BOM, bidi marks, soft hyphen), control
 * characters turned into spaces, accents removed, upper case, whitespace collapsed and trimmed.
 */
export function normaliseText(body: string): string {
  try {
    if (typeof body !== "string") return "";
    return body
      .normalize("NFKC")
      .replace(/\p{Cf}/gu, "")
      .replace(/\p{Cc}/gu, " ")
      // Upper case before removing accents: a few letters only gain a combining mark in upper case (ǰ -> J̌).
      .toUpperCase()
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      // Recompose what NFD split without marks (Hangul syllables), so the text stays readable.
      .normalize("NFC")
      .replace(/\s+/gu, " ")
      .trim();
  } catch {
    return "";
  }
}

/**
 * The words of a text, normalised, with punctuation, symbols and emoji removed. Apostrophes inside a
 * word are dropped rather than splitting it ("Don't" -> DONT, "m'envoyer" -> MENVOYER); any other
 * non-letter, non-digit character separates words ("opt-out" -> OPT, OUT).
 */
export function keywordTokens(body: string): string[] {
  return normaliseText(body)
    .replace(/['\u2018\u2019\u02BC`]/gu, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

// ---------------------------------------------------------------------------------------------
// What the rules look at
// ---------------------------------------------------------------------------------------------

interface Text {
  /** The words, with a stretched "STOPPPP" read as STOP. */
  words: readonly string[];
  /** Positions of STOP words used in an everyday sense ("stop by", "bus stop", "don't stop"). */
  idiomatic: ReadonlySet<number>;
}

/** Length of the STOP word at position i: 2 for "OPT OUT", 1 for a single STOP word, 0 if none. */
function stopWordAt(words: readonly string[], i: number): number {
  if (words[i] === "OPT" && words[i + 1] === "OUT") return 2;
  return STOP_WORDS.has(words[i]) ? 1 : 0;
}

/** The text is one or more STOP words and nothing else ("STOP", "stop stop stop", "opt-out"). */
function onlyStopWords(words: readonly string[]): boolean {
  let i = 0;
  while (i < words.length) {
    const n = stopWordAt(words, i);
    if (!n) return false;
    i += n;
  }
  return words.length > 0;
}

/** The text is one or more keywords of `keywords`, then only words of `filler`, in at most SHORT_REPLY words. */
function keywordThenFiller(words: readonly string[], keywords: ReadonlySet<string>, filler: ReadonlySet<string>): boolean {
  if (!words.length || words.length > SHORT_REPLY || !keywords.has(words[0])) return false;
  let i = 0;
  while (i < words.length && keywords.has(words[i])) i++;
  return words.slice(i).every((word) => filler.has(word));
}

/** Start positions of `phrase` in `words`. */
function phrasePositions(words: readonly string[], phrase: readonly string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + phrase.length <= words.length; i++) {
    if (phrase.every((word, k) => words[i + k] === word)) found.push(i);
  }
  return found;
}

interface PhraseHit {
  /** Preceded (within NEGATION_REACH words) by a negation: "please don't remove me". */
  negated: boolean;
}

/** Objection phrases in the text, leaving out those built on an idiomatic STOP ("please stop by"). */
function objectionHits(text: Text): PhraseHit[] {
  const hits: PhraseHit[] = [];
  for (const phrase of OBJECTION_PHRASES) {
    for (const at of phrasePositions(text.words, phrase)) {
      let idiom = false;
      for (let k = at; k < at + phrase.length; k++) if (text.idiomatic.has(k)) idiom = true;
      if (idiom) continue;
      const before = text.words.slice(Math.max(0, at - NEGATION_REACH), at);
      hits.push({ negated: before.some((word) => NEGATIONS.has(word)) });
    }
  }
  return hits;
}

function containsAny(words: readonly string[], phrases: readonly (readonly string[])[]): boolean {
  return phrases.some((phrase) => phrasePositions(words, phrase).length > 0);
}

function isExactly(words: readonly string[], phrases: readonly (readonly string[])[]): boolean {
  return phrases.some((phrase) => phrase.length === words.length && phrase.every((word, k) => words[k] === word));
}

/** Words just before STOP that make it a place or a description: "bus stop", "one-stop shop", "non-stop". */
const PLACE_BEFORE_STOP = new Set(["BUS", "TRAIN", "TRAM", "PIT", "ONE", "NON", "FULL", "LAST", "NEXT", "FIRST"]);
/** Words just after STOP that make it a visit or a sign: "stop by", "stop in", "stop off", "stop for lunch", "stop sign". */
const VISIT_AFTER_STOP = new Set(["BY", "IN", "OFF", "OVER", "FOR", "AROUND", "ROUND", "SIGN", "SIGNS"]);
/** Words that may come before an imperative "don't stop" / "never stop": "please don't stop", "oh never stop". */
const BEFORE_IMPERATIVE = new Set(["PLEASE", "PLS", "PLZ", "OH", "AND", "BUT", "SO", "JUST", "NO"]);

/**
 * An encouraging "don't stop" / "do not stop" / "never stop" at position i, said as an imperative (at
 * the start of the text or after "please", "oh"...). "These texts don't stop" is a complaint, not this.
 */
function imperativeNegationBefore(words: readonly string[], i: number): boolean {
  let start: number;
  if (words[i - 1] === "DONT" || words[i - 1] === "NEVER") start = i - 1;
  else if (words[i - 1] === "NOT" && words[i - 2] === "DO") start = i - 2;
  else return false;
  return start === 0 || BEFORE_IMPERATIVE.has(words[start - 1]);
}

/**
 * Positions of STOP/ARRET used in an everyday sense: an encouraging "don't stop (the offers)", a
 * place ("the bus stop", "l'arrêt de bus"), a visit ("stop by", "stop in for a coffee", but not
 * "stop for good"), or before another activity ("what time do you stop serving?") unless that
 * activity is contacting ("stop texting").
 */
function idiomaticPositions(words: readonly string[]): Set<number> {
  const found = new Set<number>();
  words.forEach((word, i) => {
    const prev = words[i - 1];
    const next = words[i + 1];
    if (word === "STOP") {
      if (imperativeNegationBefore(words, i) || (prev && PLACE_BEFORE_STOP.has(prev))) found.add(i);
      else if (next && VISIT_AFTER_STOP.has(next) && !(next === "FOR" && words[i + 2] === "GOOD")) found.add(i);
      else if (next && next.length > 4 && next.endsWith("ING") && !CONTACT_VERBS_ING.has(next)) found.add(i);
    } else if (word === "ARRET" && next === "DE" && ["BUS", "TRAM", "METRO"].includes(words[i + 2])) {
      found.add(i);
    }
  });
  return found;
}

function readText(body: string): Text {
  const words = keywordTokens(body).map((word) => (/^STOP{2,}$/.test(word) ? "STOP" : word));
  return { words, idiomatic: idiomaticPositions(words) };
}

// ---------------------------------------------------------------------------------------------
// The rules, tried in order; the first that matches decides
// ---------------------------------------------------------------------------------------------

type Verdict = ComplianceIntent | "MAYBE_STOP" | "MESSAGE";

interface Rule {
  name: string;
  verdict: Verdict;
  matches: (text: Text) => boolean;
}

const RULES: readonly Rule[] = [
  // Nothing left once punctuation, emoji and invisible characters are gone: not a keyword.
  { name: "no-words", verdict: "MESSAGE", matches: (t) => t.words.length === 0 },

  // The whole text is STOP words, once or repeated: "STOP", "stop!!", "ＳＴＯＰ", "Stop stop stop", "opt-out".
  { name: "only-stop-words", verdict: "STOP", matches: (t) => onlyStopWords(t.words) },

  // The whole text is a START word, repeated or with thanks: "YES", "Yes please", "Yes 👍", "START".
  { name: "start-reply", verdict: "START", matches: (t) => keywordThenFiller(t.words, START_WORDS, POLITE) },

  // The whole text is a HELP word, possibly "help me" or with politeness: "HELP", "help me please", "info".
  { name: "help-reply", verdict: "HELP", matches: (t) => keywordThenFiller(t.words, HELP_WORDS, HELP_FILLER) },

  // A short text led by a STOP word and followed only by politeness or what to stop:
  // "stop please", "STOP thanks", "stop texting me", "stop sending me messages", "stop now".
  {
    name: "stop-word-then-filler",
    verdict: "STOP",
    matches: (t) => {
      const n = stopWordAt(t.words, 0);
      return n > 0 && !t.idiomatic.has(0) && t.words.length <= SHORT_LEADING && t.words.slice(n).every((w) => STOP_FILLER.has(w));
    },
  },

  // A clear objection phrase anywhere in a short text, not negated: "please stop", "take me off your
  // list", "no more texts", "don't text me", "désabonnez-moi", "ne plus recevoir".
  {
    name: "objection-phrase-in-short-text",
    verdict: "STOP",
    matches: (t) => t.words.length <= SHORT_PHRASE && objectionHits(t).some((hit) => !hit.negated),
  },

  // An objection phrase in a long text, or after a negation ("please don't remove me"): flag it.
  { name: "objection-phrase-unclear", verdict: "MAYBE_STOP", matches: (t) => objectionHits(t).length > 0 },

  // A STOP word mentioned somewhere, not as an everyday idiom and not an everyday word like END:
  // "I want you to stop", "stop it", "can you stop", "why won't these stop".
  {
    name: "stop-word-mentioned",
    verdict: "MAYBE_STOP",
    matches: (t) => t.words.some((w, i) => STOP_WORDS.has(w) && !EVERYDAY_STOP_WORDS.has(w) && !t.idiomatic.has(i)),
  },

  // Weariness or a complaint: "enough texts", "too many messages", "not interested", "wrong number", "spam".
  { name: "weary-phrase", verdict: "MAYBE_STOP", matches: (t) => containsAny(t.words, WEARY_PHRASES) },

  // A bare refusal, usually to the opt-in request: "No", "No thanks", "Non merci".
  { name: "bare-refusal", verdict: "MAYBE_STOP", matches: (t) => isExactly(t.words, REFUSALS) },

  // Everything else is an ordinary message for the owner's inbox.
  { name: "message", verdict: "MESSAGE", matches: () => true },
];

function decide(body: string): { rule: Rule; normalised: string } {
  const normalised = normaliseText(body);
  const fallback = RULES[RULES.length - 1];
  try {
    const text = readText(body);
    return { rule: RULES.find((rule) => rule.matches(text)) ?? fallback, normalised };
  } catch {
    return { rule: fallback, normalised };
  }
}

/** What a member's text asks for: a compliance intent, a "may want to stop" flag, or neither. */
export function classifyCompliance(body: string): Classification {
  const { rule, normalised } = decide(body);
  switch (rule.verdict) {
    case "STOP":
    case "START":
    case "HELP":
      return { intent: rule.verdict, maybeStop: false, normalised };
    case "MAYBE_STOP":
      return { intent: null, maybeStop: true, normalised };
    default:
      return { intent: null, maybeStop: false, normalised };
  }
}
