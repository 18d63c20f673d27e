// /createaccount/{inviteCode}/verify, step 2: the PIN texted to the invitee's mobile. The right code creates
// the team member's account, uses the invitation up and signs them in on the home page. "Send a new code"
// re-issues within the same caps as sign-up.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/createaccount.$inviteCode.verify";
import { InvalidInvite, InviteSteps } from "./createaccount.shared";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { issueAllowance, LIMITS, withinLimits, type CheckResult } from "~/domain/accounts/codes.server";
import { acceptInvite, findUsableInvite, sendInvitePin } from "~/domain/accounts/team.server";
import { startWebSession } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { getI18n, getLocale } from "~/lib/i18n.server";
import { formatUkNumber } from "~/lib/phone";
import { formatUkTime } from "~/lib/uk-time";
import { verificationCode } from "~/lib/validation";

export const handle = { titleKey: "signup.meta.verify.title", descriptionKey: "signup.meta.verify.description" };

const schema = z.object({ code: verificationCode });

function checkMessage(result: Exclude<CheckResult, { ok: true }>): string {
  if (result.reason === "wrong") {
    return result.attemptsLeft > 0 ? `signup.verify.wrong|${JSON.stringify({ count: result.attemptsLeft })}` : "signup.verify.wrongLast";
  }
  return `signup.verify.${result.reason}`;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config, now } = getDeps(context);
  const invite = await findUsableInvite(db, params.inviteCode, now());
  if (!invite) return data({ state: null }, { status: 404 });
  if (!invite.pendingMobile) throw redirect(`/createaccount/${params.inviteCode}`);
  const allowance = await issueAllowance(db, "INVITE", `invite:${invite.id}:${invite.pendingMobile}`, config.pinMaxIssues, now());
  return {
    state: {
      mobile: formatUkNumber(invite.pendingMobile),
      issuesLeft: allowance.issuesLeft,
      retryAt: allowance.retryAt ? formatUkTime(allowance.retryAt, getLocale(context)) : null,
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  const invite = await findUsableInvite(db, params.inviteCode, now());
  if (!invite) return data({ invalid: true as const, result: null }, { status: 404 });
  if (!invite.pendingMobile) throw redirect(`/createaccount/${params.inviteCode}`);
  const formData = await request.formData();
  const ip = clientIp(request);

  if (formData.get("intent") === "resend") {
    const submission = parseWithZod(new FormData(), { schema: z.object({}) });
    const ok = await withinLimits(db, [[`pin-resend:ip:${ip}`, LIMITS.codeResendIp], [`pin-resend:mobile:${invite.pendingMobile}`, LIMITS.codeResendMobile]], now());
    if (!ok) return data({ invalid: false as const, result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
    const i18n = getI18n(context);
    const issued = await sendInvitePin(db, invite, { sender: config.systemSender, maxIssues: config.pinMaxIssues, message: (code) => i18n.t("signup.sms.pin", { code }) }, now());
    if (!issued.ok) {
      const message = `signup.verify.maxIssues|${JSON.stringify({ time: formatUkTime(issued.retryAt, getLocale(context)) })}`;
      return data({ invalid: false as const, result: submission.reply({ formErrors: [message] }) }, { status: 429 });
    }
    setToast(context, { type: "success", message: "signup.verify.resent" });
    return redirect(`/createaccount/${params.inviteCode}/verify`);
  }

  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data({ invalid: false as const, result: submission.reply({ hideFields: ["code"] }) }, { status: 400 });
  const ok = await withinLimits(db, [[`pin-verify:ip:${ip}`, LIMITS.codeVerifyIp], [`pin-verify:invite:${invite.id}`, LIMITS.codeVerifySubject]], now());
  if (!ok) return data({ invalid: false as const, result: submission.reply({ formErrors: ["errors.rateLimited"], hideFields: ["code"] }) }, { status: 429 });
  let accepted;
  try {
    accepted = await acceptInvite(db, invite, submission.value.code, now());
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return data({ invalid: true as const, result: null }, { status: 404 });
    const reply = replyWithError(submission, error, ["code"]);
    // An email or mobile taken meanwhile: the person changes their details on step 1.
    return data({ invalid: false as const, result: reply.data.result }, reply.init ?? undefined);
  }
  if (!accepted.ok) return data({ invalid: false as const, result: submission.reply({ formErrors: [checkMessage(accepted)], hideFields: ["code"] }) }, { status: 400 });
  const cookie = await startWebSession(context, request, accepted.userId);
  setToast(context, { type: "success", message: "team.accept.welcome" });
  return redirect("/", { headers: { "Set-Cookie": cookie } });
}

export default function CreateAccountVerify({ loaderData, params }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "createaccount-verify" });
  const state = loaderData.state;
  if (!state || actionData?.invalid) return <InvalidInvite />;
  return (
    <div className="public__card stack">
      <InviteSteps current="validate" />
      <h1>{t("signup.verify.title")}</h1>
      <p className="lead">{t("signup.verify.lead", { mobile: state.mobile })}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field
          field={fields.code}
          label={t("auth.fields.code")}
          hint={t("signup.verify.codeHint")}
          input={{ ...getInputProps(fields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6, className: "code-input" }}
        />
        <Button className="btn--block">{t("team.accept.verifySubmit")}</Button>
      </AppForm>
      <AppForm className="stack">
        <input type="hidden" name="intent" value="resend" />
        <p>{t("signup.verify.noCode")}</p>
        {state.issuesLeft > 0 ? <p>{t("signup.verify.issuesLeft", { count: state.issuesLeft })}</p> : <p>{t("signup.verify.maxIssues", { time: state.retryAt })}</p>}
        <Button variant="secondary" disabled={state.issuesLeft === 0}>
          {t("signup.verify.resend")}
        </Button>
      </AppForm>
      <p>
        <Link to={`/createaccount/${params.inviteCode}`}>{t("signup.verify.back")}</Link>
      </p>
    </div>
  );
}
