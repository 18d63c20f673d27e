// /signup-form/{referralCode}: sign-up from a referral link. The code must exist (matched case
// sensitively); a valid one shows sign-up step 1 carrying it, an unknown one says so with a link to plain sign-up.
import { useTranslation } from "react-i18next";
import { data, redirect, useLoaderData } from "react-router";
import type { Route } from "./+types/signup-form.$referralCode";
import { InfoForm } from "./signup.shared";
import { ButtonLink } from "~/components/ui";
import { getSessionUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { findReferrer } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "signup.meta.referral.title", descriptionKey: "signup.meta.referral.description" };

export async function loader({ request, context, params }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/");
  const { db } = getDeps(context);
  const referrer = await findReferrer(db, params.referralCode);
  if (!referrer) return data({ referral: null }, { status: 404 });
  return { referral: { code: params.referralCode, name: referrer.name } };
}

export default function SignupReferral() {
  const { t } = useTranslation();
  const { referral } = useLoaderData<typeof loader>();
  if (!referral) {
    return (
      <div className="public__card stack">
        <h1>{t("signup.referral.notFoundTitle")}</h1>
        <p className="banner banner--error" role="alert">
          {t("errors.referralNotFound")}
        </p>
        <p>{t("signup.referral.notFoundBody")}</p>
        <ButtonLink to="/signup" className="btn--block">
          {t("signup.referral.plain")}
        </ButtonLink>
      </div>
    );
  }
  return <InfoForm referral={referral} />;
}
