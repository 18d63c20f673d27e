// Layout for public pages (login, sign-up): a centred card, the brand, and the language choice.
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation } from "react-router";

export default function PublicLayout() {
  const { t, i18n } = useTranslation();
  const location = useLocation();
  return (
    <div className="public">
      <Link to="/" className="public__brand">Textcircle</Link>
      <main id="main" className="page page--narrow">
        <Outlet />
      </main>
      <footer className="public__footer">
        <nav className="locale-switch" aria-label={t("common.language")}>
          {(["en-GB", "fr"] as const).map((lng) => (
            <a key={lng} href={`${location.pathname}?lng=${lng}`} aria-current={i18n.language === lng ? "true" : undefined} lang={lng} hrefLang={lng}>
              {t(`common.localeName.${lng}`)}
            </a>
          ))}
        </nav>
      </footer>
    </div>
  );
}
