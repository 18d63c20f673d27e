// /ops/login: an operator signs in to the console with their own email and password (never a business
// user's). Wrong passwords count towards a lockout (UA003, then UA004), and failed attempts from one
// address are limited like the app's own sign-in.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useSearchParams } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/login";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { operatorContext, opsRedirectTarget, startOperatorSession } from "~/lib/ops-auth.server";
import { email } from "~/lib/validation";
import { verifyOperatorLogin } from "~/domain/ops/operators.server";
import { audit } from "~/domain/ops/audit.server";
import { rateLimitReached, withinRateLimit } from "~/domain/ratelimit.server";

export const handle = { titleKey: "ops.login.title" };

const schema = z.object({
  email,
  password: z.string({ error: "validation.required" }).max(200, "validation.tooLongShort"),
  redirectTo: z.string().max(500).optional(),
});

const FAILURES_PER_ADDRESS = 20;
const ADDRESS_WINDOW_SECONDS = 300;

export function loader({ context }: Route.LoaderArgs) {
  if (context.get(operatorContext)) throw redirect("/ops");
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  const key = `ops:login:ip:${clientIp(request)}`;
  try {
    if (await rateLimitReached(db, key, FAILURES_PER_ADDRESS, ADDRESS_WINDOW_SECONDS, now())) {
      throw new AppError("UA004", { context: "address", minutes: ADDRESS_WINDOW_SECONDS / 60 }, { status: 429 });
    }
    const operatorId = await verifyOperatorLogin(db, submission.value.email, submission.value.password, now());
    const op = await db.selectFrom("operators").select(["id", "email"]).where("id", "=", operatorId).executeTakeFirstOrThrow();
    await audit(db, { id: Number(op.id), email: op.email }, { action: "login" }, now());
    const cookie = await startOperatorSession(context, request, operatorId);
    return redirect(opsRedirectTarget(submission.value.redirectTo), { headers: { "Set-Cookie": cookie } });
  } catch (error) {
    if (error instanceof AppError && (error.code === "UA003" || error.code === "UA004") && error.data?.context !== "address") {
      await withinRateLimit(db, key, FAILURES_PER_ADDRESS, ADDRESS_WINDOW_SECONDS, now());
    }
    return replyWithError(submission, error, ["password"]);
  }
}

export default function OpsLogin() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  return (
    <div className="public__card stack ops-login">
      <h1>{t("ops.login.title")}</h1>
      <p>{t("ops.login.lead")}</p>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="redirectTo" value={params.get("redirectTo") ?? "/ops"} />
        <Field field={fields.email} label={t("auth.fields.email")} input={{ ...getInputProps(fields.email, { type: "email" }), autoComplete: "username", maxLength: 254 }} />
        <Field field={fields.password} label={t("auth.fields.password")} type="password" input={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "current-password" }} />
        <Button className="btn--block">{t("ops.login.submit")}</Button>
      </AppForm>
    </div>
  );
}
