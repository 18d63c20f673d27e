// /ops/support/:id: one chat for an operator. Reading it marks it read; the operator can take it
// ("assign to me"), answer (optionally starting from a saved reply) and close it. New messages from the
// user appear with JavaScript (the page's data is read again every 10 seconds) and at every reload.
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useSearchParams } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/support-chat";
import { CsrfField, FormErrors } from "~/components/form";
import { ChatLog } from "~/components/support-chat";
import { usePagePoll } from "~/components/use-page-poll";
import { Banner, Button, PageHeader, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { AppError, errorKey } from "~/lib/errors";
import { orNotFound } from "~/lib/not-found.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { POLL } from "~/lib/use-polling";
import { SUPPORT_MESSAGE_MAX } from "~/domain/support/limits";
import { assignChat, closeChat, getInboxChat, markChatRead, replyToChat } from "~/domain/support/inbox.server";
import { listSavedReplies } from "~/domain/support/saved-replies.server";
import { audit } from "~/domain/ops/audit.server";

export const handle = { titleKey: "ops.chat.title" };

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("assign") }),
  z.object({ intent: z.literal("close") }),
  z.object({ intent: z.literal("reply"), text: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(SUPPORT_MESSAGE_MAX, "validation.tooLongLong") }),
]);

function chatId(params: { id?: string }): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2 ** 31) throw data(null, { status: 404 });
  return id;
}

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const operator = requireOperator(context);
  const { db, now } = getDeps(context);
  const id = chatId(params);
  const chat = await orNotFound(getInboxChat(db, id));
  await markChatRead(db, id, now());
  const replies = await listSavedReplies(db);
  const useReply = Number(new URL(request.url).searchParams.get("use"));
  return { chat, replies, operatorId: operator.id, draft: replies.find((r) => r.id === useReply)?.body ?? "" };
}

export async function action({ params, request, context }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db, now } = getDeps(context);
  const id = chatId(params);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  try {
    await db.transaction().execute(async (trx) => {
      if (v.intent === "assign") {
        const { businessId } = await assignChat(trx, id, operator.id);
        await audit(trx, operator, { action: "chat.assign", businessId, target: `chat ${id}` }, now());
      } else if (v.intent === "close") {
        const { businessId } = await closeChat(trx, id, now());
        await audit(trx, operator, { action: "chat.close", businessId, target: `chat ${id}` }, now());
      } else {
        const { businessId } = await replyToChat(trx, id, operator.id, v.text, now());
        await audit(trx, operator, { action: "chat.reply", businessId, target: `chat ${id}` }, now());
      }
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw data(null, { status: 404 });
    if (error instanceof AppError) return data({ result: submission.reply({ formErrors: [errorKey(error.code)] }) }, { status: error.status });
    throw error;
  }
  setToast(context, { type: "success", message: `ops.chat.toast.${v.intent}` });
  return redirect(v.intent === "close" ? "/ops/support" : `/ops/support/${id}`);
}

export default function OpsSupportChat({ loaderData: { chat, replies, operatorId, draft } }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [params] = useSearchParams();
  usePagePoll(POLL.chat);
  const open = chat.status === "OPEN";
  const fieldErrors = actionData?.result.error?.text ?? [];
  const lines = chat.messages.map((m) => ({ key: `m${m.id}`, sender: m.sender, text: m.text, createdAt: m.createdAt, automatic: m.automatic, author: m.sender === "AGENT" ? m.operatorName : null }));
  return (
    <>
      <p>
        <Link to="/ops/support">{t("ops.chat.back")}</Link>
      </p>
      <PageHeader
        title={t("ops.chat.heading", { business: chat.businessName })}
        lead={
          <>
            {chat.userName ?? "—"} {chat.userEmail ? <span className="muted">({chat.userEmail})</span> : null} ·{" "}
            <Link to={`/ops/businesses/${chat.businessId}`}>{t("ops.chat.business")}</Link>
          </>
        }
      />
      {!open ? <Banner tone="info">{t("ops.chat.closedBanner")}</Banner> : null}
      <p>{chat.assignedTo ? t("ops.chat.assignedTo", { name: chat.assignedTo }) : t("ops.chat.unassigned")}</p>
      <FormErrors errors={actionData?.result.error?.[""] ?? []} />
      <Panel title={t("ops.chat.conversation")} id="conversation">
        {lines.length === 0 ? <p className="muted">{t("ops.chat.empty")}</p> : <ChatLog lines={lines} you={chat.userName ?? t("ops.chat.customer")} agent={t("ops.chat.agent")} automatic={t("ops.chat.automatic")} ownSide="AGENT" />}
        {open ? (
          <>
            {replies.length > 0 ? (
              <form method="get" className="form form--inline">
                <div className="field">
                  <label htmlFor="use">{t("ops.chat.savedReply")}</label>
                  <select id="use" name="use" defaultValue={params.get("use") ?? ""}>
                    <option value="">{t("ops.chat.noSavedReply")}</option>
                    {replies.map((r) => (
                      <option key={r.id} value={r.id}>
                        {r.title}
                      </option>
                    ))}
                  </select>
                </div>
                <Button variant="secondary">{t("ops.chat.useSavedReply")}</Button>
              </form>
            ) : null}
            <form method="post" className="form chat-form">
              <CsrfField />
              <input type="hidden" name="intent" value="reply" />
              <div className={`field${fieldErrors.length ? " field--invalid" : ""}`}>
                <label htmlFor="reply-text">{t("ops.chat.reply")}</label>
                <textarea
                  id="reply-text"
                  name="text"
                  key={draft}
                  defaultValue={draft}
                  maxLength={SUPPORT_MESSAGE_MAX}
                  rows={4}
                  required
                  aria-invalid={fieldErrors.length ? true : undefined}
                  aria-describedby={fieldErrors.length ? "reply-errors" : undefined}
                />
                {fieldErrors.length ? (
                  <ul className="field__errors" id="reply-errors">
                    {fieldErrors.map((e) => (
                      <li key={e}>{t(e, { field: t("ops.chat.reply") })}</li>
                    ))}
                  </ul>
                ) : null}
              </div>
              <Button>{t("ops.chat.send")}</Button>
            </form>
          </>
        ) : null}
      </Panel>
      {open ? (
        <div className="chat-actions">
          {chat.assignedOperatorId !== operatorId ? (
            <form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="assign" />
              <Button variant="secondary">{t("ops.chat.assign")}</Button>
            </form>
          ) : null}
          <form method="post" className="inline-form">
            <CsrfField />
            <input type="hidden" name="intent" value="close" />
            <Button variant="destructive">{t("ops.chat.close")}</Button>
          </form>
        </div>
      ) : null}
    </>
  );
}
