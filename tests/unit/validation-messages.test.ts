// Each validation rule tells the person what is wrong and how to put it right, in both languages:
// a date that does not exist, numbers that are too large, negative or not whole, the required wording,
// and every example number shown in a hint or an error passes the check it illustrates.
import fs from "node:fs";
import path from "node:path";
import i18next, { type i18n } from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import { textSchema } from "~/domain/group-messages/schemas";
import { parseBirthday } from "~/domain/members/attribute-rules";
import { NUMBER_MAX, parseAttributeValue, parseCount } from "~/domain/members/attributes.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { i18nOptions } from "~/lib/i18n";
import { parseUkMobile } from "~/lib/phone";
import { translateError } from "~/components/form";

function resources(lng: string) {
  const dir = path.resolve("app/locales", lng);
  const tree: Record<string, unknown> = {};
  for (const f of fs.readdirSync(dir)) if (f.endsWith(".json")) tree[f.replace(/\.json$/, "")] = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8"));
  return tree;
}

let en: i18n;
let fr: i18n;
beforeAll(async () => {
  const make = async (lng: string) => {
    const inst = i18next.createInstance();
    await inst.init({ ...i18nOptions, lng, resources: { [lng]: { translation: resources(lng) } } });
    return inst;
  };
  en = await make("en-GB");
  fr = await make("fr");
});

function refusal(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected the value to be refused");
}

/** The message a person sees for a refusal, in English and in French. */
function shown(e: AppError): { en: string; fr: string } {
  const message = errorMessage(e);
  return { en: translateError(en.t.bind(en), message, { field: "Visits" }), fr: translateError(fr.t.bind(fr), message, { field: "Visites" }) };
}

const number = { type: "NUMBER" as const, items: [], name: "Visits" };
const birthday = { type: "BIRTHDAY" as const, items: [], name: "Birthday" };

describe("birthday", () => {
  it("31/02 is not a date, and the message says so and names dd/mm", () => {
    expect(parseBirthday("31/02")).toBeNull();
    const e = refusal(() => parseAttributeValue(birthday, "31/02", "attr_1"));
    expect(e.code).toBe("BR025");
    expect(e.field).toBe("attr_1");
    const m = shown(e);
    expect(m.en).toMatch(/not a real date/);
    expect(m.en).toMatch(/dd\/mm/);
    expect(m.en).not.toMatch(/special characters/i);
    expect(m.fr).toMatch(/jj\/mm/);
    // The browser's own check for the birthday field says the same.
    expect(en.t("validation.birthday", { field: "Birthday" })).toMatch(/^Birthday is not a real date.*dd\/mm/);
  });

  it("the example in the message is accepted", () => {
    expect(parseBirthday("24/07")).toBe("07-24");
    expect(parseBirthday("29/02")).toBe("02-29");
  });
});

