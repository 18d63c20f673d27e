// Member info (/memberinfo?id=… and /memberinfo/:id): every attribute, groups, opt-in state, the
// consent log, the edit form and deletion with a confirmation step (?delete=1; works as plain forms).
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/memberinfo";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { formatBirthday, formValue } from "~/domain/members/attributes.server";
import { deleteMember, memberDetail, memberFormLink, updateMember } from "~/domain/members/community.server";
import { formatLongDate, utcToUkDateTime } from "~/lib/uk-time";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";
import { askForFeedback, runningSurvey } from "~/domain/campaigns/survey.server";
import { AppError } from "~/lib/errors";
import { AttributeFields, attributeValuesFrom, DefaultFields, memberSchema } from "./mycommunity.shared";

export const handle = { titleKey: "members.meta.infoTitle", descriptionKey: "members.meta.infoDescription" };

function memberIdOf(request: Request, params: Record<string, string | undefined>): number {
  const query = new URL(request.url).searchParams.get("id");
  // The bare /memberinfo names no member: open the members list instead of a 404.
  if (params.id === undefined && query === null) throw redirect("/mycommunity");
  const raw = params.id ?? query ?? "";
  const id = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  return id;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  const id = memberIdOf(request, params);
  const d = await orNotFound(memberDetail(db, user.businessId, id));
  const survey = await runningSurvey(db, user.businessId);
  const m = d.member;
  const appt = m.appointment_at ? utcToUkDateTime(new Date(m.appointment_at)) : { date: "", time: "" };
  const initial: Record<string, string> = {};
  for (const a of d.attributes) initial[String(a.id)] = formValue(a, d.values.get(Number(a.id)));
  return {
    confirmDelete: new URL(request.url).searchParams.get("delete") === "1",
    member: {
      id: Number(m.id),
      phone: formatUkNumber(m.phone),
      firstName: m.first_name ?? "",
      fullName: m.full_name ?? "",
      birthday: formatBirthday(m.birthday),
      appointmentDate: appt.date,
      appointmentTime: appt.time,
      note: m.note ?? "",
      status: m.status,
      joinedAt: m.joined_at,
      invitedAt: m.invited_at,
      optedOutAt: m.opted_out_at,
      updatedAt: m.updated_at,
      addedBy: d.actors.addedBy,
      editedBy: d.actors.editedBy,
      formLink: memberFormLink(config, m),
    },
    attributes: d.attributes.map((a) => ({ id: Number(a.id), name: a.name, type: a.type, mandatory: a.mandatory, items: a.items })),
    initial,
    groups: d.groups.map((g) => ({ id: Number(g.id), name: g.name })),
    consent: d.consent.map((c) => ({ id: Number(c.id), action: c.action, channel: c.channel, at: c.created_at })),
    survey: survey ? { name: survey.name } : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const id = memberIdOf(request, params);
  const form = await request.clone().formData();
  if (form.get("intent") === "feedback") {
    try {
      await orNotFound(askForFeedback(getDeps(context), { businessId: user.businessId, memberId: id, userId: user.userId }));
      setToast(context, { type: "success", message: "members.feedback.sent" });
      return redirect(`/memberinfo?id=${id}`);
    } catch (error) {
      if (error instanceof AppError) return data({ feedbackError: error.code }, { status: 400 });
      throw error;
    }
  }
  if (form.get("intent") === "delete") {
    await orNotFound(deleteMember(db, user.businessId, id, now(), user.userId));
    setToast(context, { type: "success", message: "members.toast.deleted" });
    return redirect("/mycommunity");
  }
  const submission = parseWithZod(form, { schema: memberSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await orNotFound(updateMember(db, user.businessId, id, { ...submission.value, note: submission.value.note ?? "", values: attributeValuesFrom(form) }, now(), user.userId));
    setToast(context, { type: "success", message: "members.toast.saved" });
    return redirect(`/memberinfo?id=${id}`);
  } catch (error) {
    return replyWithError(submission, error);
  }
}

export default function MemberInfo({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { member, attributes, initial, groups, consent, confirmDelete, survey } = loaderData;
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(memberSchema, actionData && "result" in actionData ? actionData.result : undefined, {
    defaultValue: {
      phone: member.phone,
      firstName: member.firstName,
      fullName: member.fullName,
      birthday: member.birthday,
      appointmentDate: member.appointmentDate,
      appointmentTime: member.appointmentTime,
      note: member.note,
    },
  });
  const date = (iso: string | null) => (iso ? formatLongDate(iso, i18n.language) : "—");
  const title = member.fullName || member.firstName || member.phone;
  if (confirmDelete) {
    return (
      <>
        <PageHeader title={t("members.delete.title", { name: title })} />
        <Panel>
          <p>{t("members.delete.body")}</p>
          <AppForm method="post" action={`/memberinfo?id=${member.id}`} className="actions">
            <input type="hidden" name="intent" value="delete" />
            <Button variant="destructive">{t("members.delete.confirm")}</Button>
            <ButtonLink variant="secondary" to={`/memberinfo?id=${member.id}`}>
              {t("common.cancel")}
            </ButtonLink>
          </AppForm>
        </Panel>
      </>
    );
  }
  return (
    <>
      <PageHeader
        title={title}
        lead={<span className={`members-status members-status--${member.status.toLowerCase()}`}>{t(`members.status.${member.status}`)}</span>}
        actions={<ButtonLink to={`/member/messages?id=${member.id}`} variant="secondary" id="member-messages-link">{t("conversations.memberMessages")}</ButtonLink>}
      />
      <div className="stack">
        <Panel title={t("members.info.summary")} id="member-summary">
          <dl className="members-dl">
            <dt>{t("members.fields.phone")}</dt>
            <dd>{member.phone}</dd>
            <dt>{t("members.info.state")}</dt>
            <dd>{t(`members.status.${member.status}`)}</dd>
            <dt>{t("members.info.invited")}</dt>
            <dd>
              {date(member.invitedAt)}
              {member.addedBy ? <span className="actor"> · {t("team.actor.addedBy", { name: member.addedBy })}</span> : null}
            </dd>
            <dt>{t("members.info.joined")}</dt>
            <dd>{date(member.joinedAt)}</dd>
            {member.optedOutAt ? (
              <>
                <dt>{t("members.info.optedOut")}</dt>
                <dd>{date(member.optedOutAt)}</dd>
              </>
            ) : null}
            <dt>{t("attributes.defaults.memberLastUpdated")}</dt>
            <dd>
              {date(member.updatedAt)}
              {member.editedBy ? <span className="actor"> · {t("team.actor.editedBy", { name: member.editedBy })}</span> : null}
            </dd>
            <dt>{t("members.info.groups")}</dt>
            <dd>{groups.length ? groups.map((g) => g.name).join(", ") : t("members.info.noGroups")}</dd>
            <dt>{t("members.info.formLink")}</dt>
            <dd className="members-link">{member.formLink}</dd>
          </dl>
        </Panel>
        <Panel title={t("members.info.edit")} id="member-edit">
          <FormErrors errors={form.errors} id={form.errorId} />
          <AppForm {...getFormProps(form)} action={`/memberinfo?id=${member.id}`} className="form">
            <input type="hidden" name="intent" value="save" />
            <Field field={fields.phone} label={t("members.fields.phone")} input={{ ...getInputProps(fields.phone, { type: "tel" }), maxLength: 25, autoComplete: "off" }} />
            <DefaultFields fields={fields} />
            <AttributeFields attributes={attributes} fields={fields} initial={initial} />
            <Button>{t("members.info.save")}</Button>
          </AppForm>
        </Panel>
        {member.status === "SUBSCRIBED" ? (
          <Panel title={t("members.feedback.title")} id="member-feedback">
            {actionData && "feedbackError" in actionData ? (
              <p className="banner banner--error" role="alert" id="member-feedback-error">
                {t(`errors.${actionData.feedbackError}`)}
                {actionData.feedbackError === "BR005" ? (
                  <>
                    {" "}
                    <Link to="/customerexp">{t("members.feedback.setUp")}</Link>
                  </>
                ) : null}
              </p>
            ) : null}
            {survey ? (
              <AppForm method="post" action={`/memberinfo?id=${member.id}`} className="actions">
                <input type="hidden" name="intent" value="feedback" />
                <p className="muted">{t("members.feedback.lead", { name: survey.name })}</p>
                <Button variant="secondary">{t("members.feedback.ask")}</Button>
              </AppForm>
            ) : (
              <p className="muted">
                {t("members.feedback.none")} <Link to="/customerexp">{t("members.feedback.setUp")}</Link>
              </p>
            )}
          </Panel>
        ) : null}
        <Panel title={t("members.info.consent")} id="member-consent">
          {consent.length === 0 ? (
            <p>{t("members.info.noConsent")}</p>
          ) : (
            <ol className="members-consent">
              {consent.map((c) => (
                <li key={c.id}>
                  <strong>{t(`members.consent.${c.action}`)}</strong> · {t(`members.channel.${c.channel}`)} · {date(c.at)}
                </li>
              ))}
            </ol>
          )}
        </Panel>
        <p>
          <Link to={`/memberinfo?id=${member.id}&delete=1`} className="members-danger-link">
            {t("members.delete.link")}
          </Link>
        </p>
      </div>
    </>
  );
}
