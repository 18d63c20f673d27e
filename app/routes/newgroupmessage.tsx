// New group message, step 1 of 3 (Compose): the text with merge tags, the live segment and credit
// counter, and "Replace special characters" (toGsm). The draft is kept server-side
// (group_message_drafts); ?draft=<id> resumes it. The merge-tag picker lists every tag (business,
// member, custom {{attr.key}}, form link): without JavaScript as tags to type, with it as buttons that
// insert at the cursor. Without JavaScript the replace button submits and the page comes back with the
// text changed; with it, it acts in place.
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useLoaderData } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/newgroupmessage";
import { AppForm, FormErrors } from "~/components/form";
import { Steps } from "~/components/group-messages";
import { MergeTagPicker } from "~/components/merge-tag-picker";
import { SegmentCounter } from "~/components/segment-counter";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formText, replyWithError } from "~/lib/forms.server";
import { countRecipients } from "~/domain/group-messages/groups.server";
import { getDraft, saveDraftText } from "~/domain/group-messages/group-messages.server";
import { cleanMessageText, GROUP_TEXT_MAX } from "~/domain/group-messages/text";
import { textSchema } from "~/domain/group-messages/schemas";
import { analyse, toGsm } from "~/domain/messaging/segments";
import { ALL_SUBSCRIBERS } from "~/domain/messaging/outbound.server";
import { customMergeTags } from "~/domain/messaging/merge-tags.server";
import { integrationMergeTags } from "~/domain/shop/integration.server";

export const handle = { titleKey: "groupmessages.meta.newTitle", descriptionKey: "groupmessages.meta.newDescription" };

const schema = z.object({ messageText: textSchema, draftId: z.coerce.number().int().positive().optional() });

function draftParam(request: Request): number | null {
  const v = new URL(request.url).searchParams.get("draft");
  if (v === null) return null;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw data(null, { status: 404 });
  return n;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const draftId = draftParam(request);
  const draft = draftId ? await getDraft(db, user.businessId, draftId) : null;
  if (draftId && !draft) throw data(null, { status: 404 });
  const members = await countRecipients(db, user.businessId, draft?.groupId ?? ALL_SUBSCRIBERS);
  return { draftId: draft?.id ?? null, body: draft?.body ?? "", members, customTags: await customMergeTags(db, user.businessId), integrationTags: await integrationMergeTags(db, user.businessId) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const form = await request.clone().formData();
  const intent = formText(form, "intent", "next");
  if (intent === "replace") {
    // Without JavaScript: change the text and show the page again (nothing saved yet).
    const raw = cleanMessageText(formText(form, "messageText").slice(0, GROUP_TEXT_MAX * 4));
    return data({ result: undefined, text: toGsm(raw) });
  }
  const submission = parseWithZod(form, { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), text: undefined }, { status: 400 });
  try {
    const id = await saveDraftText(db, { businessId: user.businessId, userId: user.userId, draftId: submission.value.draftId ?? null, body: submission.value.messageText }, now());
    return redirect(`/newgroupmessage/schedule?draft=${id}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function NewGroupMessage() {
  const { t } = useTranslation();
  const loaded = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "compose" });
  const submitted = (actionData && "text" in actionData ? actionData.text : undefined) ?? fields.messageText.initialValue;
  const initial = submitted ?? loaded.body;
  const [text, setText] = useState(initial);
  const [seen, setSeen] = useState(initial);
  if (initial !== seen) {
    setSeen(initial);
    setText(initial);
  }
  const errors = fields.messageText.errors ?? [];
  const ucs2 = analyse(text).encoding === "UCS-2";
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return (
    <div className="stack gm-page">
      <PageHeader title={t("groupmessages.meta.newTitle")} lead={t("groupmessages.compose.lead")} />
      <Steps current="compose" draftId={loaded.draftId} />
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        {loaded.draftId ? <input type="hidden" name="draftId" value={loaded.draftId} /> : null}
        <div className={`field${errors.length ? " field--invalid" : ""}`}>
          <label htmlFor={fields.messageText.id}>{t("groupmessages.compose.text")}</label>
          <p className="field__hint" id={fields.messageText.descriptionId}>{t("groupmessages.compose.textHint")}</p>
          <textarea
            id={fields.messageText.id}
            name={fields.messageText.name}
            rows={7}
            value={text}
            onChange={(e) => setText(cleanMessageText(e.target.value))}
            aria-invalid={errors.length ? true : undefined}
            aria-describedby={`${fields.messageText.descriptionId} gm-counter${errors.length ? ` ${fields.messageText.errorId}` : ""}`}
            className="gm-textarea"
          />
          {errors.length ? (
            <ul className="field__errors" id={fields.messageText.errorId}>
              {[...new Set(errors)].map((e) => (
                <li key={e}>{t(e, { field: t("groupmessages.compose.text") })}</li>
              ))}
            </ul>
          ) : null}
          <SegmentCounter text={text} members={loaded.members} id="gm-counter" />
          {/* Shown whenever special characters are in the text; without JavaScript always (the text may change before it is sent back). */}
          {ucs2 || !hydrated ? (
            <div className="gm-replace">
              <Button
                name="intent"
                value="replace"
                variant="secondary"
                className="btn--small"
                formNoValidate
                onClick={(e) => {
                  e.preventDefault();
                  setText(toGsm(text));
                }}
              >
                {t("groupmessages.compose.replace")}
              </Button>
              <span className="field__hint">{t("groupmessages.counter.replaceHint")}</span>
            </div>
          ) : null}
        </div>
        <MergeTagPicker textareaId={fields.messageText.id} custom={loaded.customTags} integration={loaded.integrationTags} id="gm-tags" headingLevel={2} />
        <Button name="intent" value="next" className="btn--block">
          {t("groupmessages.compose.next")}
        </Button>
      </AppForm>
    </div>
  );
}
