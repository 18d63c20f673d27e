import { describe, expect, it } from "vitest";
import { analyse, creditsFor, gsmReplacements, GSM_BASIC, GSM_EXTENSION, isGsmText, segmentsFor, toGsm } from "~/domain/messaging/segments";

const a = (n: number) => "a".repeat(n);
const EURO = "€";
const ZHE = "Ж"; // Cyrillic: one UTF-16 unit, not in GSM-7
const GRIN = "😀"; // outside the BMP: a surrogate pair
const FLAG = "🇬🇧"; // two regional indicators: 4 units, one grapheme
const FAMILY = "👨‍👩‍👧‍👦"; // four emoji joined by three ZWJ: 11 units, one grapheme

describe("GSM-7 segment boundaries", () => {
  it.each([
    ["empty", "", 0, 0, 0, 160],
    ["1 char", "a", 1, 1, 1, 160],
    ["160 chars", a(160), 1, 160, 160, 160],
    ["161 chars", a(161), 2, 161, 161, 153],
    ["153×2", a(306), 2, 306, 306, 153],
    ["153×2+1", a(307), 3, 307, 307, 153],
    ["153×3", a(459), 3, 459, 459, 153],
    ["153×3+1", a(460), 4, 460, 460, 153],
    ["80 euros = 160 septets", EURO.repeat(80), 1, 80, 160, 160],
    ["81 euros = 162 septets, 76 pairs a part", EURO.repeat(81), 2, 81, 162, 153],
    ["159 + one extension char = 161 septets", a(159) + "{", 2, 160, 161, 153],
    ["158 + one extension char = 160 septets", a(158) + "]", 1, 159, 160, 160],
    // The escape pair at septets 153/154 moves whole to the next part: 152 + [€] + 151 fills part 2, one spills.
    ["escape pair at the 153 boundary", a(152) + EURO + a(152), 3, 305, 306, 153],
    ["escape pair just before the boundary", a(151) + EURO + a(153), 2, 305, 306, 153],
    ["CR LF is one character, two septets", "a\r\nb", 1, 3, 4, 160],
    ["form feed is an extension character", "\f", 1, 1, 2, 160],
  ])("%s", (_name, text, segments, characters, units, perSegment) => {
    const r = analyse(text);
    expect(r.encoding).toBe("GSM-7");
    expect(r.segments).toBe(segments);
    expect(r.characters).toBe(characters);
    expect(r.unitsUsed).toBe(units);
    expect(r.unitsPerSegment).toBe(perSegment);
    expect(r.nonGsmCharacters).toEqual([]);
  });

  it("counts every extension character as two septets and every basic one as one", () => {
    expect(GSM_EXTENSION).toHaveLength(10);
    for (const ch of "^{}\\[]~|€\f") expect(analyse(ch).unitsUsed).toBe(2);
    expect([...GSM_BASIC]).toHaveLength(127);
    expect(analyse(GSM_BASIC).encoding).toBe("GSM-7");
    expect(analyse(GSM_BASIC).unitsUsed).toBe(127);
    expect(analyse("@£$¥èéùìòÇØøÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà").encoding).toBe("GSM-7");
  });
});

