// "update password via verification code": the code texted by /forgotten-login plus a new password.
// Success clears any lockout, ends every other session, signs the person in and goes home.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/forgotten-login.verify";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { startWebSession } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { readCookie } from "~/lib/cookies.server";
import { clientIp } from "~/lib/forms.server";
import { getI18n, getLocale } from "~/lib/i18n.server";
import { formatUkNumber } from "~/lib/phone";
import { password, verificationCode } from "~/lib/validation";
import { LIMITS, withinLimits } from "~/domain/accounts/codes.server";
import { formatUkTime } from "~/lib/uk-time";
import {
  clearResetCookieHeader,
  identifierKey,
  parseIdentifierKey,
  requestPasswordReset,
  RESET_COOKIE,
  resetIssueAllowance,
  resetPassword,
} from "~/domain/accounts/password-reset.server";

export const handle = { titleKey: "auth.reset.title", descriptionKey: "auth.forgotten.lead" };

const schema = z
  .object({ code: verificationCode, password, confirmPassword: z.string({ error: "validation.required" }).max(200, "validation.passwordMatch") })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordMatch" });
const HIDE = ["code", "password", "confirmPassword"];

function requireIdentifier(request: Request) {
  const id = parseIdentifierKey(readCookie(request, RESET_COOKIE));
  if (!id) throw redirect("/forgotten-login");
  return id;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const id = requireIdentifier(request);
  const { db, config, now } = getDeps(context);
  const allowance = await resetIssueAllowance(db, id, config.pinMaxIssues, now());
  return {
    identifier: id.kind === "mobile" ? formatUkNumber(id.value) : id.value,
    issuesLeft: allowance.issuesLeft,
    retryAt: allowance.retryAt ? formatUkTime(allowance.retryAt, getLocale(context)) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const id = requireIdentifier(request);
  const { db, config, now } = getDeps(context);
  const formData = await request.formData();
  const ip = clientIp(request);

  if (formData.get("intent") === "resend") {
    const submission = parseWithZod(new FormData(), { schema: z.object({}) });
    if (!(await withinLimits(db, [[`reset:ip:${ip}`, LIMITS.resetIp]], now()))) {
      return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
    }
    const i18n = getI18n(context);
    const result = await requestPasswordReset(db, config.systemSender, id, config.pinMaxIssues, (code) => i18n.t("signup.sms.pin", { code }), now());
    if (!result.ok) {
      const message = `auth.reset.maxIssues|${JSON.stringify({ time: formatUkTime(result.retryAt, getLocale(context)) })}`;
      return data({ result: submission.reply({ formErrors: [message] }) }, { status: 429 });
    }
    setToast(context, { type: "info", message: "auth.forgotten.sent" });
    return redirect("/forgotten-login/verify");
  }

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: HIDE }) }, { status: 400 });
  const ok = await withinLimits(db, [[`reset-verify:ip:${ip}`, LIMITS.codeVerifyIp], [`reset-verify:${identifierKey(id)}`, LIMITS.codeVerifySubject]], now());
  if (!ok) return data({ result: submission.reply({ formErrors: ["errors.rateLimited"], hideFields: HIDE }) }, { status: 429 });
  const userId = await resetPassword(db, id, submission.value.code, submission.value.password, now());
  if (!userId) return data({ result: submission.reply({ formErrors: ["auth.reset.codeFailed"], hideFields: HIDE }) }, { status: 400 });
  const headers = new Headers();
  headers.append("Set-Cookie", await startWebSession(context, request, userId));
  headers.append("Set-Cookie", clearResetCookieHeader(config.production));
  setToast(context, { type: "success", message: "auth.reset.done" });
  return redirect("/", { headers });
}

export default function ForgottenLoginVerify() {
  const { t } = useTranslation();
  const { identifier, issuesLeft, retryAt } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "reset-verify" });
  return (
    <div className="public__card stack">
      <h1>{t("auth.reset.title")}</h1>
      <p className="lead">{t("auth.reset.lead", { identifier })}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field
          field={fields.code}
          label={t("auth.fields.code")}
          input={{ ...getInputProps(fields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6, className: "code-input" }}
        />
        <Field
          field={fields.password}
          label={t("auth.fields.newPassword")}
          hint={t("auth.reset.rules")}
          type="password"
          input={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", maxLength: 50 }}
        />
        <Field
          field={fields.confirmPassword}
          label={t("auth.fields.confirmNewPassword")}
          type="password"
          input={{ ...getInputProps(fields.confirmPassword, { type: "password" }), autoComplete: "new-password", maxLength: 50 }}
        />
        <Button className="btn--block">{t("auth.reset.submit")}</Button>
      </AppForm>
      <AppForm className="stack">
        <input type="hidden" name="intent" value="resend" />
        <p>{t("auth.reset.noCode")}</p>
        {issuesLeft > 0 ? <p>{t("auth.reset.issuesLeft", { count: issuesLeft })}</p> : <p>{t("auth.reset.maxIssues", { time: retryAt })}</p>}
        <Button variant="secondary" disabled={issuesLeft === 0}>
          {t("auth.reset.resend")}
        </Button>
      </AppForm>
      <p>
        <Link to="/forgotten-login">{t("auth.reset.startAgain")}</Link>
      </p>
    </div>
  );
}
