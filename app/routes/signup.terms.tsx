// Sign-up, last step: accept the terms. Creates the business (trial) and its administrator in one
// transaction, signs them in and goes to /welcome, where onboarding (the dedicated number) starts.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/signup.terms";
import { clearSignupCookieHeader, SIGNUP_COOKIE, SignupSteps, TermsText } from "./signup.shared";
import { AppForm, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { startWebSession } from "~/lib/auth.server";
import { TERMS_VERSION } from "~/lib/config.server";
import { getDeps } from "~/lib/context.server";
import { readCookie } from "~/lib/cookies.server";
import { replyWithError } from "~/lib/forms.server";
import { completeSignup, findSignup } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "signup.meta.terms.title", descriptionKey: "signup.meta.terms.description" };

const schema = z.object({
  accept: z.string({ error: "validation.acceptTerms" }).refine((v) => v === "on", "validation.acceptTerms"),
});

async function requireSecuredSignup(request: Request, context: Route.LoaderArgs["context"]) {
  const { db, now } = getDeps(context);
  const signup = await findSignup(db, readCookie(request, SIGNUP_COOKIE), now());
  if (!signup) throw redirect("/signup");
  if (!signup.verified_at) throw redirect("/signup/verify");
  if (!signup.password_hash) throw redirect("/signup/secure");
  return signup;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireSecuredSignup(request, context);
  return { version: TERMS_VERSION };
}

export async function action({ request, context }: Route.ActionArgs) {
  const signup = await requireSecuredSignup(request, context);
  const { db, config, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const { userId } = await completeSignup(db, signup, TERMS_VERSION, now());
    const headers = new Headers();
    headers.append("Set-Cookie", await startWebSession(context, request, userId));
    headers.append("Set-Cookie", clearSignupCookieHeader(config.production));
    setToast(context, { type: "success", message: "signup.terms.created" });
    return redirect("/welcome", { headers });
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function SignupTerms() {
  const { t } = useTranslation();
  const { version } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  const errors = fields.accept.errors ?? [];
  return (
    <div className="public__card stack">
      <SignupSteps current="terms" />
      <h1>{t("signup.terms.title")}</h1>
      <p className="lead">{t("signup.terms.lead")}</p>
      <h2>{t("signup.terms.summaryTitle")}</h2>
      <ul>
        <li>{t("signup.terms.summary1")}</li>
        <li>{t("signup.terms.summary2")}</li>
        <li>{t("signup.terms.summary3")}</li>
      </ul>
      <p>
        <a href="#terms-text">{t("signup.terms.read")}</a>
      </p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <div className={`field${errors.length ? " field--invalid" : ""}`}>
          <div className="checkbox">
            <input
              {...getInputProps(fields.accept, { type: "checkbox" })}
              key={fields.accept.key}
              aria-describedby={errors.length ? fields.accept.errorId : undefined}
            />
            <label htmlFor={fields.accept.id}>{t("signup.terms.accept")}</label>
          </div>
          {errors.length ? (
            <ul className="field__errors" id={fields.accept.errorId}>
              {errors.map((e) => (
                <li key={e}>{t(e)}</li>
              ))}
            </ul>
          ) : null}
        </div>
        <Button className="btn--block">{t("signup.terms.submit")}</Button>
      </AppForm>
      <p>
        <Link to="/signup/secure">{t("signup.terms.back")}</Link>
      </p>
      <TermsText version={version} />
    </div>
  );
}
