// /ops/password: an operator sets their own password. The one-time password from `npm run ops:create`
// must be replaced here before anything else in the console opens.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/password";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, PageHeader } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { replyWithError } from "~/lib/forms.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { changeOperatorPassword } from "~/domain/ops/operators.server";
import { audit } from "~/domain/ops/audit.server";

export const handle = { titleKey: "ops.password.title" };

const schema = z
  .object({
    current: z.string({ error: "validation.required" }).max(200, "validation.tooLongShort"),
    password: z
      .string({ error: "validation.required" })
      .min(8, "errors.BR023")
      .max(50, "errors.BR023")
      .regex(/[a-z]/, "errors.BR023")
      .regex(/[A-Z]/, "errors.BR023")
      .regex(/\d/, "errors.BR023"),
    confirm: z.string({ error: "validation.required" }),
  })
  .refine((v) => v.password === v.confirm, { path: ["confirm"], message: "ops.password.mismatch" });

export function loader({ context }: Route.LoaderArgs) {
  const operator = requireOperator(context);
  return { mustChange: operator.mustChangePassword };
}

export async function action({ request, context }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields: ["current", "password", "confirm"] }) }, { status: 400 });
  try {
    await db.transaction().execute(async (trx) => {
      await changeOperatorPassword(trx, operator.id, submission.value.current, submission.value.password);
      await audit(trx, operator, { action: "password.change" }, now());
    });
  } catch (error) {
    return replyWithError(submission, error, ["current", "password", "confirm"]);
  }
  setToast(context, { type: "success", message: "ops.password.changed" });
  return redirect("/ops");
}

export default function OpsPassword({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  return (
    <div className="stack" style={{ maxWidth: "32rem" }}>
      <PageHeader title={t("ops.password.title")} />
      {loaderData.mustChange ? <Banner tone="warning">{t("ops.password.mustChange")}</Banner> : null}
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <Field field={fields.current} label={t("ops.password.current")} type="password" input={{ ...getInputProps(fields.current, { type: "password" }), autoComplete: "current-password" }} />
        <Field
          field={fields.password}
          label={t("ops.password.new")}
          hint={t("ops.password.rules")}
          type="password"
          input={{ ...getInputProps(fields.password, { type: "password" }), autoComplete: "new-password", maxLength: 50 }}
        />
        <Field field={fields.confirm} label={t("ops.password.confirm")} type="password" input={{ ...getInputProps(fields.confirm, { type: "password" }), autoComplete: "new-password", maxLength: 50 }} />
        <Button>{t("ops.password.submit")}</Button>
      </AppForm>
    </div>
  );
}
