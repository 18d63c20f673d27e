// i18n resources and options shared by server and browser. Each JSON file under locales/<lng>/ is a
// key prefix: locales/en-GB/auth.json holds the keys "auth.*". All live in the one "translation" namespace.
export const SUPPORTED_LOCALES = ["en-GB", "fr"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en-GB";

export function isLocale(v: unknown): v is Locale {
  return typeof v === "string" && (SUPPORTED_LOCALES as readonly string[]).includes(v);
}

export const i18nOptions = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: "translation",
  ns: ["translation"],
  interpolation: { escapeValue: false },
  returnNull: false,
} as const;
