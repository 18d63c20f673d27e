// /member/messages?id=…: one member's thread — every text both ways in order with its state, the
// group and campaign texts they received — with a reply box, mark read/unread, snooze and clear.
// Opening the thread reads it. With JavaScript it refreshes every 10 s.
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/member.messages";
import { Countdown } from "~/components/countdown";
import { DmComposer } from "~/components/dm-composer";
import type { CustomTag } from "~/components/merge-tag-picker";
import { customMergeTags } from "~/domain/messaging/merge-tags.server";
import { AppForm, Field, FormErrors } from "~/components/form";
import { usePagePoll } from "~/components/use-page-poll";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader } from "~/components/ui";
import {
  changeConversation,
  getThread,
  openThread,
  parseThreadCursor,
  sendDirectMessage,
  undoDirectMessage,
  newFormToken,
} from "~/domain/conversations/conversations.server";
import { replySchema, snoozeSchema } from "~/domain/conversations/schema";
import { formatLongDate, ukDateTimeLocalToUtc, utcToUkDateTimeLocal } from "~/lib/uk-time";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { formText, replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "conversations.meta.threadTitle", descriptionKey: "conversations.meta.threadDescription" };

const notFound = () => data({ code: "NF001" }, { status: 404 });

function memberIdOf(request: Request): number {
  const raw = new URL(request.url).searchParams.get("id");
  // The bare /member/messages names no member: open the inbox instead of a 404.
  if (raw === null) throw redirect("/directmessages");
  if (!/^\d{1,15}$/.test(raw)) throw notFound();
  return Number(raw);
}

