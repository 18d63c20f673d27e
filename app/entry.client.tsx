import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { HydratedRouter } from "react-router/dom";
import { i18nOptions, isLocale, DEFAULT_LOCALE } from "~/lib/i18n";
import { installResponseWatch } from "~/lib/version-watch.client";

async function main() {
  const lang = document.documentElement.lang;
  const lng = isLocale(lang) ? lang : DEFAULT_LOCALE;
  installResponseWatch();
  // The translations for the page's language, one cached request (see routes/locales.ts).
  const res = await fetch(`/locales/${lng}`);
  const translation = res.ok ? ((await res.json()) as Record<string, unknown>) : {};
  await i18next.use(initReactI18next).init({
    ...i18nOptions,
    supportedLngs: [...i18nOptions.supportedLngs],
    lng,
    resources: { [lng]: { translation } },
  });
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <HydratedRouter />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

main().catch((error: unknown) => {
  // The server-rendered page stays usable without JavaScript; say why it was not enhanced.
  console.error("Could not start the page's JavaScript:", error);
});
