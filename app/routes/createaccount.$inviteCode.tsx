// /createaccount/{inviteCode}, step 1: an invited team member types their name, email (prefilled when the
// invitation came by email), UK mobile (prefilled when it came by text) and password; we text a PIN to the
// mobile. A code that is unknown, used, revoked or expired shows the invalid-invitation page (404).
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import type { Route } from "./+types/createaccount.$inviteCode";
import { detailsSchema, InvalidInvite, InviteSteps } from "./createaccount.shared";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { LIMITS, withinLimits } from "~/domain/accounts/codes.server";
import { findUsableInvite, startInviteAcceptance } from "~/domain/accounts/team.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { getI18n } from "~/lib/i18n.server";
import { formatUkNumber, parseUkMobile } from "~/lib/phone";

export const handle = { titleKey: "team.accept.meta.title", descriptionKey: "team.accept.meta.description" };

const serverSchema = detailsSchema.superRefine((v, ctx) => {
  if (!parseUkMobile(v.mobile)) ctx.addIssue({ code: "custom", path: ["mobile"], message: "validation.phone" });
});

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, now } = getDeps(context);
  const invite = await findUsableInvite(db, params.inviteCode, now());
  if (!invite) return data({ invite: null }, { status: 404 });
  const mobile = invite.pendingMobile ?? (invite.channel === "SMS" ? invite.sentTo : null);
  return {
    invite: {
      businessName: invite.businessName,
      defaults: {
        name: invite.pendingName ?? "",
        email: invite.pendingEmail ?? (invite.channel === "EMAIL" ? invite.sentTo : ""),
        mobile: mobile ? formatUkNumber(mobile).replace(/\s/g, "") : "",
      },
    },
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  const invite = await findUsableInvite(db, params.inviteCode, now());
  if (!invite) return data({ invalid: true as const, result: null }, { status: 404 });
  const submission = parseWithZod(await request.formData(), { schema: serverSchema });
  const hide = ["password", "confirmPassword"];
  if (submission.status !== "success") return data({ invalid: false as const, result: submission.reply({ hideFields: hide }) }, { status: 400 });
  const v = submission.value;
  const mobile = parseUkMobile(v.mobile)!;
  const ok = await withinLimits(
    db,
    [
      [`invite-accept:ip:${clientIp(request)}`, LIMITS.signupStartIp],
      [`invite-accept:mobile:${mobile}`, LIMITS.signupStartMobile],
    ],
    now(),
  );
  if (!ok) return data({ invalid: false as const, result: submission.reply({ formErrors: ["errors.rateLimited"], hideFields: hide }) }, { status: 429 });
  try {
    const i18n = getI18n(context);
    await startInviteAcceptance(
      db,
      invite,
      { name: v.name, email: v.email, mobile, password: v.password },
      { sender: config.systemSender, maxIssues: config.pinMaxIssues, message: (code) => i18n.t("signup.sms.pin", { code }) },
      now(),
    );
  } catch (error) {
    // Revoked or resent while the form was open.
    if (error instanceof AppError && error.status === 404) return data({ invalid: true as const, result: null }, { status: 404 });
    const reply = replyWithError(submission, error, hide);
    return data({ invalid: false as const, result: reply.data.result }, reply.init ?? undefined);
  }
  return redirect(`/createaccount/${params.inviteCode}/verify`);
}

export default function CreateAccount({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const invite = loaderData.invite;
  const [form, fields] = useValidatedForm(detailsSchema, actionData?.result, { id: "createaccount", defaultValue: invite?.defaults });
  if (!invite || actionData?.invalid) return <InvalidInvite />;
  return (
    <div className="public__card stack">
      <InviteSteps current="details" />
      <h1>{t("team.accept.title", { business: invite.businessName })}</h1>
      <p className="lead">{t("team.accept.lead", { business: invite.businessName })}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field field={fields.name} label={t("auth.fields.name")} input={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name", maxLength: 40 }} />
        <Field field={fields.email} label={t("auth.fields.email")} input={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", maxLength: 254 }} />
        <Field
          field={fields.mobile}
          label={t("auth.fields.mobile")}
          hint={t("signup.info.mobileHint")}
          type="tel"
          input={{ ...getInputProps(fields.mobile, { type: "tel" }), autoComplete: "tel-national", inputMode: "tel", maxLength: 25 }}
        />
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
        <Button className="btn--block">{t("team.accept.submit")}</Button>
      </AppForm>
    </div>
  );
}
