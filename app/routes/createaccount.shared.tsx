// Pieces shared by the invitation pages (not a route): the details schema, the two-step indicator and the
// §8 "invalid or expired invitation link" page shown for any code that cannot be used.
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { email, password, personName, phoneInput } from "~/lib/validation";

export const detailsSchema = z
  .object({
    name: personName,
    email,
    mobile: phoneInput,
    password,
    confirmPassword: z.string({ error: "validation.required" }).max(200, "validation.passwordMatch"),
  })
  .refine((v) => v.password === v.confirmPassword, { path: ["confirmPassword"], message: "validation.passwordMatch" });

const STEPS = ["details", "validate"] as const;

export function InviteSteps({ current }: { current: (typeof STEPS)[number] }) {
  const { t } = useTranslation();
  const at = STEPS.indexOf(current);
  return (
    <ol className="steps" aria-label={t("team.accept.steps.label")}>
      {STEPS.map((s, i) => (
        <li key={s} aria-current={i === at ? "step" : undefined} className={i < at ? "done" : undefined}>
          {t(`team.accept.steps.${s}`)}
          {i < at ? <span className="visually-hidden"> {t("signup.steps.done")}</span> : null}
        </li>
      ))}
    </ol>
  );
}

/** Unknown, used, revoked or expired: one page, which does not say which (the code is the only secret). */
export function InvalidInvite() {
  const { t } = useTranslation();
  return (
    <div className="public__card stack" id="invalid-invite">
      <h1>{t("team.accept.invalid.title")}</h1>
      <p>{t("team.accept.invalid.body")}</p>
      <p>
        <a className="btn btn--primary" href="/login">
          {t("team.accept.invalid.login")}
        </a>
      </p>
    </div>
  );
}
