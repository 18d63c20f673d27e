// Onboarding incomplete: the number request failed (SU001); the owner can try again.
import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import type { Route } from "./+types/welcome.incomplete";
import { Banner, PageHeader, Panel } from "~/components/ui";
import { getOnboarding, ONBOARDING } from "~/domain/accounts/onboarding.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { errorKey } from "~/lib/errors";
import { RequestNumberForm } from "~/components/onboarding-form";

export const handle = { titleKey: "onboarding.incomplete.metaTitle", descriptionKey: "onboarding.meta.description" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const onboarding = await getOnboarding(getDeps(context).db, user.businessId);
  if (onboarding.onboarding === ONBOARDING.COMPLETE) throw redirect("/welcome/success");
  if (onboarding.onboarding !== ONBOARDING.NUMBER_FAILED) throw redirect("/welcome");
  return null;
}

export default function WelcomeIncomplete() {
  const { t } = useTranslation();
  return (
    <div className="page--narrow stack welcome">
      <PageHeader title={t("onboarding.incomplete.title")} />
      <Panel id="try-again">
        <Banner tone="error">{t(errorKey("SU001"))}</Banner>
        <p>{t("onboarding.incomplete.body")}</p>
        <RequestNumberForm label={t("onboarding.incomplete.retry")} action="/welcome" />
      </Panel>
    </div>
  );
}