async function orNotFound<T>(p: Promise<T>): Promise<T> {
  try {
    return await p;
  } catch (e) {
    if (e instanceof AppError && e.code === "NF001") throw notFound();
    throw e;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const memberId = memberIdOf(request);
  const before = parseThreadCursor(new URL(request.url).searchParams.get("before"));
  const at = now();
  if (!before) await orNotFound(openThread(db, user.businessId, memberId, at));
  const thread = await orNotFound(getThread(db, user.businessId, memberId, { before }, at));
  return {
    ...thread,
    paged: Boolean(before),
    phoneDisplay: formatUkNumber(thread.member.phone),
    token: newFormToken(),
    snoozeDefault: utcToUkDateTimeLocal(new Date(at.getTime() + 86400_000)),
    customTags: await customMergeTags(db, user.businessId),
  };
}

/** A domain error as this page's action answer: which form it belongs to, and conform's result. */
function failed(intent: string, reply: ReturnType<typeof replyWithError>) {
  return data({ intent, result: reply.data.result }, { status: reply.init?.status ?? 400 });
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const now = deps.now();
  const memberId = memberIdOf(request);
  const form = await request.formData();
  const intent = formText(form, "intent");
  const back = `/member/messages?id=${memberId}`;
  if (intent === "reply") {
    const submission = parseWithZod(form, { schema: replySchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    try {
      await sendDirectMessage(deps, {
        businessId: user.businessId,
        memberId,
        body: submission.value.text,
        createdBy: user.userId,
        idempotencyKey: `dm:${submission.value.token}`,
      });
    } catch (e) {
      if (e instanceof AppError && e.code === "NF001") throw notFound();
      return failed(intent, replyWithError(submission, e));
    }
    setToast(context, { type: "success", message: "conversations.toast.sent" });
    return redirect(back);
  }
  if (intent === "snooze") {
    const submission = parseWithZod(form, { schema: snoozeSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const until = ukDateTimeLocalToUtc(submission.value.until);
    if (!until) return data({ intent, result: submission.reply({ fieldErrors: { until: ["conversations.validation.until"] } }) }, { status: 400 });
    try {
      await changeConversation(deps.db, user.businessId, memberId, { action: "snooze", until }, now);
    } catch (e) {
      if (e instanceof AppError && e.code === "NF001") throw notFound();
      return failed(intent, replyWithError(submission, e));
    }
    setToast(context, { type: "success", message: "conversations.toast.snoozed" });
    return redirect("/directmessages");
  }
  if (intent === "undo") {
    const messageId = Number(formText(form, "messageId"));
    try {
      await undoDirectMessage(deps, { businessId: user.businessId, memberId, messageId: Number.isSafeInteger(messageId) ? messageId : 0, actorId: user.userId });
      setToast(context, { type: "success", message: "conversations.toast.undone" });
    } catch (e) {
      if (e instanceof AppError && e.status === 404) throw notFound();
      if (!(e instanceof AppError)) throw e;
      setToast(context, { type: "error", message: "conversations.toast.tooLateToUndo" });
    }
    return redirect(back);
  }
  if (intent === "read" || intent === "unread" || intent === "clear") {
    await orNotFound(changeConversation(deps.db, user.businessId, memberId, { action: intent }, now));
    setToast(context, { type: "success", message: intent === "read" ? "conversations.toast.read" : intent === "unread" ? "conversations.toast.unread" : "conversations.toast.cleared" });
    return redirect(intent === "read" ? back : "/directmessages");
  }
  throw data({ code: "BR025" }, { status: 400 });
}

type ActionData = { intent: string; result?: Parameters<typeof useValidatedForm>[1] } | undefined;

function ReplyForm({ memberId, token, lastResult, customTags }: { memberId: number; token: string; lastResult: ActionData; customTags: CustomTag[] }) {
  const { t } = useTranslation();
  // One token per rendered form (kept while the page polls): a double submission sends once.
  const [formToken] = useState(token);
  const [form, fields] = useValidatedForm(replySchema, lastResult?.intent === "reply" ? lastResult.result : undefined, { id: "reply" });
  return (
    <AppForm {...getFormProps(form)} action={`/member/messages?id=${memberId}`} className="form dm-reply">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="reply" />
      <input type="hidden" name="token" value={formToken} />
      <DmComposer field={fields.text} label={t("conversations.thread.replyLabel")} customTags={customTags} />
      <Button id="dm-send">{t("conversations.thread.send")}</Button>
    </AppForm>
  );
}

function SnoozeForm({ memberId, defaultUntil, lastResult }: { memberId: number; defaultUntil: string; lastResult: ActionData }) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm(snoozeSchema, lastResult?.intent === "snooze" ? lastResult.result : undefined, {
    id: "snooze",
    defaultValue: { until: defaultUntil },
  });
  return (
    <AppForm {...getFormProps(form)} action={`/member/messages?id=${memberId}`} className="form dm-snooze">
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value="snooze" />
      <Field field={fields.until} label={t("conversations.thread.snoozeUntil")} type="datetime-local" input={{ maxLength: 40 }} />
      <Button variant="secondary">{t("conversations.thread.snooze")}</Button>
    </AppForm>
  );
}

export default function MemberMessages({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>() as ActionData;
  usePagePoll();
  const { member, conversation, items, earlier, paged, phoneDisplay } = loaderData;
  const date = (iso: string) => formatLongDate(iso, i18n.language);
  const lastOut = [...items].reverse().find((i) => i.direction === "out")?.key ?? "none";
  const status = conversation
    ? t(`conversations.thread.status.${conversation.state}`, { date: conversation.snoozedUntil ? date(conversation.snoozedUntil) : "" })
    : null;
  return (
    <div className="stack">
      <p>
        <Link to="/directmessages">{t("conversations.thread.back")}</Link>
      </p>
      <PageHeader title={member.name || phoneDisplay} lead={member.name ? phoneDisplay : undefined} />
      {status ? (
        <p className="dm-status" id="dm-status">
          {status}
        </p>
      ) : null}
      {earlier ? (
        <p>
          <Link to={`/member/messages?id=${member.id}&before=${encodeURIComponent(earlier)}`}>{t("conversations.thread.earlier")}</Link>
        </p>
      ) : null}
      {items.length === 0 ? (
        <p className="empty__body">{t("conversations.thread.empty")}</p>
      ) : (
        <ol className="dm-thread" id="dm-thread">
          {items.map((m) => (
            <li key={m.key} className={`dm-bubble dm-bubble--${m.direction}`} data-state={m.state}>
              <p className="dm-bubble__meta">
                <strong>{m.direction === "in" ? t("conversations.thread.member") : t("conversations.thread.you")}</strong>
                {m.kind && m.kind !== "DM" ? ` · ${t(`conversations.thread.kind.${m.kind}`)}` : ""} · <time dateTime={m.at}>{date(m.at)}</time>
                {m.sentBy ? <span className="actor"> · {t("team.actor.sentBy", { name: m.sentBy })}</span> : null}
              </p>
              <p className="dm-bubble__body">{m.body}</p>
              {m.mayWantToStop && member.status === "SUBSCRIBED" ? (
                <p className="dm-bubble__flag">
                  <span className="status status--soon">{t("conversations.mayWantToStop.badge")}</span> {t("conversations.mayWantToStop.hint")}{" "}
                  <Link to={`/memberinfo/${member.id}`}>{t("conversations.mayWantToStop.link")}</Link>
                </p>
              ) : null}
              <p className="dm-bubble__state">
                {m.state === "SENDING_SOON" && m.editableUntil ? (
                  <Countdown until={m.editableUntil} doneLabel={t("conversations.thread.state.SENDING")} />
                ) : (
                  <>
                    {t(`conversations.thread.state.${m.state}`, { date: m.sendAt ? date(m.sendAt) : "" })}
                    {m.failureKey && m.state !== "NOT_SENT" ? `: ${t(m.failureKey)}` : ""}
                  </>
                )}
              </p>
              {m.state === "SENDING_SOON" && m.kind === "DM" && m.messageId ? (
                <AppForm method="post" action={`/member/messages?id=${member.id}`} className="dm-bubble__undo">
                  <input type="hidden" name="intent" value="undo" />
                  <input type="hidden" name="messageId" value={m.messageId} />
                  <Button variant="secondary" className="btn--small">
                    {t("conversations.thread.undo")}
                  </Button>
                </AppForm>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      {paged ? (
        <p>
          <Link to={`/member/messages?id=${member.id}`}>{t("conversations.thread.latest")}</Link>
        </p>
      ) : null}
      <section className="panel" aria-labelledby="dm-reply-title">
        <h2 id="dm-reply-title" className="panel__title">
          {t("conversations.thread.reply")}
        </h2>
        {member.status === "SUBSCRIBED" ? (
          <ReplyForm key={lastOut} memberId={member.id} token={loaderData.token} lastResult={actionData} customTags={loaderData.customTags} />
        ) : (
          <>
            <FormErrors errors={actionData?.intent === "reply" ? (actionData.result?.error?.[""] ?? undefined) : undefined} />
            <p className="banner banner--info">{t(`conversations.thread.cannotReply.${member.status}`)}</p>
          </>
        )}
      </section>
      {conversation ? (
        <section className="panel stack" aria-labelledby="dm-actions-title">
          <h2 id="dm-actions-title" className="panel__title">
            {t("conversations.thread.actions")}
          </h2>
          <div className="dm-actions">
            {conversation.state === "UNREAD" ? (
              <AppForm action={`/member/messages?id=${member.id}`}>
                <input type="hidden" name="intent" value="read" />
                <Button variant="secondary">{t("conversations.thread.markRead")}</Button>
              </AppForm>
            ) : (
              <AppForm action={`/member/messages?id=${member.id}`}>
                <input type="hidden" name="intent" value="unread" />
                <Button variant="secondary">{t("conversations.thread.markUnread")}</Button>
              </AppForm>
            )}
            {conversation.state !== "INACTIVE" ? (
              <AppForm action={`/member/messages?id=${member.id}`}>
                <input type="hidden" name="intent" value="clear" />
                <Button variant="secondary" aria-describedby="dm-clear-hint">
                  {t("conversations.thread.clear")}
                </Button>
                <p className="field__hint" id="dm-clear-hint">
                  {t("conversations.thread.clearHint")}
                </p>
              </AppForm>
            ) : null}
          </div>
          <SnoozeForm memberId={member.id} defaultUntil={loaderData.snoozeDefault} lastResult={actionData} />
        </section>
      ) : null}
    </div>
  );
}
