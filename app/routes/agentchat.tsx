// /agentchat: the support chat with a Textcircle agent. The user writes; the agents' answers appear
// without a reload while JavaScript is on (polling /api/support/messages at the chat interval) and at the
// next page load without it. Outside the opening hours an automatic reply says when someone will answer.
// The transcript can be emailed to the user; ?id= shows one of the user's earlier chats (another's: 404).
// If the support service fails, the page says support is unavailable and the rest of the app carries on.
import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useNavigation } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/agentchat";
import { AppForm, CsrfField, FormErrors } from "~/components/form";
import { ChatLog, chatCss, type ChatLine } from "~/components/support-chat";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, PageHeader, Panel } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { getI18n, getLocale } from "~/lib/i18n.server";
import { fetchJson, listOf, POLL, usePolling } from "~/lib/use-polling";
import { formatLongDate } from "~/lib/uk-time";
import { SUPPORT_MESSAGE_MAX } from "~/domain/support/limits";
import {
  ChatRateLimited,
  clockOf,
  emailTranscript,
  endChat,
  getChatThread,
  pastChats,
  sendChatMessage,
  withinOpeningHours,
  type ChatThread,
} from "~/domain/support/chat.server";

export const handle = { titleKey: "supportchat.meta.title", descriptionKey: "supportchat.meta.description" };

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: chatCss }];

export const schema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("send"),
    text: z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(SUPPORT_MESSAGE_MAX, "validation.tooLongLong"),
  }),
  z.object({ intent: z.literal("transcript"), sessionId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("close"), sessionId: z.coerce.number().int().positive() }),
]);

const querySchema = z.object({ id: z.coerce.number().int().positive().max(2 ** 31).optional() });

function logUnavailable(error: unknown) {
  console.error("[support] the support channel is unavailable:", error instanceof Error ? error.message : error);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const parsed = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!parsed.success) throw data(null, { status: 404 });
  const hours = config.support;
  const open = withinOpeningHours(hours, now());
  const base = { hours: { days: hours.days, open: clockOf(hours.openMinute), close: clockOf(hours.closeMinute) }, openNow: open, viewing: parsed.data.id ?? null };
  let thread: ChatThread | null;
  let past: Awaited<ReturnType<typeof pastChats>>;
  try {
    thread = await getChatThread(db, user, parsed.data.id ?? null);
    past = await pastChats(db, user);
  } catch (error) {
    if (error instanceof AppError && error.code === "NF001") throw data(null, { status: 404 });
    logUnavailable(error);
    return { ...base, unavailable: true as const, thread: null, past: [] };
  }
  // The user sees "Textcircle support", never which operator answered.
  const shown = thread ? { ...thread, messages: thread.messages.map((m) => ({ ...m, operatorName: null })) } : null;
  return { ...base, unavailable: false as const, thread: shown, past };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const i18n = getI18n(context);
  const t = i18n.t.bind(i18n);
  const lng = getLocale(context);
  try {
    if (v.intent === "send") {
      const hours = config.support;
      const automaticReply = t("supportchat.automaticReply", { open: clockOf(hours.openMinute), close: clockOf(hours.closeMinute), days: dayList(hours.days, lng) });
      await db.transaction().execute((trx) => sendChatMessage(trx, user, { text: v.text, hours, automaticReply }, now()));
      return redirect("/agentchat");
    }
    if (v.intent === "transcript") {
      await db.transaction().execute((trx) =>
        emailTranscript(
          trx,
          user,
          v.sessionId,
          { subject: t("supportchat.transcript.subject"), intro: t("supportchat.transcript.intro", { name: user.name }), you: user.name, agent: t("supportchat.agent"), formatTime: (iso) => formatLongDate(iso, lng) },
          now(),
        ),
      );
      setToast(context, { type: "success", message: "supportchat.toast.transcript" });
      return redirect(`/agentchat${new URL(request.url).search}`);
    }
    await endChat(db, user, v.sessionId, now());
    setToast(context, { type: "success", message: "supportchat.toast.closed" });
    return redirect("/agentchat");
  } catch (error) {
    if (error instanceof AppError && error.code === "NF001") throw data(null, { status: 404 });
    if (error instanceof ChatRateLimited) return data({ result: submission.reply({ formErrors: ["supportchat.errors.tooFast"] }) }, { status: 429 });
    if (error instanceof AppError) return replyWithError(submission, error);
    logUnavailable(error);
    return data({ result: submission.reply({ formErrors: ["supportchat.errors.unavailable"] }) }, { status: 503 });
  }
}

/** "Monday, Tuesday, Wednesday, Thursday and Friday" in the page's language. */
function dayList(days: number[], lng: string): string {
  // 2024-01-01 was a Monday.
  const names = days.map((d) => new Intl.DateTimeFormat(lng, { weekday: "long", timeZone: "UTC" }).format(new Date(Date.UTC(2024, 0, d))));
  return new Intl.ListFormat(lng, { style: "long", type: "conjunction" }).format(names);
}

