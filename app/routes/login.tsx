// Login: sign in with email and password. Lockout (UA004), disabled (UA005), rate limits per address.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useSearchParams } from "react-router";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { z } from "zod";
import type { Route } from "./+types/login";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { getSessionUser, startWebSession } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { email } from "~/lib/validation";
import { verifyLogin } from "~/domain/accounts/users.server";
import { rateLimitReached, withinRateLimit } from "~/domain/ratelimit.server";

export const handle = { titleKey: "meta.login.title", descriptionKey: "meta.login.description" };

const schema = z.object({
  email,
  password: z.string({ error: "validation.required" }).max(200, "validation.tooLongShort"),
  redirectTo: z.string().optional(),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  if (await getSessionUser(request, context)) throw redirect("/");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  // Failed attempts from one address are limited (guessing across many accounts); sign-ins that work are not
  // counted, so a team sharing one connection is never shut out by its own logins.
  const addressKey = `login:ip:${clientIp(request)}`;
  try {
    if (await rateLimitReached(db, addressKey, LOGIN_FAILURES_PER_ADDRESS, LOGIN_ADDRESS_WINDOW_SECONDS, now())) {
      throw new AppError("UA004", { context: "address", minutes: LOGIN_ADDRESS_WINDOW_SECONDS / 60 }, { status: 429 });
    }
    const authenticator = new Authenticator<number>().use(
      new FormStrategy(async () =>
        verifyLogin(db, submission.value.email, submission.value.password, { maxFailures: config.loginMaxFailures, lockoutMinutes: config.lockoutMinutes }, now()),
      ),
      "form",
    );
    const userId = await authenticator.authenticate("form", request);
    const cookie = await startWebSession(context, request, userId);
    return redirect(safeRedirect(submission.value.redirectTo, new URL(request.url).origin), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof AppError && (error.code === "UA003" || (error.code === "UA004" && error.data?.context !== "address"))) {
      await withinRateLimit(db, addressKey, LOGIN_FAILURES_PER_ADDRESS, LOGIN_ADDRESS_WINDOW_SECONDS, now());
    }
    return replyWithError(submission, error, ["password"]);
  }
}

/** Failed sign-ins allowed from one address per window. */
const LOGIN_FAILURES_PER_ADDRESS = 30;
const LOGIN_ADDRESS_WINDOW_SECONDS = 300;

export default function Login() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  return (
    <div className="public__card stack">
      <h1>{t("auth.login.title")}</h1>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/"} />
        <Field field={fields.email} label={t("auth.fields.email")} input={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "email", maxLength: 254 }} />
        <Field field={fields.password} label={t("auth.fields.password")} type="password" input={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }} />
        <Button className="btn--block">{t("auth.login.submit")}</Button>
      </AppForm>
      <p>
        <Link to="/forgotten-login">{t("auth.login.forgotten")}</Link>
      </p>
      <p>
        {t("auth.login.noAccount")} <Link to="/signup">{t("auth.login.signUp")}</Link>
      </p>
    </div>
  );
}
