// Sign-up step 3 "Secure": the password (BR023 rules) and its confirmation.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import type { Route } from "./+types/signup.secure";
import { passwordPairSchema, SIGNUP_COOKIE, SignupSteps } from "./signup.shared";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { readCookie } from "~/lib/cookies.server";
import { replyWithError } from "~/lib/forms.server";
import { findSignup, setSignupPassword } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "signup.meta.secure.title", descriptionKey: "signup.meta.secure.description" };

async function requireVerifiedSignup(request: Request, context: Route.LoaderArgs["context"]) {
  const { db, now } = getDeps(context);
  const signup = await findSignup(db, readCookie(request, SIGNUP_COOKIE), now());
  if (!signup) throw redirect("/signup");
  if (!signup.verified_at) throw redirect("/signup/verify");
  return signup;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireVerifiedSignup(request, context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const signup = await requireVerifiedSignup(request, context);
  const { db } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema: passwordPairSchema });
  const hide = ["password", "confirmPassword"];
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: hide }) }, { status: 400 });
  try {
    await setSignupPassword(db, signup, submission.value.password);
  } catch (error) {
    return replyWithError(submission, error, hide);
  }
  return redirect("/signup/terms");
}

export default function SignupSecure() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(passwordPairSchema, actionData?.result);
  return (
    <div className="public__card stack">
      <SignupSteps current="secure" />
      <h1>{t("signup.secure.title")}</h1>
      <p className="lead">{t("signup.secure.lead")}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field
          field={fields.password}
          label={t("auth.fields.password")}
          hint={t("signup.secure.rules")}
          type="password"
          input={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", maxLength: 50 }}
        />
        <Field
          field={fields.confirmPassword}
          label={t("auth.fields.confirmPassword")}
          type="password"
          input={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password", maxLength: 50 }}
        />
        <Button className="btn--block">{t("signup.secure.submit")}</Button>
      </AppForm>
      <p>
        <Link to="/signup">{t("signup.secure.back")}</Link>
      </p>
    </div>
  );
}
