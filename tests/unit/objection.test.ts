// Objections as people write them: each table is one direction of the rules (should STOP, START,
// HELP, stay a message, be flagged "may want to stop"), one case per row.
import { describe, expect, it } from "vitest";
import {
  HELP_WORDS,
  START_WORDS,
  STOP_WORDS,
  classifyCompliance,
  keywordTokens,
  normaliseText,
} from "~/domain/consent/objection";

const STOP = { intent: "STOP", maybeStop: false };
const START = { intent: "START", maybeStop: false };
const HELP = { intent: "HELP", maybeStop: false };
const MESSAGE = { intent: null, maybeStop: false };
const MAYBE = { intent: null, maybeStop: true };

function verdict(body: string) {
  const { intent, maybeStop } = classifyCompliance(body);
  return { intent, maybeStop };
}

/** Full-width form of ASCII letters: "STOP" -> "ＳＴＯＰ". */
const fullWidth = (s: string) => s.replace(/[A-Za-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));
/** "stop" -> "StOp". */
const mixedCase = (s: string) => [...s].map((c, i) => (i % 2 ? c.toLowerCase() : c.toUpperCase())).join("");
/** A zero-width space after the first letter: "S\u200BTOP". */
const zeroWidth = (s: string) => `${s[0]}\u200B${s.slice(1)}`;

describe("normaliseText", () => {
  it.each([
    ["NFKC: full-width letters", "ＳＴＯＰ", "STOP"],
    ["NFKC: mathematical bold", "𝐒𝐭𝐨𝐩", "STOP"],
    ["zero-width space inside", "S\u200BTOP", "STOP"],
    ["BOM in front", "\uFEFFstop", "STOP"],
    ["bidi marks and zero-width joiner", "\u200Estop\u200D\u200F", "STOP"],
    ["accents removed", "Arrêt désabonner", "ARRET DESABONNER"],
    ["whitespace collapsed and trimmed", "  stop \t\n please  ", "STOP PLEASE"],
    ["control characters become spaces", "stop\u0000\u0007please", "STOP PLEASE"],
    ["punctuation kept (only keywordTokens drops it)", "Stop!", "STOP!"],
    ["empty", "", ""],
  ])("%s", (_why, input, output) => expect(normaliseText(input)).toBe(output));
});

describe("keywordTokens", () => {
  it.each([
    ["Stop!!! 🛑", ["STOP"]],
    ["opt-out", ["OPT", "OUT"]],
    ["Don't text me", ["DONT", "TEXT", "ME"]],
    ["Désabonnez-moi, merci.", ["DESABONNEZ", "MOI", "MERCI"]],
    ["JOIN", ["JOIN"]],
    ["  join2024 ", ["JOIN2024"]],
    ["🎉🎉", []],
    ["", []],
  ])("%j -> %j", (input, words) => expect(keywordTokens(input)).toEqual(words));
});

