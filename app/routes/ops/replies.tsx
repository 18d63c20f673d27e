// /ops/replies: the saved replies of the support inbox: add one, change one (?edit=id), delete one.
// Every change is audited.
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/replies";
import { CsrfField, FormErrors } from "~/components/form";
import { Button, EmptyState, PageHeader, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { AppError, errorKey } from "~/lib/errors";
import { requireOperator } from "~/lib/ops-auth.server";
import { createSavedReply, deleteSavedReply, listSavedReplies, updateSavedReply } from "~/domain/support/saved-replies.server";
import { SAVED_REPLY_BODY_MAX, SAVED_REPLY_TITLE_MAX } from "~/domain/support/limits";
import { audit } from "~/domain/ops/audit.server";

export const handle = { titleKey: "ops.replies.title" };

const fields = {
  title: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(SAVED_REPLY_TITLE_MAX, "validation.tooLongShort"),
  body: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(SAVED_REPLY_BODY_MAX, "validation.tooLongLong"),
};
const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), ...fields }),
  z.object({ intent: z.literal("update"), id: z.coerce.number().int().positive(), ...fields }),
  z.object({ intent: z.literal("delete"), id: z.coerce.number().int().positive() }),
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db } = getDeps(context);
  const replies = await listSavedReplies(db);
  const edit = Number(new URL(request.url).searchParams.get("edit"));
  return { replies, editing: replies.find((r) => r.id === edit) ?? null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  try {
    await db.transaction().execute(async (trx) => {
      if (v.intent === "create") {
        const id = await createSavedReply(trx, v, now());
        await audit(trx, operator, { action: "reply.create", target: `reply ${id}`, detail: v.title }, now());
      } else if (v.intent === "update") {
        await updateSavedReply(trx, v.id, v, now());
        await audit(trx, operator, { action: "reply.update", target: `reply ${v.id}`, detail: v.title }, now());
      } else {
        const title = await deleteSavedReply(trx, v.id);
        await audit(trx, operator, { action: "reply.delete", target: `reply ${v.id}`, detail: title }, now());
      }
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw data(null, { status: 404 });
    if (error instanceof AppError) return data({ result: submission.reply({ formErrors: [errorKey(error.code)] }) }, { status: error.status });
    throw error;
  }
  setToast(context, { type: "success", message: `ops.replies.toast.${v.intent}` });
  return redirect("/ops/replies");
}

function ReplyForm({ reply, errors }: { reply: { id: number; title: string; body: string } | null; errors: Record<string, string[] | null | undefined> }) {
  const { t } = useTranslation();
  const fieldError = (name: string, label: string) =>
    errors[name]?.length ? (
      <ul className="field__errors" id={`${name}-errors`}>
        {errors[name]!.map((e) => (
          <li key={e}>{t(e, { field: label })}</li>
        ))}
      </ul>
    ) : null;
  return (
    <form method="post" className="form" key={reply?.id ?? "new"}>
      <CsrfField />
      <input type="hidden" name="intent" value={reply ? "update" : "create"} />
      {reply ? <input type="hidden" name="id" value={reply.id} /> : null}
      <div className={`field${errors.title?.length ? " field--invalid" : ""}`}>
        <label htmlFor="reply-title">{t("ops.replies.titleField")}</label>
        <input id="reply-title" name="title" defaultValue={reply?.title} maxLength={SAVED_REPLY_TITLE_MAX} required aria-describedby={errors.title?.length ? "title-errors" : undefined} />
        {fieldError("title", t("ops.replies.titleField"))}
      </div>
      <div className={`field${errors.body?.length ? " field--invalid" : ""}`}>
        <label htmlFor="reply-body">{t("ops.replies.body")}</label>
        <textarea id="reply-body" name="body" defaultValue={reply?.body} maxLength={SAVED_REPLY_BODY_MAX} rows={5} required aria-describedby={errors.body?.length ? "body-errors" : undefined} />
        {fieldError("body", t("ops.replies.body"))}
      </div>
      <div className="ops-actions">
        <Button>{reply ? t("ops.replies.save") : t("ops.replies.add")}</Button>
        {reply ? <Link to="/ops/replies">{t("ops.replies.cancel")}</Link> : null}
      </div>
    </form>
  );
}

export default function OpsReplies({ loaderData: { replies, editing } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const errors = actionData?.result.error ?? {};
  return (
    <>
      <PageHeader title={t("ops.replies.title")} lead={t("ops.replies.lead")} />
      <FormErrors errors={errors[""] ?? []} />
      <Panel title={editing ? t("ops.replies.editTitle", { title: editing.title }) : t("ops.replies.newTitle")} id="reply-form">
        <ReplyForm reply={editing} errors={errors} />
      </Panel>
      <Panel title={t("ops.replies.list")} id="replies">
        {replies.length === 0 ? (
          <EmptyState title={t("ops.replies.empty")} />
        ) : (
          <ul className="list">
            {replies.map((r) => (
              <li key={r.id}>
                <p>
                  <strong>{r.title}</strong>
                </p>
                <p className="chat-msg__text">{r.body}</p>
                <div className="ops-actions">
                  <Link to={`/ops/replies?edit=${r.id}`} aria-label={t("ops.replies.editLabel", { title: r.title })}>
                    {t("ops.replies.edit")}
                  </Link>
                  <form method="post" className="inline-form">
                    <CsrfField />
                    <input type="hidden" name="intent" value="delete" />
                    <input type="hidden" name="id" value={r.id} />
                    <Button variant="destructive" className="btn--small" aria-label={t("ops.replies.deleteLabel", { title: r.title })}>
                      {t("ops.replies.delete")}
                    </Button>
                  </form>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
