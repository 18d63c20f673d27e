// /manageteam: the business's team (name, mobile, email, last logged in, last active, type) and its open
// invitations (code, sent to, issued, expires). The Administrator invites a team member by text or email,
// resends or revokes an invitation, removes a team member and hands the Administrator role to one of them.
// Only the Administrator may see or post to it (the handle's permission).
import { getFormProps, getInputProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/manageteam";
import { ConfirmAction } from "~/components/confirm";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Badge } from "~/components/choices";
import { Button, EmptyState, PageHeader, Panel } from "~/components/ui";
import {
  handOverAdministrator,
  inviteTeamMember,
  listInvites,
  listTeam,
  removeTeamMember,
  resendInvite,
  revokeInvite,
  type InviteTexts,
} from "~/domain/accounts/team.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { getI18n } from "~/lib/i18n.server";
import { orNotFound } from "~/lib/not-found.server";
import { formatUkNumber, parseUkMobile } from "~/lib/phone";
import { formatLongDate } from "~/lib/uk-time";
import { email, phoneInput } from "~/lib/validation";

export const handle = { titleKey: "team.meta.title", descriptionKey: "team.meta.description", permission: "team:manage" } as const;

const smsSchema = z.object({ mobile: phoneInput });
const emailSchema = z.object({ email });
const idSchema = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Another business's id is the 404 page; a refusal of the rules themselves (removing the Administrator) the FB001 page. */
async function orRefused<T>(p: Promise<T>): Promise<T> {
  try {
    return await orNotFound(p);
  } catch (e) {
    if (e instanceof AppError && e.code === "FB001") throw data({ code: "FB001" }, { status: 403 });
    throw e;
  }
}

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const [team, invites] = await Promise.all([listTeam(db, user.businessId), listInvites(db, user.businessId, now())]);
  return {
    me: user.userId,
    ttlDays: config.inviteTtlDays,
    team: team.map((m) => ({ ...m, mobile: formatUkNumber(m.mobile) })),
    invites: invites.map((i) => ({ ...i, sentTo: i.channel === "SMS" ? formatUkNumber(i.sentTo) : i.sentTo })),
  };
}

