// Forgotten login: asks for the account's email or mobile and texts a code to the account's mobile.
// The answer is the same whether or not an account matches.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/forgotten-login";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { getSessionUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { clientIp } from "~/lib/forms.server";
import { getI18n, getLocale } from "~/lib/i18n.server";
import { LIMITS, withinLimits } from "~/domain/accounts/codes.server";
import { formatUkTime } from "~/lib/uk-time";
import { parseIdentifier, requestPasswordReset, resetCookieHeader } from "~/domain/accounts/password-reset.server";

export const handle = { titleKey: "auth.forgotten.title", descriptionKey: "auth.forgotten.lead" };

const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;
const schema = z.object({
  identifier: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(254, "auth.forgotten.identifierInvalid")
    .refine((v) => !CONTROL.test(v), "validation.controlChars")
    .refine((v) => /^[^<>"'`;\\]*$/.test(v), "auth.forgotten.identifierInvalid"),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const id = parseIdentifier(submission.value.identifier);
  if (!id) return data({ result: submission.reply({ fieldErrors: { identifier: ["auth.forgotten.identifierInvalid"] } }) }, { status: 400 });
  if (!(await withinLimits(db, [[`reset:ip:${clientIp(request)}`, LIMITS.resetIp]], now()))) {
    return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
  }
  const i18n = getI18n(context);
  const result = await requestPasswordReset(db, config.systemSender, id, config.pinMaxIssues, (code) => i18n.t("signup.sms.pin", { code }), now());
  if (!result.ok) {
    const message = `auth.reset.maxIssues|${JSON.stringify({ time: formatUkTime(result.retryAt, getLocale(context)) })}`;
    return data({ result: submission.reply({ formErrors: [message] }) }, { status: 429 });
  }
  setToast(context, { type: "info", message: "auth.forgotten.sent" });
  return redirect("/forgotten-login/verify", { headers: { "Set-Cookie": resetCookieHeader(id, config.production) } });
}

export default function ForgottenLogin() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  return (
    <div className="public__card stack">
      <h1>{t("auth.forgotten.title")}</h1>
      <p className="lead">{t("auth.forgotten.lead")}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field
          field={fields.identifier}
          label={t("auth.fields.identifier")}
          input={{ ...getInputProps(fields.identifier, { type: "text" }), autoComplete: "username", maxLength: 254 }}
        />
        <Button className="btn--block">{t("auth.forgotten.submit")}</Button>
      </AppForm>
      <p>
        <Link to="/login">{t("auth.forgotten.back")}</Link>
      </p>
    </div>
  );
}
