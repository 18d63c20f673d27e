// Invite a member: a UK mobile, optional name and attribute values -> member PENDING and the opt-in
// request text (double opt-in: subscribed only when they reply YES or confirm on their form link).
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/invitemember";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader, Panel } from "~/components/ui";
import { listAttributes } from "~/domain/members/attributes.server";
import { businessTexts, inviteMember } from "~/domain/members/community.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { replyWithError } from "~/lib/forms.server";
import { AttributeFields, attributeValuesFrom, DefaultFields, memberSchema } from "./mycommunity.shared";

export const handle = { titleKey: "members.meta.inviteTitle", descriptionKey: "members.meta.inviteDescription" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const [attributes, texts] = await Promise.all([listAttributes(db, user.businessId), businessTexts(db, user.businessId)]);
  return { attributes: attributes.map((a) => ({ id: Number(a.id), name: a.name, type: a.type, mandatory: a.mandatory, items: a.items })), optIn: texts.optIn };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const form = await request.clone().formData();
  const submission = parseWithZod(form, { schema: memberSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const member = await inviteMember(db, user.businessId, { ...submission.value, values: attributeValuesFrom(form) }, now(), user.userId);
    setToast(context, { type: "success", message: "members.toast.invited" });
    return redirect(`/memberinfo?id=${member.id}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function InviteMember({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(memberSchema, actionData?.result);
  return (
    <>
      <PageHeader title={t("members.invite.title")} lead={t("members.invite.lead")} />
      <Panel>
        <FormErrors errors={form.errors} id={form.errorId} />
        <AppForm {...getFormProps(form)} className="form">
          <Field
            field={fields.phone}
            label={t("members.fields.phone")}
            hint={t("members.invite.phoneHint")}
            input={{ ...getInputProps(fields.phone, { type: "tel" }), autoComplete: "off", maxLength: 25 }}
          />
          <DefaultFields fields={fields} />
          <AttributeFields attributes={loaderData.attributes} fields={fields} initial={{}} />
          <div className="banner banner--info">
            <p>{t("members.invite.textPreview")}</p>
            <p className="members-quote">{loaderData.optIn}</p>
            <p>
              <Link to="/myaccount">{t("members.invite.changeText")}</Link>
            </p>
          </div>
          <Button>{t("members.invite.submit")}</Button>
        </AppForm>
      </Panel>
    </>
  );
}
