// New group message, step 2 of 3 (Schedule): the group (all subscribers, list or smart groups,
// each with its member count) and send now or at a UK date and time in the future (BR013).
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/newgroupmessage.schedule";
import { AppForm, FormErrors, translateError } from "~/components/form";
import { Steps } from "~/components/group-messages";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader } from "~/components/ui";
import { ChoiceGroup } from "~/components/choices";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { replyWithError } from "~/lib/forms.server";
import { listGroupChoices } from "~/domain/group-messages/groups.server";
import { getDraft, saveDraftSchedule } from "~/domain/group-messages/group-messages.server";
import { ukLocalToUtc, utcToUkLocal } from "~/domain/group-messages/uk-time";
import { checkWhen, whenSchema } from "~/domain/group-messages/schemas";

export const handle = { titleKey: "groupmessages.meta.newTitle", descriptionKey: "groupmessages.meta.newDescription" };

const schema = z
  .object({
    draftId: z.coerce.number().int().positive(),
    groupId: z.coerce.number({ error: "groupmessages.errors.groupRequired" }).int("groupmessages.errors.groupRequired"),
    ...whenSchema,
  })
  .superRefine(checkWhen);

function draftParam(request: Request): number {
  const n = Number(new URL(request.url).searchParams.get("draft"));
  if (!Number.isSafeInteger(n) || n <= 0) throw data(null, { status: 404 });
  return n;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const draft = await getDraft(db, user.businessId, draftParam(request));
  if (!draft) throw data(null, { status: 404 });
  const groups = await listGroupChoices(db, user.businessId);
  // The default time offered: the next whole hour, tomorrow if that is late.
  const suggestion = new Date(Math.ceil((now().getTime() + 3_600_000) / 3_600_000) * 3_600_000);
  const when = draft.sendAt ? utcToUkLocal(new Date(draft.sendAt)) : utcToUkLocal(suggestion);
  return { draft: { id: draft.id, groupId: draft.groupId, sendMode: draft.sendMode ?? "NOW", ...when }, groups };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  try {
    const sendAt = v.sendMode === "LATER" ? ukLocalToUtc(v.sendDate ?? "", v.sendTime ?? "") : null;
    await saveDraftSchedule(db, { businessId: user.businessId, draftId: v.draftId, groupId: v.groupId, sendMode: v.sendMode, sendAt }, now());
    return redirect(`/newgroupmessage/preview?draft=${v.draftId}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function ScheduleStep() {
  const { t, i18n } = useTranslation();
  const { draft, groups } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, {
    id: "schedule",
    defaultValue: { draftId: String(draft.id), groupId: String(draft.groupId ?? -1), sendMode: draft.sendMode, sendDate: draft.date, sendTime: draft.time },
  });
  const [mode, setMode] = useState<string>((fields.sendMode.initialValue as string) ?? draft.sendMode);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  const err = (list?: string[], id?: string) =>
    list?.length ? (
      <ul className="field__errors" id={id}>
        {[...new Set(list)].map((e) => (
          <li key={e}>{translateError(t, e)}</li>
        ))}
      </ul>
    ) : null;
  return (
    <div className="stack gm-page">
      <PageHeader title={t("groupmessages.meta.newTitle")} lead={t("groupmessages.schedule.title")} />
      <Steps current="schedule" draftId={draft.id} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="draftId" value={draft.id} />
        <div className={`field${fields.groupId.errors?.length ? " field--invalid" : ""}`}>
          <label htmlFor={fields.groupId.id}>{t("groupmessages.schedule.group")}</label>
          <select
            id={fields.groupId.id}
            name={fields.groupId.name}
            defaultValue={(fields.groupId.initialValue as string) ?? String(draft.groupId ?? -1)}
            aria-invalid={fields.groupId.errors?.length ? true : undefined}
            aria-describedby={fields.groupId.errors?.length ? fields.groupId.errorId : undefined}
          >
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {t("groupmessages.schedule.groupOption", { name: g.name ?? t("groupmessages.allSubscribers"), count: g.count, formatted: fmt(g.count) })}
              </option>
            ))}
          </select>
          {groups.length === 1 ? <p className="field__hint">{t("groupmessages.schedule.noGroups")}</p> : null}
          {err(fields.groupId.errors, fields.groupId.errorId)}
        </div>
        <ChoiceGroup
          name={fields.sendMode.name}
          legend={t("groupmessages.schedule.when")}
          defaultValue={mode}
          onChange={setMode}
          options={[
            { value: "NOW", label: t("groupmessages.schedule.now") },
            { value: "LATER", label: t("groupmessages.schedule.later") },
          ]}
        >
          {/* Without JavaScript the date and time are always there; with it they show for "later" only. */}
          <div className={`gm-when__fields${fields.sendDate.errors?.length ? " field--invalid" : ""}`} hidden={hydrated && mode === "NOW"}>
            <p className="field__hint" id="gm-when-hint">{t("groupmessages.schedule.dateHint")}</p>
            <div className="gm-when__row">
              <div className="field">
                <label htmlFor={fields.sendDate.id}>{t("groupmessages.schedule.date")}</label>
                <input type="date" id={fields.sendDate.id} name={fields.sendDate.name} defaultValue={fields.sendDate.initialValue ?? draft.date} aria-describedby="gm-when-hint" aria-invalid={fields.sendDate.errors?.length ? true : undefined} />
              </div>
              <div className="field">
                <label htmlFor={fields.sendTime.id}>{t("groupmessages.schedule.time")}</label>
                <input type="time" id={fields.sendTime.id} name={fields.sendTime.name} defaultValue={fields.sendTime.initialValue ?? draft.time} />
              </div>
            </div>
            {err(fields.sendDate.errors, fields.sendDate.errorId)}
          </div>
        </ChoiceGroup>
        <Button className="btn--block">{t("groupmessages.schedule.next")}</Button>
        <p>
          <Link to={`/newgroupmessage?draft=${draft.id}`}>{t("groupmessages.schedule.back")}</Link>
        </p>
      </AppForm>
    </div>
  );
}