describe("should STOP", () => {
  it.each([
    // A STOP word alone, however it is dressed.
    "STOP",
    "stop",
    "Stop.",
    "STOP!!!",
    "  stop  ",
    "🛑 STOP 🛑",
    "Stop 😡",
    "ＳＴＯＰ",
    "ｓｔｏｐ",
    "S\u200BTOP",
    "\uFEFFSTOP",
    "ST\u200DOP\u200B",
    "\u202Bstop\u202C",
    "STOP STOP",
    "stop stop stop",
    "Stop. Stop!",
    "stoppppp",
    "STOPALL",
    "Unsubscribe",
    "cancel",
    "END",
    "Quit",
    "REVOKE",
    "OPTOUT",
    "Opt out",
    "opt-out",
    "OPT-OUT!",
    "Arrêt",
    "arrêter",
    "désabonner",
    "Désinscrire",
    // A STOP word leading a short polite text.
    "stop please",
    "STOP thanks",
    "Stop, thank you",
    "stop texting me",
    "Stop texting me please",
    "stop sending me messages",
    "stop messaging me",
    "stop now",
    "STOP ALL",
    "stop all texts",
    "Unsubscribe me please",
    "quit texting me",
    "Cancel please",
    // Objection phrases in a short text.
    "please stop",
    "Please stop!!",
    "Can you please stop texting me",
    "opt me out",
    "Please opt me out",
    "How do I opt out?",
    "unsubscribe me",
    "How do I unsubscribe",
    "remove me",
    "Please remove me from your list",
    "remove me from your list",
    "take me off",
    "take me off your list",
    "Can you take me off your list please",
    "no more texts",
    "No more messages please",
    "don't text me",
    "Do not text me again",
    "Please DON'T CONTACT ME",
    "leave me alone",
    "I don't want any more texts thanks",
    "I withdraw my consent",
    "arrêtez",
    "Arrêtez svp",
    "désabonnez-moi",
    "Je veux me désabonner",
    "me désabonner",
    "désinscrire",
    "Je souhaite ne plus recevoir vos messages",
    "Je ne veux plus recevoir de SMS",
    "stop svp",
    "Stop merci",
    "Bonjour, stop svp",
  ])("%j", (body) => expect(verdict(body)).toEqual(STOP));
});

describe("should START", () => {
  it.each([
    "START",
    "start",
    "Unstop",
    "YES",
    "yes",
    "YES!!",
    "Yes 👍",
    "YES PLEASE",
    "Yes please!",
    "yes yes",
    "Yes thank you x",
    "ＹＥＳ",
    "Y\u200BES",
    "oui",
    "Oui merci",
  ])("%j", (body) => expect(verdict(body)).toEqual(START));
});

describe("should HELP", () => {
  it.each(["HELP", "help", "Help?", "help me", "HELP ME PLEASE", "info", "INFO!", "aide", "Aide moi", "ＨＥＬＰ"])("%j", (body) =>
    expect(verdict(body)).toEqual(HELP),
  );
});

describe("should stay a message", () => {
  it.each([
    "Can I stop by tomorrow?",
    "Don't stop the offers!",
    "Please don't stop the quiz nights",
    "Never stop baking those scones",
    "What time do you stop serving food?",
    "The bus stop is outside",
    "Is there a bus stop nearby?",
    "I'll stop in for a coffee later",
    "I'll start on Monday",
    "Can I start a tab?",
    "Yes I'd love to come",
    "Is there any help with parking?",
    "I need help with my booking",
    "Please confirm my booking",
    "Thanks, see you at the end of the week",
    "I need to cancel my table for tonight",
    "Any info on the Christmas menu?",
    "Great offer, thanks!",
    "",
    "   ",
    "👍",
    "!!!",
    "JOIN",
    "stopover in Leeds was fun",
    "L'arrêt de bus est devant",
  ])("%j", (body) => expect(verdict(body)).toEqual(MESSAGE));
});

describe("should be flagged 'may want to stop'", () => {
  it.each([
    "I want you to stop",
    "stop it",
    "can you stop",
    "why won't these stop",
    "These texts never stop",
    "enough texts",
    "Enough!",
    "Too many messages",
    "Not interested",
    "Wrong number",
    "This is spam",
    "No thanks",
    "STOP START",
    "Please don't remove me",
    "I do not want to unsubscribe",
    "Je ne veux pas me désabonner",
    "Hi, I have really enjoyed your texts over the years but please remove me from your list now that I have moved away",
    "I love the cafe and the staff are lovely but honestly I get far too many of these so please stop the texts for me",
    "Stop it with the daily offers, it's too much",
  ])("%j", (body) => expect(verdict(body)).toEqual(MAYBE));
});

