// Change a pending group message (text and time) until it is issued: BR014 after, BR013 for a past
// time. Credits move with the change (the pipeline re-renders and re-charges in one transaction).
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/groupmessages.$messageId.edit";
import { ActorLine } from "~/components/group-messages";
import { AppForm, FormErrors, translateError } from "~/components/form";
import { MergeTagPicker } from "~/components/merge-tag-picker";
import { SegmentCounter } from "~/components/segment-counter";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { replyWithError } from "~/lib/forms.server";
import { editGroupMessage, getGroupMessage } from "~/domain/group-messages/group-messages.server";
import { cleanMessageText } from "~/domain/group-messages/text";
import { ukLocalToUtc, utcToUkLocal } from "~/domain/group-messages/uk-time";
import { checkWhen, textSchema, whenSchema } from "~/domain/group-messages/schemas";
import { customMergeTags } from "~/domain/messaging/merge-tags.server";
import { integrationMergeTags } from "~/domain/shop/integration.server";

export const handle = { titleKey: "groupmessages.meta.editTitle", descriptionKey: "groupmessages.meta.editDescription" };

const schema = z.object({ messageText: textSchema, ...whenSchema }).superRefine(checkWhen);

async function load(context: Route.LoaderArgs["context"], id: string) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  return { user, msg: await orNotFound(getGroupMessage(db, user.businessId, Number(id), now())) };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, msg } = await load(context, params.messageId);
  const when = utcToUkLocal(new Date(msg.sendAt));
  return { msg, ...when, customTags: await customMergeTags(getDeps(context).db, user.businessId), integrationTags: await integrationMergeTags(getDeps(context).db, user.businessId) };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const { user, msg } = await load(context, params.messageId);
  const deps = getDeps(context);
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  try {
    const sendAt = v.sendMode === "LATER" ? ukLocalToUtc(v.sendDate ?? "", v.sendTime ?? "") : null;
    await editGroupMessage(deps, { businessId: user.businessId, messageId: msg.id, body: v.messageText, sendMode: v.sendMode, sendAt, actorId: user.userId });
    setToast(context, { type: "success", message: "groupmessages.toast.updated" });
    return redirect(`/groupmessages?groupId=${msg.groupId}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function EditGroupMessage() {
  const { t } = useTranslation();
  const { msg, date, time, customTags, integrationTags } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const scheduled = msg.status === "SCHEDULED";
  const [form, fields] = useValidatedForm(schema, actionData?.result, {
    id: "edit",
    defaultValue: { messageText: msg.body, sendMode: scheduled ? "LATER" : "NOW", sendDate: date, sendTime: time } as never,
  });
  const [text, setText] = useState((fields.messageText.initialValue as string) ?? msg.body);
  const mode = (fields.sendMode.initialValue as string) ?? (scheduled ? "LATER" : "NOW");
  const list = (errs?: string[], id?: string) =>
    errs?.length ? (
      <ul className="field__errors" id={id}>
        {[...new Set(errs)].map((e) => (
          <li key={e}>{translateError(t, e)}</li>
        ))}
      </ul>
    ) : null;
  return (
    <div className="stack gm-page">
      <PageHeader title={t("groupmessages.edit.title")} lead={t("groupmessages.edit.lead")} />
      <ActorLine createdBy={msg.createdBy} updatedBy={msg.updatedBy} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <div className={`field${fields.messageText.errors?.length ? " field--invalid" : ""}`}>
          <label htmlFor={fields.messageText.id}>{t("groupmessages.compose.text")}</label>
          <textarea id={fields.messageText.id} name={fields.messageText.name} rows={7} value={text} onChange={(e) => setText(cleanMessageText(e.target.value))} className="gm-textarea" aria-invalid={fields.messageText.errors?.length ? true : undefined} />
          {list(fields.messageText.errors, fields.messageText.errorId)}
          <SegmentCounter text={text} members={msg.recipients} />
        </div>
        <MergeTagPicker textareaId={fields.messageText.id} custom={customTags} integration={integrationTags} id="gm-edit-tags" headingLevel={2} />
        <fieldset className="field gm-when">
          <legend>{t("groupmessages.schedule.when")}</legend>
          <label className="radio">
            <input type="radio" name={fields.sendMode.name} value="NOW" defaultChecked={mode === "NOW"} />
            {t("groupmessages.schedule.now")}
          </label>
          <label className="radio">
            <input type="radio" name={fields.sendMode.name} value="LATER" defaultChecked={mode === "LATER"} />
            {t("groupmessages.schedule.later")}
          </label>
          <div className="gm-when__row">
            <div className="field">
              <label htmlFor={fields.sendDate.id}>{t("groupmessages.schedule.date")}</label>
              <input type="date" id={fields.sendDate.id} name={fields.sendDate.name} defaultValue={fields.sendDate.initialValue ?? date} />
            </div>
            <div className="field">
              <label htmlFor={fields.sendTime.id}>{t("groupmessages.schedule.time")}</label>
              <input type="time" id={fields.sendTime.id} name={fields.sendTime.name} defaultValue={fields.sendTime.initialValue ?? time} />
            </div>
          </div>
          {list(fields.sendDate.errors, fields.sendDate.errorId)}
        </fieldset>
        <Button className="btn--block">{t("groupmessages.edit.save")}</Button>
        <p>
          <Link to={`/groupmessages?groupId=${msg.groupId}`}>{t("groupmessages.edit.cancel")}</Link>
        </p>
      </AppForm>
    </div>
  );
}
