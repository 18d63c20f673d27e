// Public web sign-up: a phone field that starts the double opt-in (member PENDING, the
// opt-in request by text, consent logged on channel WEB). The reply never says whether the number was
// already a member. Works without JavaScript.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/join.$slug";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button } from "~/components/ui";
import { businessForJoin, webJoin } from "~/domain/groups/join.server";
import { getDeps } from "~/lib/context.server";
import { clientIp, replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";
import { phoneInput } from "~/lib/validation";

/** Opened from a text, often on a slow phone connection: the page ships no JavaScript (it needs none). */
export const handle = { titleKey: "joinus.public.meta.title", descriptionKey: "joinus.public.meta.description", scripts: false };

const schema = z.object({ phone: phoneInput });

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const { db } = getDeps(context);
  const b = await businessForJoin(db, params.slug ?? "");
  if (!b) throw data(null, { status: 404 });
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return { businessName: b.name, keyword: (b.join_keyword || "JOIN").toUpperCase(), number: formatUkNumber(b.phone_number!), sent };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), limited: false }, { status: 400 });
  try {
    const outcome = await webJoin(db, { slug: params.slug ?? "", phone: submission.value.phone, ip: clientIp(request), now: now() });
    if (outcome === "LIMITED") return data({ result: submission.reply({ formErrors: ["joinus.public.tooMany"] }), limited: true }, { status: 429 });
    return redirect(`/join/${encodeURIComponent(params.slug ?? "")}?sent=1`);
  } catch (error) {
    if (error instanceof Error && "status" in error && (error as { status: number }).status === 404) throw data(null, { status: 404 });
    return replyWithError(submission, error);
  }
}

export default function Join({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result);
  return (
    <div className="public__card stack">
      <h1>{t("joinus.public.title", { business: d.businessName })}</h1>
      {d.sent ? (
        <div className="banner banner--success" role="status">
          <p>{t("joinus.public.sent", { business: d.businessName })}</p>
        </div>
      ) : (
        <>
          <p>{t("joinus.public.lead", { business: d.businessName })}</p>
          <FormErrors errors={form.errors} id={form.errorId} />
          <AppForm {...getFormProps(form)} className="form">
            <Field
              field={fields.phone}
              label={t("joinus.public.phone")}
              hint={t("joinus.public.phoneHint")}
              input={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "tel", inputMode: "tel", maxLength: 25 }}
            />
            <Button className="btn--block">{t("joinus.public.submit")}</Button>
          </AppForm>
        </>
      )}
      <p className="muted">{t("joinus.public.orText", { keyword: d.keyword, number: d.number })}</p>
      <p className="muted">{t("joinus.public.privacy")}</p>
    </div>
  );
}
