import { SUPPORTED_LOCALES, type Locale } from "./i18n";

const files = import.meta.glob<Record<string, unknown>>("../locales/*/*.json", { eager: true, import: "default" });

/** locale -> { prefix -> keys } merged from locales/<locale>/<prefix>.json */
export const resources: Record<Locale, Record<string, unknown>> = Object.fromEntries(
  SUPPORTED_LOCALES.map((lng) => [lng, {}]),
) as Record<Locale, Record<string, unknown>>;

for (const [file, content] of Object.entries(files)) {
  const m = /locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (!m) continue;
  const [, lng, prefix] = m;
  if (lng in resources) resources[lng as Locale][prefix] = content;
}
