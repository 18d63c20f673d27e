// /ops/businesses/:id: one business for an operator: its state, usage this month and logins; and the
// operator's actions on it, each audited: admin access to a login (the single-use link, which also puts a
// notice on the business's home feed), disable or suspend the business and lift it, unlock a locked login.
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/business";
import { CsrfField, FormErrors } from "~/components/form";
import { ChoiceGroup } from "~/components/choices";
import { StateBadge } from "~/components/ops-bits";
import { Banner, Button, PageHeader, Panel } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { AppError, errorKey } from "~/lib/errors";
import { orNotFound } from "~/lib/not-found.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { formatLongDate } from "~/lib/uk-time";
import { getBusinessDetail, liftBusiness, openAdminAccess, stopBusiness, unlockUser } from "~/domain/ops/businesses.server";
import { audit } from "~/domain/ops/audit.server";
import { ADMIN_ACCESS_MINUTES } from "~/domain/accounts/admin-access.server";

export const handle = { titleKey: "ops.business.title" };

const schema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("stop"), kind: z.enum(["DISABLED", "SUSPENDED"]), reason: z.string().trim().max(300).optional() }),
  z.object({ intent: z.literal("lift"), reason: z.string().trim().max(300).optional() }),
  z.object({ intent: z.literal("unlock"), userId: z.coerce.number().int().positive() }),
  z.object({ intent: z.literal("adminAccess"), userId: z.coerce.number().int().positive() }),
]);

function businessId(params: { id?: string }): number {
  const id = Number(params.id);
  if (!Number.isSafeInteger(id) || id <= 0 || id > 2 ** 31) throw data(null, { status: 404 });
  return id;
}

