// Pieces shared by the sign-up pages (not a route): the step indicator, the step-1 "Info" form and its
// schema (used by /signup and /signup-form/{referralCode}), and the cookie that carries the pending sign-up.
import { getFormProps, getInputProps, type SubmissionResult } from "@conform-to/react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { z } from "zod";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button } from "~/components/ui";
import { companyName, email, password, personName, phoneInput } from "~/lib/validation";

export const SIGNUP_COOKIE = "tc_signup";

export function signupCookieHeader(token: string, expires: Date, secure: boolean): string {
  return `${SIGNUP_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Expires=${expires.toUTCString()}`;
}

export function clearSignupCookieHeader(secure: boolean): string {
  return `${SIGNUP_COOKIE}=; Path=/; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}; Max-Age=0`;
}

export const infoSchema = z.object({
  company: companyName,
  name: personName,
  email,
  mobile: phoneInput,
  referralCode: z.string().trim().max(40, "errors.referralNotFound").optional(),
});

/** A new password and its confirmation (sign-up step 3 and the forgotten-login reset). */
export const passwordPairSchema = z
  .object({ password, confirmPassword: z.string({ error: "validation.required" }).max(200, "validation.passwordMatch") })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordMatch" });

const STEPS = ["info", "validate", "secure", "terms"] as const;
export type Step = (typeof STEPS)[number];

/** The step indicator (ol.steps, aria-current="step"). */
export function SignupSteps({ current }: { current: Step }) {
  const { t } = useTranslation();
  const at = STEPS.indexOf(current);
  return (
    <ol className="steps" aria-label={t("signup.steps.label")}>
      {STEPS.map((s, i) => (
        <li key={s} aria-current={i === at ? "step" : undefined} className={i < at ? "done" : undefined}>
          {t(`signup.steps.${s}`)}
          {i < at ? <span className="visually-hidden"> {t("signup.steps.done")}</span> : null}
        </li>
      ))}
    </ol>
  );
}

export interface InfoDefaults {
  company?: string;
  name?: string;
  email?: string;
  mobile?: string;
}

/** Step 1. Posts to /signup, also when shown at /signup-form/{referralCode}. */
export function InfoForm({
  lastResult,
  defaults,
  referral,
}: {
  lastResult?: SubmissionResult<string[]> | null;
  defaults?: InfoDefaults | null;
  referral?: { code: string; name: string } | null;
}) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm(infoSchema, lastResult, { defaultValue: { ...defaults, referralCode: referral?.code } });
  const referralCode = fields.referralCode.initialValue ?? referral?.code;
  return (
    <div className="public__card stack">
      <SignupSteps current="info" />
      <h1>{t("signup.info.title")}</h1>
      <p className="lead">{t("signup.info.lead")}</p>
      {referral ? <Banner tone="success">{t("signup.info.referredBy", { name: referral.name })}</Banner> : null}
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} action="/signup" className="form">
        {referralCode ? <input type="hidden" name="referralCode" value={referralCode} /> : null}
        <Field
          field={fields.company}
          label={t("auth.fields.company")}
          hint={t("signup.info.companyHint")}
          input={{ ...getInputProps(fields.company, { type: "text" }), autoComplete: "organization", maxLength: 40 }}
        />
        <Field field={fields.name} label={t("auth.fields.name")} input={{ ...getInputProps(fields.name, { type: "text" }), autoComplete: "name", maxLength: 40 }} />
        <Field field={fields.email} label={t("auth.fields.email")} input={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", maxLength: 254 }} />
        <Field
          field={fields.mobile}
          label={t("auth.fields.mobile")}
          hint={t("signup.info.mobileHint")}
          type="tel"
          input={{ ...getInputProps(fields.mobile, { type: "tel" }), autoComplete: "tel-national", inputMode: "tel", maxLength: 25 }}
        />
        <Button className="btn--block">{t("signup.info.submit")}</Button>
      </AppForm>
      <p>
        {t("signup.info.haveAccount")} <Link to="/login">{t("signup.info.signIn")}</Link>
      </p>
    </div>
  );
}

/** The full terms and conditions text (sign-up terms step and /termsupdated). */
export function TermsText({ version }: { version: string }) {
  const { t } = useTranslation();
  return (
    <section className="terms-text" id="terms-text" aria-labelledby="terms-text-title">
      <h2 id="terms-text-title">{t("signup.terms.fullTitle", { version })}</h2>
      {[1, 2, 3, 4, 5, 6].map((n) => (
        <p key={n}>{t(`signup.terms.text${n}`)}</p>
      ))}
    </section>
  );
}
