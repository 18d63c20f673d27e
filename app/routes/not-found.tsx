// The catch-all page-not-found screen, answered with a real 404.
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import { ButtonLink } from "~/components/ui";

export const handle = { titleKey: "notFound.title" };

// Unknown /api/ paths never get here: routes/api/not-found.ts answers them with the JSON envelope.
export async function loader() {
  return data(null, { status: 404 });
}

export async function action() {
  return loader();
}

export default function NotFound() {
  const { t } = useTranslation();
  return (
    <main id="main" className="page page--narrow">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.body")}</p>
      <ButtonLink to="/">{t("common.goHome")}</ButtonLink>
    </main>
  );
}
