// Shown when the browser keeps running an old version of the app after a reload.
import { useTranslation } from "react-i18next";

export const handle = { titleKey: "invalid.title" };

export default function Invalid() {
  const { t } = useTranslation();
  return (
    <main id="main" className="page page--narrow">
      <h1>{t("invalid.title")}</h1>
      <p>{t("invalid.body")}</p>
      <p>
        <a className="btn btn--primary" href="/">{t("invalid.refresh")}</a>
      </p>
    </main>
  );
}