interface ApiMessage {
  text: string;
  sender: "USER" | "AGENT";
  createdAt: string;
}

export default function AgentChat({ loaderData: d }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { id: "chat-form" });
  const thread = d.thread;
  const live = !d.unavailable && (!thread || thread.status === "OPEN") && d.viewing === null;
  // Kept as one value per loaded thread: the polling hook starts again from it whenever the page's data changes.
  const initial: ChatLine[] = useMemo(
    () => (thread?.messages ?? []).map((m) => ({ key: `m${m.id}`, sender: m.sender, text: m.text, createdAt: m.createdAt, automatic: m.automatic })),
    [thread],
  );
  const load = useCallback(async (signal: AbortSignal): Promise<ChatLine[] | undefined> => {
    if (!live) return undefined;
    const body = await fetchJson(`/api/support/messages?limit=50`, signal);
    const list = listOf<ApiMessage>(body, ["messages"]);
    if (!list) return undefined;
    return list
      .slice()
      .reverse()
      .map((m, i) => ({ key: `p${i}-${m.createdAt}`, sender: m.sender, text: m.text, createdAt: m.createdAt, automatic: false }));
  }, [live]);
  const lines = usePolling(load, POLL.chat, initial);
  const sending = navigation.state !== "idle" && navigation.formData?.get("intent") === "send";
  const days = dayList(d.hours.days, i18n.language);
  return (
    <>
      <PageHeader title={t("supportchat.title")} lead={t("supportchat.lead", { days, open: d.hours.open, close: d.hours.close })} />
      {d.unavailable ? <Banner tone="error">{t("supportchat.errors.unavailable")}</Banner> : null}
      {!d.unavailable && d.viewing === null ? (
        <p className="chat-status">
          <span className={`badge ${d.openNow ? "badge--green" : "badge--yellow"}`}>{d.openNow ? t("supportchat.openNow") : t("supportchat.closedNow")}</span>{" "}
          {d.openNow ? t("supportchat.openNowHint") : t("supportchat.closedNowHint")}
        </p>
      ) : null}
      {d.viewing !== null && thread ? (
        <p>
          <Link to="/agentchat">{t("supportchat.backToChat")}</Link>
        </p>
      ) : null}
      <Panel title={d.viewing !== null && thread ? t("supportchat.pastTitle", { date: formatLongDate(thread.createdAt, i18n.language) }) : t("supportchat.conversation")} id="chat">
        {lines.length === 0 ? <p className="muted">{t("supportchat.empty")}</p> : <ChatLog lines={lines} you={t("supportchat.you")} agent={t("supportchat.agent")} automatic={t("supportchat.automatic")} />}
        {live ? (
          <AppForm {...getFormProps(form)} className="form chat-form" method="post">
            <FormErrors errors={form.errors} id={form.errorId} />
            <input type="hidden" name="intent" value="send" />
            <div className={`field${fields.text.errors?.length ? " field--invalid" : ""}`}>
              <label htmlFor={fields.text.id}>{t("supportchat.message")}</label>
              <textarea
                {...getTextareaProps(fields.text)}
                key={fields.text.key}
                maxLength={SUPPORT_MESSAGE_MAX}
                rows={3}
                aria-invalid={fields.text.errors?.length ? true : undefined}
                aria-describedby={fields.text.errors?.length ? fields.text.errorId : undefined}
              />
              {fields.text.errors?.length ? (
                <ul className="field__errors" id={fields.text.errorId}>
                  {[...new Set(fields.text.errors)].map((e) => (
                    <li key={e}>{t(e, { field: t("supportchat.message") })}</li>
                  ))}
                </ul>
              ) : null}
            </div>
            <Button disabled={sending}>{sending ? t("supportchat.sending") : t("supportchat.send")}</Button>
          </AppForm>
        ) : null}
      </Panel>
      {thread && thread.messages.length > 0 ? (
        <div className="chat-actions">
          <form method="post" className="inline-form">
            <CsrfField />
            <input type="hidden" name="intent" value="transcript" />
            <input type="hidden" name="sessionId" value={thread.sessionId} />
            <Button variant="secondary">{t("supportchat.emailTranscript")}</Button>
          </form>
          {thread.status === "OPEN" ? (
            <form method="post" className="inline-form">
              <CsrfField />
              <input type="hidden" name="intent" value="close" />
              <input type="hidden" name="sessionId" value={thread.sessionId} />
              <Button variant="destructive">{t("supportchat.end")}</Button>
            </form>
          ) : null}
        </div>
      ) : null}
      {d.past.length > 0 ? (
        <Panel title={t("supportchat.past")} id="past">
          <ul className="list">
            {d.past.map((p) => (
              <li key={p.id}>
                <Link to={`/agentchat?id=${p.id}`}>{t("supportchat.pastTitle", { date: formatLongDate(p.createdAt, i18n.language) })}</Link>
              </li>
            ))}
          </ul>
        </Panel>
      ) : null}
    </>
  );
}
