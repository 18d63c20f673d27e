// New group message, step 3 of 3 (Preview): the text as a chosen member receives it (merge tags
// rendered), the group, when, "This sends N texts and uses M credits" (ui.md), BR012 when the credit
// is short and BR026 when the group is empty. Sending is idempotent per draft: a double submission
// creates one message (the draft's token is the message's idempotency key). A text with {{shopify.code}}
// whose codes are not all made yet waits for them: the page then shows the codes being made (refreshing
// itself, with or without JavaScript) until the worker has sent it, or why they could not be made. When the
// credit is short the owner chooses, with plain forms and links: send to the first N members the credit covers
// (the rest are recorded as left out and listed afterwards), or increase the plan first. Nothing is ever
// dropped without that choice.
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData, useLoaderData, useNavigation } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/newgroupmessage.preview";
import { AppForm, FormErrors } from "~/components/form";
import { Steps } from "~/components/group-messages";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, ButtonLink, PageHeader } from "~/components/ui";
import { StatList } from "~/components/choices";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { previewDraft, sendDraftOrWait } from "~/domain/group-messages/group-messages.server";
import { codeRequestForDraft } from "~/domain/shop/codes.server";
import { reasonContext } from "~/domain/shop/integration.server";
import { formatLongDate } from "~/domain/home/format";

export const handle = { titleKey: "groupmessages.meta.newTitle", descriptionKey: "groupmessages.meta.newDescription" };

const schema = z.object({ draftId: z.coerce.number().int().positive(), firstRecipients: z.coerce.number().int().positive().max(10_000_000).optional() });

/** While discount codes are being made the page reloads itself, with or without JavaScript. */
export const meta: Route.MetaFunction = ({ data: d }) => (d?.codes && (d.codes.status === "PENDING" || d.codes.status === "MAKING") ? [{ httpEquiv: "refresh", content: "3" }] : []);