function inviteTexts(context: Route.ActionArgs["context"], businessName: string, inviter: string, days: number): InviteTexts {
  const i18n = getI18n(context);
  return {
    sms: (link) => i18n.t("team.invite.sms", { business: businessName, name: inviter, link }),
    emailSubject: i18n.t("team.invite.emailSubject", { business: businessName }),
    emailText: (link) => i18n.t("team.invite.emailText", { business: businessName, name: inviter, link, days }),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const form = await request.formData();
  const intent = form.get("intent");
  const deps = { publicUrl: config.publicUrl, systemSender: config.systemSender, ttlDays: config.inviteTtlDays, now: now() };
  const texts = inviteTexts(context, user.companyName, user.name, config.inviteTtlDays);

  if (intent === "invite-sms" || intent === "invite-email") {
    const channel = intent === "invite-sms" ? "SMS" : "EMAIL";
    const submission = channel === "SMS" ? parseWithZod(form, { schema: smsSchema }) : parseWithZod(form, { schema: emailSchema });
    if (submission.status !== "success") return data({ form: channel, result: submission.reply() }, { status: 400 });
    let to: string;
    if (channel === "SMS") {
      const mobile = parseUkMobile((submission.value as z.output<typeof smsSchema>).mobile);
      if (!mobile) return data({ form: channel, result: submission.reply({ fieldErrors: { mobile: ["validation.phone"] } }) }, { status: 400 });
      to = mobile;
    } else {
      to = (submission.value as z.output<typeof emailSchema>).email;
    }
    try {
      await inviteTeamMember(db, { businessId: user.businessId, actorId: user.userId, channel, to }, texts, deps);
    } catch (error) {
      const reply = replyWithError(submission, error);
      return data({ form: channel, result: reply.data.result }, reply.init ?? undefined);
    }
    setToast(context, { type: "success", message: channel === "SMS" ? "team.toast.invitedSms" : "team.toast.invitedEmail" });
    return redirect("/manageteam");
  }

  const id = idSchema.safeParse(form.get("id"));
  if (!id.success) throw data(null, { status: 404 });
  const target = { businessId: user.businessId, actorId: user.userId };
  switch (intent) {
    case "resend":
      await orRefused(resendInvite(db, { ...target, inviteId: id.data }, texts, deps));
      setToast(context, { type: "success", message: "team.toast.resent" });
      return redirect("/manageteam");
    case "revoke":
      await orRefused(revokeInvite(db, { ...target, inviteId: id.data }, now()));
      setToast(context, { type: "success", message: "team.toast.revoked" });
      return redirect("/manageteam");
    case "remove":
      await orRefused(removeTeamMember(db, { ...target, userId: id.data }, now()));
      setToast(context, { type: "success", message: "team.toast.removed" });
      return redirect("/manageteam");
    case "handover":
      await orRefused(handOverAdministrator(db, { businessId: user.businessId, actorId: user.userId, toUserId: id.data }, now()));
      // The previous Administrator is a team member now: this page is no longer theirs.
      setToast(context, { type: "success", message: "team.toast.handedOver" });
      return redirect("/");
    default:
      throw data(null, { status: 400 });
  }
}

function InviteForms() {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  const [smsForm, smsFields] = useValidatedForm(smsSchema, actionData?.form === "SMS" ? actionData.result : null, { id: "invite-sms" });
  const [emailForm, emailFields] = useValidatedForm(emailSchema, actionData?.form === "EMAIL" ? actionData.result : null, { id: "invite-email" });
  return (
    <div className="team-invite">
      <AppForm {...getFormProps(smsForm)} className="form">
        <h3>{t("team.invite.bySms")}</h3>
        <FormErrors errors={smsForm.errors} id={smsForm.errorId} />
        <input type="hidden" name="intent" value="invite-sms" />
        <Field
          field={smsFields.mobile}
          label={t("team.invite.mobile")}
          hint={t("team.invite.mobileHint")}
          type="tel"
          input={{ ...getInputProps(smsFields.mobile, { type: "tel" }), autoComplete: "off", inputMode: "tel", maxLength: 25 }}
        />
        <Button>{t("team.invite.sendSms")}</Button>
      </AppForm>
      <AppForm {...getFormProps(emailForm)} className="form">
        <h3>{t("team.invite.byEmail")}</h3>
        <FormErrors errors={emailForm.errors} id={emailForm.errorId} />
        <input type="hidden" name="intent" value="invite-email" />
        <Field
          field={emailFields.email}
          label={t("team.invite.email")}
          hint={t("team.invite.emailHint")}
          input={{ ...getInputProps(emailFields.email, { type: "email" }), autoComplete: "off", maxLength: 254 }}
        />
        <Button>{t("team.invite.sendEmail")}</Button>
      </AppForm>
    </div>
  );
}

export default function ManageTeam({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { team, invites, me, ttlDays } = loaderData;
  const when = (iso: string | null) => (iso ? formatLongDate(iso, i18n.language) : t("team.list.never"));
  return (
    <div className="stack">
      <PageHeader title={t("team.title")} lead={t("team.lead")} />
      <Panel title={t("team.list.title")} id="team-list">
        {team.length === 0 ? (
          <EmptyState title={t("team.list.empty")} />
        ) : (
          <ul className="team-list">
            {team.map((m) => (
              <li key={m.id} className="team-card" data-user-id={m.id}>
                <p className="team-card__head">
                  <strong>{m.name}</strong>
                  {m.id === me ? ` ${t("team.list.you")}` : ""}{" "}
                  <Badge tone={m.role === "ADMIN" ? "info" : "neutral"}>{t(`team.role.${m.role}`)}</Badge>
                  {m.disabled ? <Badge tone="red">{t("team.list.disabled")}</Badge> : null}
                </p>
                <dl className="team-card__facts">
                  <div>
                    <dt>{t("team.list.mobile")}</dt>
                    <dd className="nowrap">{m.mobile}</dd>
                  </div>
                  <div>
                    <dt>{t("team.list.email")}</dt>
                    <dd>{m.email}</dd>
                  </div>
                  <div>
                    <dt>{t("team.list.lastLogin")}</dt>
                    <dd>{when(m.lastLoginAt)}</dd>
                  </div>
                  <div>
                    <dt>{t("team.list.lastActive")}</dt>
                    <dd>{when(m.lastActiveAt)}</dd>
                  </div>
                </dl>
                {m.role === "TEAM" ? (
                  <div className="team-actions">
                    <ConfirmAction
                      id={`handover-${m.id}`}
                      trigger={<>{t("team.handover.trigger")}<span className="visually-hidden"> {t("team.invites.forWhom", { to: m.name })}</span></>}
                      title={t("team.handover.title", { name: m.name })}
                      confirmLabel={t("team.handover.confirm", { name: m.name })}
                      fields={{ intent: "handover", id: String(m.id) }}
                    >
                      <p>{t("team.handover.body", { name: m.name })}</p>
                    </ConfirmAction>
                    <ConfirmAction
                      id={`remove-${m.id}`}
                      trigger={<>{t("team.remove.trigger")}<span className="visually-hidden"> {m.name}</span></>}
                      title={t("team.remove.title", { name: m.name })}
                      confirmLabel={t("team.remove.confirm")}
                      fields={{ intent: "remove", id: String(m.id) }}
                    >
                      <p>{t("team.remove.body", { name: m.name })}</p>
                    </ConfirmAction>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel title={t("team.invite.title")} id="team-invite">
        <p>{t("team.invite.lead", { days: ttlDays })}</p>
        <InviteForms />
      </Panel>

      <Panel title={t("team.invites.title")} id="team-invites">
        {invites.length === 0 ? (
          <EmptyState title={t("team.invites.empty")} />
        ) : (
          <ul className="team-list">
            {invites.map((inv) => (
              <li key={inv.id} className="team-card" data-invite-id={inv.id}>
                <p className="team-card__head">
                  <strong>{inv.sentTo}</strong> <Badge>{t(`team.invites.channel.${inv.channel}`)}</Badge>
                  {inv.expired ? <Badge tone="red">{t("team.invites.expired")}</Badge> : null}
                </p>
                <dl className="team-card__facts">
                  <div>
                    <dt>{t("team.invites.code")}</dt>
                    <dd>
                      <code className="nowrap">…{inv.codeHint}</code>
                    </dd>
                  </div>
                  <div>
                    <dt>{t("team.invites.issued")}</dt>
                    <dd>{when(inv.issuedAt)}</dd>
                  </div>
                  <div>
                    <dt>{t("team.invites.expires")}</dt>
                    <dd>{when(inv.expiresAt)}</dd>
                  </div>
                  {inv.invitedBy ? (
                    <div>
                      <dt>{t("team.invites.invitedBy")}</dt>
                      <dd>{inv.invitedBy}</dd>
                    </div>
                  ) : null}
                </dl>
                <div className="team-actions">
                  <AppForm className="inline-form">
                    <input type="hidden" name="intent" value="resend" />
                    <input type="hidden" name="id" value={inv.id} />
                    <Button variant="secondary">
                      {t("team.invites.resend")}
                      <span className="visually-hidden"> {t("team.invites.forWhom", { to: inv.sentTo })}</span>
                    </Button>
                  </AppForm>
                  <ConfirmAction
                    id={`revoke-${inv.id}`}
                    trigger={<>{t("team.revoke.trigger")}<span className="visually-hidden"> {t("team.invites.forWhom", { to: inv.sentTo })}</span></>}
                    title={t("team.revoke.title", { to: inv.sentTo })}
                    confirmLabel={t("team.revoke.confirm")}
                    fields={{ intent: "revoke", id: String(inv.id) }}
                  >
                    <p>{t("team.revoke.body")}</p>
                  </ConfirmAction>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}