describe("every STOP word, however it is written", () => {
  const forms = [...STOP_WORDS, "OPT OUT", "OPT-OUT"];
  const variants: [string, (w: string) => string][] = [
    ["lower case", (w) => w.toLowerCase()],
    ["upper case", (w) => w.toUpperCase()],
    ["mixed case", mixedCase],
    ["full-width", fullWidth],
    ["zero-width space inside", zeroWidth],
    ["BOM in front", (w) => `\uFEFF${w}`],
    ["punctuation and emoji around", (w) => `🛑 ${w}!!`],
    ["repeated", (w) => `${w} ${w}`],
    ["followed by please", (w) => `${w} please`],
    ["full-width, followed by please", (w) => `${fullWidth(w.toLowerCase())} please`],
  ];
  const cases = forms.flatMap((word) => variants.map(([how, f]) => [word, how, f(word)] as const));
  it.each(cases)("%s (%s): %j -> STOP", (_word, _how, body) => expect(verdict(body)).toEqual(STOP));
});

describe("every START and HELP word, however it is written", () => {
  const variants: [string, (w: string) => string][] = [
    ["lower case", (w) => w.toLowerCase()],
    ["mixed case", mixedCase],
    ["full-width", fullWidth],
    ["zero-width space inside", zeroWidth],
    ["with emoji", (w) => `${w} 👍`],
    ["followed by please", (w) => `${w} please`],
  ];
  it.each([...START_WORDS].flatMap((w) => variants.map(([how, f]) => [w, how, f(w)] as const)))("%s (%s): %j -> START", (_w, _how, body) =>
    expect(verdict(body)).toEqual(START),
  );
  it.each([...HELP_WORDS].flatMap((w) => variants.map(([how, f]) => [w, how, f(w)] as const)))("%s (%s): %j -> HELP", (_w, _how, body) =>
    expect(verdict(body)).toEqual(HELP),
  );
  it.each([...START_WORDS, ...HELP_WORDS])("%s inside a sentence is not a keyword", (w) =>
    expect(verdict(`I was told to text ${w.toLowerCase()} about the quiz`).intent).toBeNull(),
  );
});

describe("word lists", () => {
  it("keep every word the inbound router already acts on, in normalised form", () => {
    for (const w of ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT", "ARRET", "ARRETER", "DESABONNER", "DESINSCRIRE"]) {
      expect(STOP_WORDS.has(w)).toBe(true);
    }
    expect([...START_WORDS].sort()).toEqual(["OUI", "START", "UNSTOP", "YES"]);
    expect([...HELP_WORDS].sort()).toEqual(["AIDE", "HELP", "INFO"]);
    for (const w of [...STOP_WORDS, ...START_WORDS, ...HELP_WORDS]) expect(normaliseText(w)).toBe(w);
  });
});

describe("never throws", () => {
  it.each([
    ["empty", ""],
    ["1,600 characters of emoji", "😀".repeat(800)],
    ["1,600 characters of flags (regional indicators and tags)", "🏴󠁧󠁢󠁳󠁣󠁴󠁿".repeat(115).slice(0, 1600)],
    ["control characters", "\u0000\u0001\u0002\u001b[31m\u007f\u0085"],
    ["a lone surrogate", "\uD800 stop \uDFFF"],
    ["only zero-width characters", "\u200B\u200C\u200D\uFEFF"],
    ["a very long text", "stop by ".repeat(5000)],
  ])("%s", (_why, body) => {
    const result = classifyCompliance(body);
    expect(typeof result.normalised).toBe("string");
    expect(result.intent === null || ["STOP", "START", "HELP"].includes(result.intent)).toBe(true);
  });

  it("answers no keyword for a text of emoji only", () => {
    expect(verdict("😀".repeat(800))).toEqual(MESSAGE);
  });

  it("does not throw on a value that is not a string", () => {
    expect(classifyCompliance(undefined as unknown as string)).toEqual({ intent: null, maybeStop: false, normalised: "" });
    expect(keywordTokens(null as unknown as string)).toEqual([]);
  });

  it("returns the normalised text with the verdict", () => {
    expect(classifyCompliance(" ＳＴＯＰ\u200B please ").normalised).toBe("STOP PLEASE");
  });
});
