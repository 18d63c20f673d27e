// The language choice (en-GB, fr): plain links that work without JavaScript. Following one sets the
// language cookie (root middleware) and reloads the same page, its query string kept.
import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";

export const LOCALES = ["en-GB", "fr"] as const;

export function LocaleSwitch() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  const hrefFor = (lng: string) => {
    const params = new URLSearchParams(location.search);
    params.set("lng", lng);
    return `${location.pathname}?${params.toString()}`;
  };
  return (
    <nav className="locale-switch" aria-label={t("common.language")}>
      {LOCALES.map((lng) => (
        <a key={lng} href={hrefFor(lng)} aria-current={i18n.language === lng ? "true" : undefined} lang={lng} hrefLang={lng}>
          {t(`common.localeName.${lng}`)}
        </a>
      ))}
    </nav>
  );
}
