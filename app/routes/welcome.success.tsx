// Onboarding success: the new number, the join keyword, and the way to the home screen.
import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import type { Route } from "./+types/welcome.success";
import { ButtonLink, Icon, PageHeader, Panel } from "~/components/ui";
import { getOnboarding, ONBOARDING } from "~/domain/accounts/onboarding.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "onboarding.success.metaTitle", descriptionKey: "onboarding.meta.description" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const onboarding = await getOnboarding(getDeps(context).db, user.businessId);
  if (onboarding.onboarding !== ONBOARDING.COMPLETE || !onboarding.phoneNumber) throw redirect("/welcome");
  return { number: formatUkNumber(onboarding.phoneNumber), keyword: onboarding.joinKeyword };
}

export default function WelcomeSuccess({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="page--narrow stack welcome">
      <PageHeader title={t("onboarding.success.title")} lead={t("onboarding.success.lead")} />
      <Panel id="your-number" title={t("onboarding.success.numberLabel")}>
        <p className="welcome__number" data-number>
          <Icon name="phone" /> {loaderData.number}
        </p>
        <p>{t("onboarding.success.keyword", { keyword: loaderData.keyword, number: loaderData.number })}</p>
        <p className="welcome__keyword" data-keyword>
          {loaderData.keyword}
        </p>
        <ButtonLink to="/" className="btn--block">
          {t("onboarding.success.goHome")}
        </ButtonLink>
      </Panel>
    </div>
  );
}
