// /newdirectmessage: choose a subscribed member (search by name or number: a GET form that, with
// JavaScript, filters as you type), write the text with the live segment counter, send -> the thread.
// A hidden token per form render makes a double submission send one message.
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useSubmit } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/newdirectmessage";
import { DmComposer } from "~/components/dm-composer";
import { customMergeTags } from "~/domain/messaging/merge-tags.server";
import { AppForm, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader } from "~/components/ui";
import { displayName, newFormToken, requireMember, searchSubscribedMembers, sendDirectMessage } from "~/domain/conversations/conversations.server";
import { newDmSchema } from "~/domain/conversations/schema";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "conversations.meta.newTitle", descriptionKey: "conversations.meta.newDescription" };

const notFound = () => data({ code: "NF001" }, { status: 404 });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").slice(0, 40);
  const rawId = url.searchParams.get("id");
  let chosen: { id: number; name: string; phone: string } | null = null;
  if (rawId !== null) {
    if (!/^\d{1,15}$/.test(rawId)) throw notFound();
    try {
      const m = await requireMember(db, user.businessId, Number(rawId));
      chosen = { id: m.id, name: displayName(m), phone: formatUkNumber(m.phone) };
    } catch (e) {
      if (e instanceof AppError && e.code === "NF001") throw notFound();
      throw e;
    }
  }
  const results = chosen ? [] : (await searchSubscribedMembers(db, user.businessId, q)).map((m) => ({ ...m, phone: formatUkNumber(m.phone) }));
  return { q, chosen, results, token: newFormToken(), customTags: chosen ? await customMergeTags(db, user.businessId) : [] };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const submission = parseWithZod(await request.formData(), { schema: newDmSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const sent = await sendDirectMessage(deps, {
      businessId: user.businessId,
      memberId: submission.value.memberId,
      body: submission.value.text,
      createdBy: user.userId,
      idempotencyKey: `dm:${submission.value.token}`,
    });
    void sent;
  } catch (e) {
    if (e instanceof AppError && e.code === "NF001") throw notFound();
    return replyWithError(submission, e);
  }
  setToast(context, { type: "success", message: "conversations.toast.sent" });
  return redirect(`/member/messages?id=${submission.value.memberId}`);
}

function MemberSearch({ q, results }: { q: string; results: { id: number; name: string; phone: string }[] }) {
  const { t } = useTranslation();
  const submit = useSubmit();
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  return (
    <div className="stack">
      <Form method="get" className="form dm-search" role="search">
        <div className="field">
          <label htmlFor="dm-q">{t("conversations.new.search")}</label>
          <p className="field__hint" id="dm-q-hint">
            {t("conversations.new.searchHint")}
          </p>
          <input
            id="dm-q"
            name="q"
            type="search"
            defaultValue={q}
            maxLength={40}
            aria-describedby="dm-q-hint"
            autoComplete="off"
            onChange={(e) => {
              const form = e.currentTarget.form;
              window.clearTimeout(timer.current);
              timer.current = window.setTimeout(() => void submit(form, { replace: true, preventScrollReset: true }), 250);
            }}
          />
        </div>
        <Button variant="secondary">{t("conversations.new.searchButton")}</Button>
      </Form>
      {results.length === 0 ? (
        <p className="empty__body" role="status">
          {t("conversations.new.noResults")}
        </p>
      ) : (
        <ul className="list dm-choices" id="dm-choices">
          {results.map((m) => (
            <li key={m.id}>
              <Link to={`/newdirectmessage?id=${m.id}`} className="dm-row" data-member-id={m.id}>
                <span className="dm-row__who">
                  <strong>{m.name || m.phone}</strong> {m.name ? <span className="dm-row__phone">{m.phone}</span> : null}
                </span>
                <span className="dm-row__text">{t("conversations.new.choose", { name: m.name || m.phone })}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export default function NewDirectMessage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const { chosen, q, results, token } = loaderData;
  const [form, fields] = useValidatedForm(newDmSchema, actionData?.result, { id: "new-dm" });
  return (
    <div className="stack">
      <PageHeader title={t("conversations.new.title")} lead={t("conversations.new.lead")} />
      {chosen ? (
        <section className="panel stack">
          <p>
            {t("conversations.new.to")}: <strong id="dm-to">{chosen.name || chosen.phone}</strong> {chosen.name ? chosen.phone : ""}{" "}
            <Link to="/newdirectmessage">{t("conversations.new.change")}</Link>
          </p>
          <AppForm {...getFormProps(form)} className="form">
            <FormErrors errors={form.errors} id={form.errorId} />
            <input type="hidden" name="memberId" value={chosen.id} />
            <input type="hidden" name="token" value={token} />
            <DmComposer field={fields.text} label={t("conversations.new.text")} customTags={loaderData.customTags} />
            <Button id="dm-send">{t("conversations.new.send")}</Button>
          </AppForm>
        </section>
      ) : (
        <>
          <FormErrors errors={form.errors} />
          <MemberSearch q={q} results={results} />
        </>
      )}
    </div>
  );
}