describe("number attributes count or measure things: 0 or more, two decimal places at most", () => {
  it("accepts whole numbers, spaced thousands, a shoe size and a French decimal comma", () => {
    expect(parseAttributeValue(number, "12", "a")).toEqual({ value_text: "12", value_number: 12 });
    expect(parseCount("1 000", "a")).toBe(1000);
    expect(parseCount("0", "a")).toBe(0);
    expect(parseCount("-0", "a")).toBe(0);
    expect(parseCount("9.5", "a")).toBe(9.5);
    expect(parseCount("9,5", "a")).toBe(9.5);
    expect(parseCount("12.50", "a")).toBe(12.5);
    expect(parseCount("7.000", "a")).toBe(7);
    expect(parseCount(String(NUMBER_MAX), "a")).toBe(NUMBER_MAX);
  });

  it("a number too large is told it is too large, with the limit", () => {
    for (const v of [String(NUMBER_MAX + 1), "99999999999999999999999"]) {
      const e = refusal(() => parseCount(v, "a"));
      expect(e.data).toEqual({ context: "tooLarge" });
      const m = shown(e);
      expect(m.en).toBe("This number is too large. Enter 999,999,999,999 or less.");
      expect(m.fr).toMatch(/trop grand.*999 999 999 999/);
    }
  });

  it("-5.5 is refused as below 0, saying why and what to enter", () => {
    const negative = refusal(() => parseAttributeValue(number, "-5.5", "a"));
    expect(negative.data).toEqual({ context: "negative" });
    expect(shown(negative).en).toMatch(/counts or measures something, so it cannot be below 0\. Enter 0 or more/);
    expect(shown(negative).fr).toMatch(/0 ou plus/);
    expect(refusal(() => parseCount("-3", "a")).data).toEqual({ context: "negative" });
  });

  it("more than two decimal places is told the limit", () => {
    const e = refusal(() => parseCount("1.234", "a"));
    expect(e.data).toEqual({ context: "decimals" });
    expect(shown(e).en).toMatch(/at most 2 decimal places/);
    expect(shown(e).fr).toMatch(/Deux décimales/);
  });

  it("words, and an ambiguous 1,000, are told to use digits", () => {
    for (const v of ["nine", "1e3", "12abc", "-", ".", "1,000"]) {
      const e = refusal(() => parseCount(v, "a"));
      expect(e.data, v).toEqual({ context: "number" });
      expect(shown(e).en).toMatch(/digits only, for example 12/);
    }
  });
});

describe("other attribute types say what is wrong", () => {
  it("a text that is too long names the limit", () => {
    const e = refusal(() => parseAttributeValue({ type: "TEXT", items: [], name: "Drink" }, "x".repeat(41), "a"));
    expect(shown(e).en).toBe("This is too long. Use 40 characters or fewer.");
  });

  it("a time, a date and a list choice each get their own message", () => {
    expect(shown(refusal(() => parseAttributeValue({ type: "TIME", items: [], name: "T" }, "25:00", "a"))).en).toMatch(/hh:mm/);
    expect(shown(refusal(() => parseAttributeValue({ type: "DATE", items: [], name: "D" }, "2025-02-31", "a"))).en).toMatch(/not a real date/);
    expect(shown(refusal(() => parseAttributeValue({ type: "LIST", items: [{ id: 1, label: "Tea" }], name: "L" }, "9", "a"))).en).toMatch(/options in the list/);
  });
});

describe("mobile number hints and errors", () => {
  // Every UK number written in a hint or an error a person reads while typing one.
  const keys = ["validation.phone", "errors.BR050", "members.invite.phoneHint", "joinus.public.phoneHint", "signup.info.mobileHint"];

  it("every example number the hints and errors give is one the check accepts", () => {
    let examples = 0;
    for (const inst of [en, fr]) {
      for (const key of keys) {
        const text = inst.t(key);
        expect(text, key).not.toBe(key);
        for (const n of text.match(/0\d{4} \d{6}/g) ?? []) {
          examples += 1;
          expect(parseUkMobile(n), `${key}: ${n}`).not.toBeNull();
        }
      }
    }
    expect(examples).toBe(keys.length * 2);
  });

  it("the error for a refused number recommends one that is accepted", () => {
    expect(parseUkMobile("01632 960000")).toBeNull();
    for (const inst of [en, fr]) {
      const example = inst.t("errors.BR050").match(/0\d{4} \d{6}/)?.[0];
      expect(example && parseUkMobile(example)).toBeTruthy();
    }
  });
});

describe("required wording", () => {
  it("an empty message text says 'is required', as every other form does", () => {
    const r = textSchema.safeParse("   ");
    expect(r.success).toBe(false);
    const key = r.error!.issues[0].message;
    expect(en.t(key)).toBe("Message text is required");
    expect(en.t("validation.required", { field: "Message text" })).toBe(en.t(key));
    expect(fr.t(key)).toMatch(/est obligatoire$/);
  });

  it("no English message says 'must be populated'", () => {
    const all = JSON.stringify(resources("en-GB"));
    expect(all).not.toMatch(/must be populated/i);
  });
});