function intParam(url: URL, name: string): number | null {
  const v = url.searchParams.get(name);
  if (v === null || v === "") return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now, config } = getDeps(context);
  const url = new URL(request.url);
  const draftId = intParam(url, "draft");
  if (!draftId) throw data(null, { status: 404 });
  try {
    const p = await previewDraft(db, user.businessId, draftId, intParam(url, "memberId"), now(), config.publicUrl);
    if (p.draft.messageId) throw redirect(`/groupmessages?groupId=${p.group.id}`);
    const request = await codeRequestForDraft(db, user.businessId, p.draft.id);
    return {
      codes: request && request.status !== "READY" ? { status: request.status, made: request.made, needed: request.needed, reason: request.status === "FAILED" ? reasonContext(request.errorReason) : null } : null,
      draftId: p.draft.id,
      sendMode: p.draft.sendMode,
      sendAt: p.draft.sendAt,
      group: p.group,
      recipients: p.recipients,
      credits: p.credits,
      creditsRemaining: p.creditsRemaining,
      fits: p.fits,
      members: p.members,
      member: p.member,
      rendered: p.rendered,
      optOutLineAdded: p.optOutLineAdded,
    };
  } catch (e) {
    if (e instanceof AppError && e.status === 404) throw data(null, { status: 404 });
    throw e;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const firstRecipients = submission.value.firstRecipients ?? null;
    const r = await sendDraftOrWait(deps, { businessId: user.businessId, userId: user.userId, draftId: submission.value.draftId, firstRecipients });
    if (r.waiting) {
      setToast(context, { type: "info", message: "shop.waiting.toast" });
      return redirect(`/newgroupmessage/preview?draft=${submission.value.draftId}`);
    }
    setToast(context, {
      type: "success",
      message: !r.created
        ? "groupmessages.toast.alreadySent"
        : firstRecipients
          ? "partialsend.toast.sent"
          : r.scheduled
            ? "groupmessages.toast.scheduled"
            : "groupmessages.toast.sent",
    });
    return redirect(`/groupmessages?groupId=${r.groupId}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function PreviewStep() {
  const { t, i18n } = useTranslation();
  const p = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form] = useValidatedForm(schema, actionData?.result, { id: "send" });
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  const short = p.credits > p.creditsRemaining;
  const empty = p.recipients === 0;
  const busy = navigation.state !== "idle" && navigation.formData?.get("draftId") === String(p.draftId);
  const partial = short && !empty && p.fits && p.fits.recipients > 0 ? p.fits : null;
  return (
    <div className="stack gm-page">
      <PageHeader title={t("groupmessages.meta.newTitle")} lead={t("groupmessages.preview.title")} />
      <Steps current="preview" draftId={p.draftId} />
      {p.members.length > 1 ? (
        <Form method="get" className="gm-preview-as">
          <input type="hidden" name="draft" value={p.draftId} />
          <label htmlFor="gm-member">{t("groupmessages.preview.as")}</label>
          <select id="gm-member" name="memberId" defaultValue={p.member?.id}>
            {p.members.map((m) => (
              <option key={m.id} value={m.id}>
                {m.name}
              </option>
            ))}
          </select>
          <Button variant="secondary" className="btn--small">
            {t("groupmessages.preview.show")}
          </Button>
        </Form>
      ) : null}
      {p.member ? (
        <figure className="gm-phone">
          <figcaption>{t("groupmessages.preview.phone", { name: p.member.name })}</figcaption>
          <p className="gm-phone__bubble" data-testid="rendered">{p.rendered}</p>
        </figure>
      ) : null}
      {p.optOutLineAdded ? (
        <p className="field__hint" data-testid="opt-out-note">
          {t("groupmessages.preview.optOutAdded")}
        </p>
      ) : null}
      <StatList
        className="stats--plain gm-summary"
        items={[
          { label: t("groupmessages.preview.group"), value: p.group.name ?? t("groupmessages.allSubscribers") },
          { label: t("groupmessages.preview.when"), value: p.sendMode === "LATER" && p.sendAt ? formatLongDate(p.sendAt, i18n.language) : t("groupmessages.preview.now") },
        ]}
      />
      {empty ? (
        <Banner tone="error">{t("groupmessages.preview.empty")}</Banner>
      ) : (
        <p className="gm-cost" data-testid="summary">
          <strong>{t("groupmessages.preview.summary", { count: p.recipients, texts: fmt(p.recipients), credits: fmt(p.credits) })}</strong>{" "}
          {t("groupmessages.preview.remaining", { remaining: fmt(p.creditsRemaining) })}
        </p>
      )}
      {short && !empty ? (
        <Banner tone="error" title={t("partialsend.title")}>
          <p>{t("groupmessages.preview.short", { needed: fmt(p.credits), remaining: fmt(p.creditsRemaining) })}</p>
          <p>{partial ? t("partialsend.choose") : t("partialsend.none")}</p>
        </Banner>
      ) : null}
      {p.codes && p.codes.status !== "FAILED" ? (
        <div data-testid="codes-waiting">
          <Banner tone="info" title={t("shop.waiting.title")}>
            {t("shop.waiting.body", { made: fmt(p.codes.made), needed: fmt(p.codes.needed) })} <Link to={`/newgroupmessage/preview?draft=${p.draftId}`}>{t("shop.waiting.refresh")}</Link>
          </Banner>
        </div>
      ) : null}
      {p.codes?.status === "FAILED" ? (
        <div data-testid="codes-failed">
          <Banner tone="error" title={t("shop.waiting.failed")}>
            {/^BR\d{3}$/.test(p.codes.reason ?? "") ? t(`errors.${p.codes.reason}`, { defaultValue: t("errors.generic"), needed: "", remaining: "" }) : t(`errors.BR038_${p.codes.reason}`, { defaultValue: t("errors.BR038") })} {t("shop.waiting.retry")}
          </Banner>
        </div>
      ) : null}
      <FormErrors errors={form.errors} id={form.errorId} />
      {/* While its codes are being made the message is already on its way: nothing to press. */}
      {p.codes && p.codes.status !== "FAILED" ? null : short && !empty ? (
        <div className="stack partial-send" data-testid="partial-send">
          {partial ? (
            <AppForm {...getFormProps(form)} className="form">
              <input type="hidden" name="draftId" value={p.draftId} />
              <input type="hidden" name="firstRecipients" value={partial.recipients} />
              <Button className="btn--block" disabled={busy}>
                {t("partialsend.send", { count: p.recipients, first: fmt(partial.recipients), total: fmt(p.recipients) })}
              </Button>
              <p className="field__hint">
                {t("partialsend.sendHint", { count: p.recipients - partial.recipients, left: fmt(p.recipients - partial.recipients), credits: fmt(partial.credits) })}
              </p>
            </AppForm>
          ) : null}
          <p>
            <ButtonLink to="/changesubscription" variant={partial ? "secondary" : "primary"} className="btn--block">
              {t("partialsend.increase")}
            </ButtonLink>
          </p>
        </div>
      ) : (
        <AppForm {...getFormProps(form)} className="form">
          <input type="hidden" name="draftId" value={p.draftId} />
          <Button className="btn--block" disabled={busy}>
            {p.sendMode === "LATER" ? t("groupmessages.preview.schedule") : t("groupmessages.preview.send")}
          </Button>
        </AppForm>
      )}
      <p className="gm-back">
        <Link to={`/newgroupmessage/schedule?draft=${p.draftId}`}>{t("groupmessages.preview.back")}</Link>
        {" · "}
        <Link to={`/newgroupmessage?draft=${p.draftId}`}>{t("groupmessages.preview.editText")}</Link>
      </p>
    </div>
  );
}
