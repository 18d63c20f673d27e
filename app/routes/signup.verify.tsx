// Sign-up step 2 "Validate": the PIN texted to the mobile. Wrong tries are limited per code;
// "Send a new code" re-issues (showing how many more codes may be asked for this hour), and at the
// maximum the last code still works, or the person can ask again after the time shown.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/signup.verify";
import { SIGNUP_COOKIE, SignupSteps } from "./signup.shared";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { readCookie } from "~/lib/cookies.server";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { getI18n, getLocale } from "~/lib/i18n.server";
import { formatUkNumber } from "~/lib/phone";
import { verificationCode } from "~/lib/validation";
import { issueAllowance, LIMITS, withinLimits, type CheckResult } from "~/domain/accounts/codes.server";
import { formatUkTime } from "~/lib/uk-time";
import { findSignup, sendSignupPin, verifySignupPin } from "~/domain/accounts/signup.server";

export const handle = { titleKey: "signup.meta.verify.title", descriptionKey: "signup.meta.verify.description" };

const schema = z.object({ code: verificationCode });

async function requireSignup(request: Request, context: Route.LoaderArgs["context"]) {
  const { db, now } = getDeps(context);
  const signup = await findSignup(db, readCookie(request, SIGNUP_COOKIE), now());
  if (!signup) throw redirect("/signup");
  if (signup.verified_at) throw redirect("/signup/secure");
  return signup;
}

/** A form error for a failed code check (with placeholder data as "key|{json}"). */
function checkMessage(result: Exclude<CheckResult, { ok: true }>): string {
  if (result.reason === "wrong") {
    return result.attemptsLeft > 0 ? `signup.verify.wrong|${JSON.stringify({ count: result.attemptsLeft })}` : "signup.verify.wrongLast";
  }
  return `signup.verify.${result.reason}`;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const signup = await requireSignup(request, context);
  const { db, config, now } = getDeps(context);
  const allowance = await issueAllowance(db, "SIGNUP", signup.id, config.pinMaxIssues, now());
  return {
    mobile: formatUkNumber(signup.mobile),
    issuesLeft: allowance.issuesLeft,
    retryAt: allowance.retryAt ? formatUkTime(allowance.retryAt, getLocale(context)) : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const signup = await requireSignup(request, context);
  const { db, config, now } = getDeps(context);
  const formData = await request.formData();
  const ip = clientIp(request);

  if (formData.get("intent") === "resend") {
    const submission = parseWithZod(new FormData(), { schema: z.object({}) });
    const ok = await withinLimits(db, [[`pin-resend:ip:${ip}`, LIMITS.codeResendIp], [`pin-resend:mobile:${signup.mobile}`, LIMITS.codeResendMobile]], now());
    if (!ok) return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
    try {
      const i18n = getI18n(context);
      const issued = await sendSignupPin(db, config.systemSender, signup, config.pinMaxIssues, (code) => i18n.t("signup.sms.pin", { code }), now());
      if (!issued.ok) {
        const message = `signup.verify.maxIssues|${JSON.stringify({ time: formatUkTime(issued.retryAt, getLocale(context)) })}`;
        return data({ result: submission.reply({ formErrors: [message] }) }, { status: 429 });
      }
    } catch (error) {
      return replyWithError(submission, error);
    }
    setToast(context, { type: "success", message: "signup.verify.resent" });
    return redirect("/signup/verify");
  }

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  const ok = await withinLimits(db, [[`pin-verify:ip:${ip}`, LIMITS.codeVerifyIp], [`pin-verify:signup:${signup.id}`, LIMITS.codeVerifySubject]], now());
  if (!ok) return data({ result: submission.reply({ formErrors: ["errors.rateLimited"], hideFields: ["code"] }) }, { status: 429 });
  const result = await verifySignupPin(db, signup, submission.value.code, now());
  if (!result.ok) return data({ result: submission.reply({ formErrors: [checkMessage(result)], hideFields: ["code"] }) }, { status: 400 });
  return redirect("/signup/secure");
}

export default function SignupVerify() {
  const { t } = useTranslation();
  const { mobile, issuesLeft, retryAt } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "signup-verify" });
  return (
    <div className="public__card stack">
      <SignupSteps current="validate" />
      <h1>{t("signup.verify.title")}</h1>
      <p className="lead">{t("signup.verify.lead", { mobile })}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field
          field={fields.code}
          label={t("auth.fields.code")}
          hint={t("signup.verify.codeHint")}
          input={{ ...getInputProps(fields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6, className: "code-input" }}
        />
        <Button className="btn--block">{t("signup.verify.submit")}</Button>
      </AppForm>
      <AppForm className="stack">
        <input type="hidden" name="intent" value="resend" />
        <p>{t("signup.verify.noCode")}</p>
        {issuesLeft > 0 ? (
          <p>{t("signup.verify.issuesLeft", { count: issuesLeft })}</p>
        ) : (
          <p>{t("signup.verify.maxIssues", { time: retryAt })}</p>
        )}
        <Button variant="secondary" disabled={issuesLeft === 0}>
          {t("signup.verify.resend")}
        </Button>
      </AppForm>
      <p>
        <Link to="/signup">{t("signup.verify.back")}</Link>
      </p>
    </div>
  );
}