export async function loader({ params, context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db, now } = getDeps(context);
  return { business: await orNotFound(getBusinessDetail(db, businessId(params), now())) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const operator = requireOperator(context);
  const { db, now, config } = getDeps(context);
  const id = businessId(params);
  const submission = parseWithZod(await request.formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply(), link: null }, { status: 400 });
  const v = submission.value;
  try {
    if (v.intent === "adminAccess") {
      const opened = await db.transaction().execute(async (trx) => {
        const o = await openAdminAccess(trx, id, v.userId, now());
        await audit(trx, operator, { action: "adminaccess.open", businessId: id, target: o.email, detail: `expires ${o.expiresAt.toISOString()}` }, now());
        return o;
      });
      return data({ result: submission.reply({ resetForm: true }), link: { url: `${config.publicUrl}/adminaccess/${opened.token}`, email: opened.email, minutes: ADMIN_ACCESS_MINUTES } }, { headers: { "Cache-Control": "no-store" } });
    }
    await db.transaction().execute(async (trx) => {
      if (v.intent === "stop") {
        const { from } = await stopBusiness(trx, id, v.kind);
        await audit(trx, operator, { action: v.kind === "DISABLED" ? "business.disable" : "business.suspend", businessId: id, target: from, detail: v.reason || null }, now());
      } else if (v.intent === "lift") {
        const { to } = await liftBusiness(trx, id);
        await audit(trx, operator, { action: "business.lift", businessId: id, target: to, detail: v.reason || null }, now());
      } else {
        const { email } = await unlockUser(trx, id, v.userId);
        await audit(trx, operator, { action: "user.unlock", businessId: id, target: email }, now());
      }
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw data(null, { status: 404 });
    if (error instanceof AppError) return data({ result: submission.reply({ formErrors: [errorKey(error.code)] }), link: null }, { status: error.status });
    throw error;
  }
  setToast(context, { type: "success", message: `ops.business.toast.${v.intent}` });
  return redirect(`/ops/businesses/${id}`);
}

export default function OpsBusiness({ loaderData: { business: b } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>();
  const stopped = b.state === "DISABLED" || b.state === "SUSPENDED";
  const errors = actionData?.result.error?.[""] ?? [];
  return (
    <>
      <p>
        <Link to="/ops">{t("ops.business.back")}</Link>
      </p>
      <PageHeader title={b.name} lead={<StateBadge state={b.state} locked={b.users.some((u) => u.locked)} />} />
      <FormErrors errors={errors} />
      {actionData?.link ? (
        <Banner tone="success" title={t("ops.business.adminLinkTitle", { email: actionData.link.email })}>
          <p>{t("ops.business.adminLinkBody", { minutes: actionData.link.minutes })}</p>
          <p className="ops-link-box">
            <a href={actionData.link.url} target="_blank" rel="noopener noreferrer">
              {actionData.link.url}
            </a>
          </p>
        </Banner>
      ) : null}
      <Panel title={t("ops.business.facts")} id="facts">
        <dl className="ops-facts">
          <div>
            <dt>{t("ops.business.number")}</dt>
            <dd>{b.phoneNumber ?? "—"}</dd>
          </div>
          <div>
            <dt>{t("ops.business.created")}</dt>
            <dd>{formatLongDate(b.createdAt, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t("ops.business.onboarding")}</dt>
            <dd>{b.onboarding}</dd>
          </div>
          {b.messageAllowance > 0 ? (
            <div>
              <dt>{t("ops.business.allowance")}</dt>
              <dd>{t("ops.business.allowanceValue", { used: b.allowanceUsed, allowance: b.messageAllowance })}</dd>
            </div>
          ) : (
            <div>
              <dt>{t("ops.business.trialCredits")}</dt>
              <dd>{b.trialCredits}</dd>
            </div>
          )}
          <div>
            <dt>{t("ops.business.texts")}</dt>
            <dd>{b.usage.textsThisMonth}</dd>
          </div>
          <div>
            <dt>{t("ops.business.failed")}</dt>
            <dd>{b.usage.failedThisMonth}</dd>
          </div>
          <div>
            <dt>{t("ops.business.members")}</dt>
            <dd>{b.usage.membersSubscribed}</dd>
          </div>
          <div>
            <dt>{t("ops.business.campaigns")}</dt>
            <dd>{b.usage.campaigns}</dd>
          </div>
          <div>
            <dt>{t("ops.business.events")}</dt>
            <dd>{b.usage.trackEventsThisMonth}</dd>
          </div>
          <div>
            <dt>{t("ops.business.openChats")}</dt>
            <dd>{b.openChats > 0 ? <Link to="/ops/support">{b.openChats}</Link> : 0}</dd>
          </div>
        </dl>
      </Panel>
      <Panel title={t("ops.business.logins")} id="logins">
        <div className="table-wrap">
          <table className="ops-table">
            <thead>
              <tr>
                <th scope="col">{t("ops.business.user")}</th>
                <th scope="col">{t("ops.business.role")}</th>
                <th scope="col">{t("ops.business.lastActive")}</th>
                <th scope="col">{t("ops.business.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {b.users.map((u) => (
                <tr key={u.id}>
                  <td>
                    {u.name}
                    <br />
                    <span className="muted small">{u.email}</span>
                  </td>
                  <td>{u.role === "ADMIN" ? t("ops.business.roleAdmin") : t("ops.business.roleTeam")}</td>
                  <td>{u.lastActiveAt ? formatLongDate(u.lastActiveAt, i18n.language) : "—"}</td>
                  <td>
                    <div className="ops-actions">
                      {u.locked ? (
                        <form method="post" className="inline-form">
                          <CsrfField />
                          <input type="hidden" name="intent" value="unlock" />
                          <input type="hidden" name="userId" value={u.id} />
                          <Button variant="secondary" className="btn--small" aria-label={t("ops.business.unlockLabel", { email: u.email })}>
                            {t("ops.business.unlock")}
                          </Button>
                        </form>
                      ) : null}
                      {!u.disabled && !stopped ? (
                        <form method="post" className="inline-form">
                          <CsrfField />
                          <input type="hidden" name="intent" value="adminAccess" />
                          <input type="hidden" name="userId" value={u.id} />
                          <Button variant="secondary" className="btn--small" aria-label={t("ops.business.adminAccessLabel", { email: u.email })}>
                            {t("ops.business.adminAccess")}
                          </Button>
                        </form>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="small muted">{t("ops.business.adminAccessHint")}</p>
      </Panel>
      <Panel title={t("ops.business.stopTitle")} id="stop">
        {stopped ? (
          <form method="post" className="form">
            <CsrfField />
            <input type="hidden" name="intent" value="lift" />
            <p>{t("ops.business.stoppedBody", { state: t(`ops.state.${b.state}`), back: t(`ops.state.${b.heldStatus ?? "TRIAL"}`, { defaultValue: b.heldStatus ?? "TRIAL" }) })}</p>
            <div className="field">
              <label htmlFor="lift-reason">{t("ops.business.reason")}</label>
              <input id="lift-reason" name="reason" maxLength={300} />
            </div>
            <Button>{t("ops.business.lift")}</Button>
          </form>
        ) : (
          <form method="post" className="form">
            <CsrfField />
            <input type="hidden" name="intent" value="stop" />
            <p>{t("ops.business.stopBody")}</p>
            <ChoiceGroup
              name="kind"
              legend={t("ops.business.stopKind")}
              defaultValue="SUSPENDED"
              options={[
                { value: "SUSPENDED", label: t("ops.business.suspend") },
                { value: "DISABLED", label: t("ops.business.disable") },
              ]}
            />
            <div className="field">
              <label htmlFor="stop-reason">{t("ops.business.reason")}</label>
              <input id="stop-reason" name="reason" maxLength={300} />
            </div>
            <Button variant="destructive">{t("ops.business.stop")}</Button>
          </form>
        )}
      </Panel>
      <p>
        <Link to={`/ops/audit?business=${b.id}`}>{t("ops.business.auditLink")}</Link>
      </p>
    </>
  );
}