describe("UCS-2 segment boundaries", () => {
  it.each([
    ["70 units", ZHE.repeat(70), 1, 70, 70, 70],
    ["71 units", ZHE.repeat(71), 2, 71, 71, 67],
    ["67×2", ZHE.repeat(134), 2, 134, 134, 67],
    ["67×2+1", ZHE.repeat(135), 3, 135, 135, 67],
    ["67×3", ZHE.repeat(201), 3, 201, 201, 67],
    ["one non-GSM char switches 159 GSM chars to UCS-2", a(159) + ZHE, 3, 160, 160, 67],
    ["extension chars cost one unit in UCS-2", EURO.repeat(69) + ZHE, 1, 70, 70, 70],
    ["emoji costs two units: 68 + emoji = 70", a(68) + GRIN, 1, 69, 70, 70],
    ["69 + emoji = 71", a(69) + GRIN, 2, 70, 71, 67],
    // 66 + pair + 66 = 134 units, but the pair cannot straddle units 67/68: it moves whole, one unit spills.
    ["emoji at the 67 boundary is not split", a(66) + GRIN + a(66), 3, 133, 134, 67],
    ["emoji just before the boundary", a(65) + GRIN + a(67), 2, 133, 134, 67],
    ["a flag is one character of four units", FLAG, 1, 1, 4, 70],
    ["a flag at the boundary moves whole", a(65) + FLAG + a(65), 3, 131, 134, 67],
    ["a flag that fits", a(63) + FLAG + a(67), 2, 131, 134, 67],
    ["a ZWJ family is one character of eleven units", FAMILY, 1, 1, 11, 70],
    ["a ZWJ family at the boundary moves whole", a(60) + FAMILY + a(63), 3, 124, 134, 67],
    ["a ZWJ family that fits", a(56) + FAMILY + a(67), 2, 124, 134, 67],
    ["combining mark: one character", "e\u0301", 1, 1, 2, 70],
  ])("%s", (_name, text, segments, characters, units, perSegment) => {
    const r = analyse(text);
    expect(r.encoding).toBe("UCS-2");
    expect(r.segments).toBe(segments);
    expect(r.characters).toBe(characters);
    expect(r.unitsUsed).toBe(units);
    expect(r.unitsPerSegment).toBe(perSegment);
  });

  it("splits a grapheme longer than a whole part between code points, never inside a surrogate pair", () => {
    // 'a' with 100 combining marks: one grapheme of 101 units, more than a part holds.
    const zalgo = "a" + "\u0301".repeat(100);
    expect(analyse(zalgo)).toMatchObject({ segments: 2, characters: 1, unitsUsed: 101 });
    // Emoji pairs: 35 (70 units) fit one part; beyond that a part of 67 units holds only 33 whole pairs.
    expect(analyse(GRIN.repeat(35)).segments).toBe(1);
    expect(analyse(GRIN.repeat(36)).segments).toBe(2);
    expect(analyse(GRIN.repeat(67)).segments).toBe(3); // 134 units, but 33 pairs a part
  });
});

describe("the characters that forced UCS-2", () => {
  it("lists each once, in order of first appearance, as whole graphemes", () => {
    const r = analyse(`Hi “Sam” ${GRIN} see you at the café ${FLAG} “soon” ${GRIN}`);
    expect(r.encoding).toBe("UCS-2");
    expect(r.nonGsmCharacters).toEqual(["“", "”", GRIN, FLAG]);
  });

  it("tells a GSM capital Ç from a non-GSM small ç", () => {
    expect(analyse("Ça va").encoding).toBe("GSM-7");
    expect(analyse("garçon").nonGsmCharacters).toEqual(["ç"]);
  });

  it("names a decomposed accent as the letter it sits on", () => {
    expect(analyse("cafe\u0301").nonGsmCharacters).toEqual(["e\u0301"]);
  });
});

describe("credits", () => {
  it.each([
    ["", 10, 0],
    ["Hello", 0, 0],
    ["Hello", 1, 1],
    [a(161), 3, 6],
    [ZHE.repeat(71), 100, 200],
    [a(459), 1000, 3000],
  ])("%j to %i recipients costs %i", (text, recipients, credits) => {
    expect(creditsFor(text, recipients)).toBe(credits);
    expect(creditsFor(text, recipients)).toBe(segmentsFor(text) * recipients);
  });

  it("refuses a negative or fractional recipient count", () => {
    expect(() => creditsFor("x", -1)).toThrow(RangeError);
    expect(() => creditsFor("x", 1.5)).toThrow(RangeError);
  });
});

describe("toGsm", () => {
  it("replaces smart quotes, dashes, ellipsis and odd spaces so the text fits GSM-7", () => {
    const before = "“Hi” – it’s\u00A0open… 9\u2009am—5pm\u200B";
    expect(analyse(before).encoding).toBe("UCS-2");
    const after = toGsm(before);
    expect(after).toBe("\"Hi\" - it's open... 9 am-5pm");
    expect(analyse(after).encoding).toBe("GSM-7");
  });

  it("leaves emoji (and their joiners) and GSM text alone", () => {
    expect(toGsm(FAMILY)).toBe(FAMILY);
    expect(toGsm("Plain £5 text {ok}")).toBe("Plain £5 text {ok}");
  });

  it("only ever maps to GSM-7 text", () => {
    for (const [from, to] of Object.entries(gsmReplacements)) {
      expect(isGsmText(from), `${JSON.stringify(from)} is already GSM`).toBe(false);
      expect(isGsmText(to), `${JSON.stringify(from)} maps to ${JSON.stringify(to)}`).toBe(true);
    }
  });
});
