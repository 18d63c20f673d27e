// What an error page says (a 404, permission denied, an expired form, or something that went wrong),
// shared by the root error boundary, the signed-in layout's (inside the shell) and the catch-all 404.
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse } from "react-router";
import { Banner, ButtonLink } from "~/components/ui";

export function ErrorContent({ error }: { error: unknown }) {
  const { t } = useTranslation();
  let title = t("errors.pageTitle");
  let message = t("errors.generic");
  if (isRouteErrorResponse(error)) {
    const code = (error.data as { code?: string } | undefined)?.code;
    if (error.status === 404) {
      title = t("notFound.title");
      message = t("notFound.body");
    } else if (error.status === 403 && code === "FB001") {
      title = t("errors.forbiddenTitle");
      message = t("errors.forbidden");
    } else if (error.status === 403 && code === "CSRF") {
      title = t("errors.csrfTitle");
      message = t("errors.csrf");
    } else if (error.status === 413) {
      message = t("errors.tooLarge");
    }
  } else if (import.meta.env.DEV && error instanceof Error) {
    console.error(error);
  }
  return (
    <div className="error-page">
      <h1>{title}</h1>
      <Banner tone="error">{message}</Banner>
      <p>
        <ButtonLink to="/">{t("common.goHome")}</ButtonLink>
      </p>
    </div>
  );
}

export function NotFoundContent() {
  const { t } = useTranslation();
  return (
    <div className="error-page">
      <h1>{t("notFound.title")}</h1>
      <p>{t("notFound.body")}</p>
      <ButtonLink to="/">{t("common.goHome")}</ButtonLink>
    </div>
  );
}
