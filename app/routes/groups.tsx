// Groups: every group with its subscribed-member count ("All subscribers" first), and creating a
// group: choose a name and a type (list = fixed members, smart = filters). Works without JavaScript.
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/groups";
import { AppForm, Field, FormErrors } from "~/components/form";
import { ChoiceGroup } from "~/components/choices";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, EmptyState, PageHeader, Panel } from "~/components/ui";
import { createGroup, listGroups } from "~/domain/groups/groups.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { replyWithError } from "~/lib/forms.server";
import { requiredText } from "~/lib/validation";

export const handle = { titleKey: "groups.meta.title", descriptionKey: "groups.meta.description" };

const schema = z.object({
  name: requiredText().refine((v) => !/[<>]/.test(v), "errors.BR022"),
  type: z.enum(["LIST", "SMART"], { error: "groups.errors.type" }),
});

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  return { groups: await listGroups(db, user.businessId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  // A smart group is created when its filters are saved (an empty filter would match everyone).
  if (submission.value.type === "SMART") return redirect(`/smartgroup/new?name=${encodeURIComponent(submission.value.name)}`);
  try {
    const id = await createGroup(db, user.businessId, { name: submission.value.name, type: "LIST" }, now());
    setToast(context, { type: "success", message: "groups.created" });
    return redirect(`/contactgroup/${id}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function Groups({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "new-group", defaultValue: { type: "LIST" } });
  const typeValue = fields.type.initialValue ?? "LIST";
  return (
    <>
      <PageHeader title={t("groups.title")} lead={t("groups.lead")} />
      <div className="groups stack">
        <Panel title={t("groups.yourGroups")} id="group-list">
          {loaderData.groups.length <= 1 ? <EmptyState title={t("groups.empty.title")} body={t("groups.empty.body")} /> : null}
          <ul className="group-list">
            {loaderData.groups.map((g) => (
              <li key={g.id} className="group-list__item">
                {g.id === -1 ? (
                  <span className="group-list__name">{t("groups.allSubscribers")}</span>
                ) : (
                  <Link className="group-list__name" to={g.type === "SMART" ? `/smartgroup/${g.id}` : `/contactgroup/${g.id}`}>
                    {g.name}
                  </Link>
                )}
                <span className="group-list__type">{t(`groups.type.${g.type}`)}</span>
                <span className="group-list__count">{t("groups.count", { count: g.count })}</span>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title={t("groups.new.title")} id="new-group-panel">
          <FormErrors errors={form.errors} id={form.errorId} />
          <AppForm {...getFormProps(form)} className="form">
            <Field field={fields.name} label={t("groups.fields.name")} input={{ ...getInputProps(fields.name, { type: "text" }), maxLength: 40 }} />
            <ChoiceGroup
              name={fields.type.name}
              legend={t("groups.fields.type")}
              defaultValue={typeValue}
              options={(["LIST", "SMART"] as const).map((type) => ({ value: type, label: t(`groups.type.${type}`), hint: t(`groups.typeHint.${type}`) }))}
              errors={fields.type.errors?.map((e) => t(e))}
              errorId={fields.type.errorId}
            />
            <Button>{t("groups.new.submit")}</Button>
          </AppForm>
        </Panel>
      </div>
    </>
  );
}
