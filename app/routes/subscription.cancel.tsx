// /subscription/cancel: cancel the plan and delete the account. First it says exactly what will go (members,
// messages, groups, campaigns, invoices, the team's logins) and that the number is given back; then a code is
// texted to the Administrator; the code deletes everything. Administrator only.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/subscription.cancel";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { cancelAccount, sendCancelCode } from "~/domain/billing/cancel.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { getI18n } from "~/lib/i18n.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "billing.cancel.metaTitle", descriptionKey: "billing.cancel.metaDescription", permission: "subscription:change" } as const;

const sendSchema = z.object({ intent: z.literal("send") });
const confirmSchema = z.object({ intent: z.literal("confirm"), code: z.string({ error: "validation.required" }).trim().regex(/^\d{4,8}$/, "billing.errors.code") });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const b = await db.selectFrom("businesses").select(["name", "phone_number"]).where("id", "=", user.businessId).executeTakeFirstOrThrow();
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { name: b.name, number: b.phone_number ? formatUkNumber(b.phone_number) : null, sent };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, config, sms, now } = getDeps(context);
  const form = await request.formData();
  if (form.get("intent") === "send") {
    const submission = parseWithZod(form, { schema: sendSchema });
    if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
    const i18n = getI18n(context);
    const sent = await sendCancelCode(
      db,
      { businessId: user.businessId, userId: user.userId, sender: config.systemSender, maxIssues: config.pinMaxIssues, message: (code) => i18n.t("billing.cancel.sms", { code }) },
      now(),
    );
    if (!sent.ok) return data({ result: submission.reply({ formErrors: ["errors.rateLimited"] }) }, { status: 429 });
    setToast(context, { type: "success", message: "billing.cancel.sentToast" });
    return redirect("/subscription/cancel?sent=1");
  }
  const submission = parseWithZod(form, { schema: confirmSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await cancelAccount(db, sms, user.businessId, submission.value.code, now());
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ result: submission.reply({ fieldErrors: { code: [errorMessage(error)] } }) }, { status: error.status });
  }
  setToast(context, { type: "success", message: "billing.cancel.doneToast" });
  return redirect("/login");
}

export default function CancelAccount({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { name, number, sent } = loaderData;
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(confirmSchema, actionData?.result);
  return (
    <>
      <PageHeader title={t("billing.cancel.title")} lead={t("billing.cancel.lead", { name })} />
      <Panel title={t("billing.cancel.whatTitle")} id="what">
        <Banner tone="warning" title={t("billing.cancel.warning")}>
          <ul>
            <li>{t("billing.cancel.what.data")}</li>
            <li>{t("billing.cancel.what.team")}</li>
            <li>{number ? t("billing.cancel.what.number", { number }) : t("billing.cancel.what.noNumber")}</li>
            <li>{t("billing.cancel.what.payments")}</li>
          </ul>
        </Banner>
        <p>{t("billing.cancel.invoicesFirst")}</p>
      </Panel>
      <Panel title={t("billing.cancel.codeTitle")} id="code">
        <FormErrors errors={form.errors} id={form.errorId} />
        {!sent && !actionData ? (
          <AppForm className="form">
            <p>{t("billing.cancel.codeLead")}</p>
            <input type="hidden" name="intent" value="send" />
            <Button variant="destructive">{t("billing.cancel.send")}</Button>
          </AppForm>
        ) : (
          <>
            <p>{t("billing.cancel.sentLead")}</p>
            <AppForm {...getFormProps(form)} className="form">
              <input type="hidden" name="intent" value="confirm" />
              <Field
                field={fields.code}
                label={t("billing.cancel.code")}
                hint={t("billing.cancel.codeHint")}
                input={{ ...getInputProps(fields.code, { type: "text" }), inputMode: "numeric", autoComplete: "one-time-code", maxLength: 8 }}
              />
              <Button variant="danger">{t("billing.cancel.confirm")}</Button>
            </AppForm>
            <AppForm className="form form--inline">
              <input type="hidden" name="intent" value="send" />
              <Button variant="link">{t("billing.cancel.resend")}</Button>
            </AppForm>
          </>
        )}
        <p>
          <ButtonLink to="/subscription" variant="secondary">
            {t("billing.cancel.keep")}
          </ButtonLink>
        </p>
      </Panel>
    </>
  );
}
