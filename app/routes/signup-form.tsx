// /signup-form: the sign-up info page. What the free trial includes and how it works, with a
// button to start sign-up.
import { useTranslation } from "react-i18next";
import { Link, redirect } from "react-router";
import type { Route } from "./+types/signup-form";
import { ButtonLink } from "~/components/ui";
import { getSessionUser } from "~/lib/auth.server";

export const handle = { titleKey: "signup.meta.form.title", descriptionKey: "signup.meta.form.description" };

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/");
  return null;
}

export default function SignupFormInfo() {
  const { t } = useTranslation();
  return (
    <div className="public__card stack">
      <h1>{t("signup.form.title")}</h1>
      <p className="lead">{t("signup.form.lead")}</p>
      <h2>{t("signup.form.includesTitle")}</h2>
      <ul>
        {[1, 2, 3, 4].map((n) => (
          <li key={n}>{t(`signup.form.includes${n}`)}</li>
        ))}
      </ul>
      <h2>{t("signup.form.howTitle")}</h2>
      <p>{t("signup.form.how")}</p>
      <p>{t("signup.form.sales")}</p>
      <ButtonLink to="/signup" className="btn--block">
        {t("signup.form.start")}
      </ButtonLink>
      <p>
        {t("signup.info.haveAccount")} <Link to="/login">{t("signup.info.signIn")}</Link>
      </p>
    </div>
  );
}
