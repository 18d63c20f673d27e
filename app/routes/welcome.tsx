// Onboarding: the welcome screen explains the dedicated number and asks for it. A failure goes
// to /welcome/incomplete (SU001), success to /welcome/success. Safe under double submission.
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { redirect } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/welcome";
import { RequestNumberForm, RequestNumberFormErrors } from "~/components/onboarding-form";
import { Banner, ButtonLink, Icon, PageHeader, Panel } from "~/components/ui";
import { getOnboarding, ONBOARDING, requestNumber } from "~/domain/accounts/onboarding.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";

export const handle = { titleKey: "onboarding.meta.title", descriptionKey: "onboarding.meta.description" };

/** The form has no fields of its own (the CSRF token travels with it). */
const schema = z.object({});

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const onboarding = await getOnboarding(getDeps(context).db, user.businessId);
  return {
    companyName: user.companyName,
    pending: onboarding.onboarding === ONBOARDING.NUMBER_REQUESTED,
    complete: onboarding.onboarding === ONBOARDING.COMPLETE,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, sms, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return replyWithError(submission, new AppError("BR025"));
  try {
    const result = await requestNumber(db, sms, user.businessId, now());
    if (result.status === "PENDING") return redirect("/welcome");
    setToast(context, { type: "success", message: "onboarding.success.toast" });
    return redirect("/welcome/success");
  } catch (error) {
    if (error instanceof AppError && error.code === "SU001") return redirect("/welcome/incomplete");
    return replyWithError(submission, error);
  }
}

export default function Welcome({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="page--narrow stack welcome">
      <PageHeader title={t("onboarding.welcome.title", { company: loaderData.companyName })} lead={t("onboarding.welcome.lead")} />
      <Panel id="welcome-number" title={t("onboarding.welcome.numberTitle")}>
        <ul className="welcome__points">
          <li>
            <Icon name="phone" /> {t("onboarding.welcome.point1")}
          </li>
          <li>
            <Icon name="group" /> {t("onboarding.welcome.point2")}
          </li>
          <li>
            <Icon name="message" /> {t("onboarding.welcome.point3")}
          </li>
        </ul>
        <p className="small muted">{t("onboarding.welcome.cost")}</p>
        {loaderData.pending ? <Banner tone="info">{t("onboarding.welcome.pending")}</Banner> : null}
        {loaderData.complete ? (
          <>
            <RequestNumberFormErrors />
            <ButtonLink to="/welcome/success" className="btn--block">
              {t("onboarding.welcome.seeNumber")}
            </ButtonLink>
          </>
        ) : (
          <RequestNumberForm label={t("onboarding.welcome.submit")} />
        )}
      </Panel>
    </div>
  );
}
