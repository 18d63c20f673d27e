// /termsupdated: the terms changed since this business accepted them. Shows what changed and the
// full text; accepting records the current version and goes home. The _app gate sends accounts here.
import { useTranslation } from "react-i18next";
import { redirect, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/termsupdated";
import { TermsText } from "./signup.shared";
import { AppForm } from "~/components/form";
import { Button, PageHeader, Panel } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { TERMS_VERSION } from "~/lib/config.server";
import { getDeps } from "~/lib/context.server";
import { acceptTerms, hasAcceptedTerms } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "auth.termsUpdated.metaTitle", descriptionKey: "auth.termsUpdated.metaDescription" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  if (await hasAcceptedTerms(db, user.businessId, TERMS_VERSION)) throw redirect("/");
  return { version: TERMS_VERSION };
}

export async function action({ context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  await acceptTerms(db, user.businessId, TERMS_VERSION);
  setToast(context, { type: "success", message: "auth.termsUpdated.accepted" });
  return redirect("/");
}

export default function TermsUpdated() {
  const { t } = useTranslation();
  const { version } = useLoaderData<typeof loader>();
  return (
    <div className="page--narrow stack">
      <PageHeader title={t("auth.termsUpdated.title")} lead={t("auth.termsUpdated.lead")} />
      <Panel title={t("auth.termsUpdated.changesTitle")} id="terms-changes">
        <ul>
          <li>{t("auth.termsUpdated.change1")}</li>
          <li>{t("auth.termsUpdated.change2")}</li>
          <li>{t("auth.termsUpdated.change3")}</li>
        </ul>
        <p>
          <a href="#terms-text">{t("signup.terms.read")}</a>
        </p>
      </Panel>
      <AppForm>
        <Button className="btn--block">{t("auth.termsUpdated.accept")}</Button>
      </AppForm>
      <Panel>
        <TermsText version={version} />
      </Panel>
    </div>
  );
}
