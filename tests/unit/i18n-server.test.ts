import { describe, expect, it } from "vitest";
import { RouterContextProvider } from "react-router";
import type { i18n as I18n } from "i18next";
import { getI18n, i18nextMiddleware } from "~/lib/i18n.server";
import { resources } from "~/lib/i18n-resources.server";

async function serverI18n(lng: string): Promise<I18n> {
  const context = new RouterContextProvider();
  const request = new Request(`http://localhost/?lng=${lng}`);
  await i18nextMiddleware({ request, context, params: {}, unstable_pattern: "/" } as never, async () => new Response(""));
  return getI18n(context);
}

function keysOf(tree: unknown, prefix = ""): string[] {
  if (typeof tree === "string") return [prefix];
  return Object.entries(tree as Record<string, unknown>).flatMap(([k, v]) => keysOf(v, prefix ? `${prefix}.${k}` : k));
}

describe.each(["en-GB", "fr"])("server translations (%s)", (lng) => {
  it("give, for every key, asked once or again, with or without options, what i18next's own t gives", async () => {
    const i18n = await serverI18n(lng);
    // The shared instance behind the object React i18next is handed, with i18next's own getFixedT.
    const instance = Object.getPrototypeOf(Object.getPrototypeOf(i18n)) as I18n;
    expect(typeof instance.getFixedT).toBe("function");
    const fast = i18n.getFixedT(lng, "translation");
    const own = instance.getFixedT(lng, "translation");
    const keys = keysOf((resources as Record<string, unknown>)[lng]).map((k) => k.replace(/_(zero|one|two|few|many|other)$/, ""));
    expect(keys.length).toBeGreaterThan(100);
    const options = { count: 3, name: "Ann", company: "Café", number: "07700 900123", keyword: "JOIN", code: "123456" };
    for (const key of keys) {
      expect(fast(key)).toBe(own(key));
      expect(fast(key)).toBe(own(key));
      expect(fast(key, options)).toBe(own(key, options));
      expect(fast(key, options)).toBe(own(key, options));
      expect(fast(key, { ...options, count: 1, name: "Bo" })).toBe(own(key, { ...options, count: 1, name: "Bo" }));
      expect(fast(key, { ...options, count: "1" })).toBe(own(key, { ...options, count: "1" }));
    }
    // A key that is not there comes back as itself, every time.
    expect(fast("no.such.key")).toBe("no.such.key");
    expect(fast("no.such.key")).toBe("no.such.key");
  });

  it("keep a key prefix and another language working as i18next does", async () => {
    const i18n = await serverI18n(lng);
    const other = lng === "fr" ? "en-GB" : "fr";
    expect(i18n.getFixedT(other, "translation")("common.skipToContent")).toBe(
      (Object.getPrototypeOf(Object.getPrototypeOf(i18n)) as I18n).getFixedT(other, "translation")("common.skipToContent"),
    );
    expect(i18n.getFixedT(lng, "translation", "common")("skipToContent")).toBe(i18n.getFixedT(lng, "translation")("common.skipToContent"));
  });
});
