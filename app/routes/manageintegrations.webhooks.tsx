// /manageintegrations/webhooks: the business's outbound webhooks. Endpoints are added, edited (?edit=<id>),
// switched on and off, tested and deleted with plain form posts; the signing secret is shown once, when it is
// made and when it is rolled; the delivery log pages (?page=n), shows a delivery's exact body (?delivery=<id>)
// and offers "Retry now". Only the Administrator may open it (the handle's permission).
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/manageintegrations.webhooks";
import { useHasScreen } from "~/components/app-shell";
import { ConfirmAction } from "~/components/confirm";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, ButtonLink, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import {
  createEndpoint,
  deleteEndpoint,
  getDelivery,
  getEndpoint,
  listDeliveries,
  listEndpoints,
  retryDelivery,
  rollSecret,
  secretInfo,
  sendTestEvent,
  setEndpointEnabled,
  updateEndpoint,
} from "~/domain/webhooks/endpoints.server";
import { AUTO_DISABLE_AFTER, EVENT_TYPES } from "~/domain/webhooks/model";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { errorMessage, replyWithError } from "~/lib/forms.server";
import { AppError } from "~/lib/errors";
import { orNotFound } from "~/lib/not-found.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "webhooks.meta.title", descriptionKey: "webhooks.meta.description", permission: "integrations:manage" } as const;

const PATH = "/manageintegrations/webhooks";
const CONTROL = /[\u0000-\u001F\u007F-\u009F]/;

/** The endpoint form, checked in the browser and again on the server (which also applies the address rules). */
const endpointSchema = z.object({
  id: z.coerce.number().int().positive().optional(),
  url: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(2000, "webhooks.validation.urlTooLong")
    .refine((v) => /^https?:\/\/[^\s/?#]+/i.test(v) && !CONTROL.test(v), "webhooks.validation.url"),
  description: z.string().trim().max(200, "webhooks.validation.descriptionTooLong").refine((v) => !CONTROL.test(v), "validation.controlChars").optional(),
  // Errors on the list as a whole (not on one box), so the fieldset shows them.
  events: z
    .array(z.string(), { error: "webhooks.validation.events" })
    .refine((list) => list.length > 0 && list.every((e) => (EVENT_TYPES as readonly string[]).includes(e)), "webhooks.validation.events"),
});

function idParam(url: URL, name: string): number | null {
  const v = url.searchParams.get(name);
  if (v === null) return null;
  if (!/^\d{1,15}$/.test(v)) throw data(null, { status: 404 });
  return Number(v);
}

function formId(form: FormData, name: string): number {
  const v = form.get(name);
  if (typeof v !== "string" || !/^\d{1,15}$/.test(v)) throw data(null, { status: 404 });
  return Number(v);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const url = new URL(request.url);
  const editId = idParam(url, "edit");
  const deliveryId = idParam(url, "delivery");
  const pageParam = url.searchParams.get("page");
  const page = pageParam && /^\d{1,6}$/.test(pageParam) ? Number(pageParam) : 1;
  const [endpoints, secret, log] = await Promise.all([listEndpoints(db, user.businessId), secretInfo(db, user.businessId, now()), listDeliveries(db, user.businessId, page)]);
  const editing = editId === null ? null : await orNotFound(getEndpoint(db, user.businessId, editId));
  const delivery = deliveryId === null ? null : await orNotFound(getDelivery(db, user.businessId, deliveryId));
  let payload: string | null = null;
  if (delivery) {
    try {
      payload = JSON.stringify(JSON.parse(delivery.payload), null, 2);
    } catch {
      payload = delivery.payload;
    }
  }
  return { endpoints, secret, log, editing, delivery: delivery ? { ...delivery, payload } : null };
}

type ActionData = { result: SubmissionResult<string[]> | null; secret?: string; error?: string };

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now, config } = getDeps(context);
  const form = await request.clone().formData();
  const intent = form.get("intent");
  const settings = { allowPrivate: config.webhooks.allowPrivate };
  const done = (message: string, to = PATH) => {
    setToast(context, { type: "success", message });
    return redirect(to);
  };
  try {
    switch (intent) {
      case "roll": {
        const secret = await rollSecret(db, user.businessId, now());
        return data<ActionData>({ result: null, secret });
      }
      case "enable":
      case "disable":
        await orNotFound(setEndpointEnabled(db, user.businessId, formId(form, "id"), intent === "enable", now()));
        return done(intent === "enable" ? "webhooks.toast.enabled" : "webhooks.toast.disabled");
      case "delete":
        await orNotFound(deleteEndpoint(db, user.businessId, formId(form, "id")));
        return done("webhooks.toast.deleted");
      case "test":
        await orNotFound(sendTestEvent(db, user.businessId, formId(form, "id"), now()));
        return done("webhooks.toast.testQueued");
      case "retry": {
        const queued = await orNotFound(retryDelivery(db, user.businessId, formId(form, "deliveryId"), now()));
        const page = form.get("page");
        return done(queued ? "webhooks.toast.retryQueued" : "webhooks.toast.retryNotNeeded", typeof page === "string" && /^\d{1,6}$/.test(page) && page !== "1" ? `${PATH}?page=${page}` : PATH);
      }
      default:
        break;
    }
  } catch (error) {
    if (error instanceof AppError && error.status !== 404) return data<ActionData>({ result: null, error: errorMessage(error) }, { status: error.status });
    throw error;
  }
  const submission = parseWithZod(form, { schema: endpointSchema });
  if (submission.status !== "success") return data<ActionData>({ result: submission.reply() }, { status: 400 });
  const v = submission.value;
  const input = { url: v.url, description: v.description ?? null, events: v.events };
  try {
    if (v.id) {
      await orNotFound(updateEndpoint(db, user.businessId, v.id, input, settings, now()));
      return done("webhooks.toast.saved");
    }
    const created = await createEndpoint(db, user.businessId, user.userId, input, settings, now());
    if (created.secret) {
      setToast(context, { type: "success", message: "webhooks.toast.added" });
      return data<ActionData>({ result: submission.reply({ resetForm: true }), secret: created.secret });
    }
    return done("webhooks.toast.added");
  } catch (error) {
    return replyWithError(submission, error);
  }
}

function when(iso: string | null, language: string) {
  return iso ? formatLongDate(iso, language) : "";
}

function EndpointForm({ editing, lastResult }: { editing: Route.ComponentProps["loaderData"]["editing"]; lastResult: ActionData["result"] | undefined }) {
  const { t } = useTranslation();
  const [form, fields] = useValidatedForm(endpointSchema, lastResult, {
    id: editing ? `endpoint-${editing.id}` : "endpoint-new",
    defaultValue: editing ? { url: editing.url, description: editing.description ?? "", events: editing.events } : { url: "", description: "", events: [...EVENT_TYPES] },
  });
  const chosen = (fields.events.initialValue as string[] | string | undefined) ?? [];
  const isChosen = (e: string) => (Array.isArray(chosen) ? chosen.includes(e) : chosen === e);
  const eventErrors = fields.events.errors ?? [];
  return (
    <>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form" action={PATH}>
        {editing ? <input type="hidden" name="id" value={editing.id} /> : null}
        <Field field={fields.url} label={t("webhooks.form.url")} hint={t("webhooks.form.urlHint")} type="url" input={{ maxLength: 2000, autoComplete: "off", inputMode: "url" }} />
        <Field field={fields.description} label={t("webhooks.form.description")} hint={t("webhooks.form.descriptionHint")} input={{ maxLength: 200 }} />
        <fieldset className={`field${eventErrors.length ? " field--invalid" : ""}`} aria-describedby={eventErrors.length ? fields.events.errorId : undefined}>
          <legend>{t("webhooks.form.events")}</legend>
          {EVENT_TYPES.map((e) => (
            <label key={e} className="checkbox">
              <input type="checkbox" name={fields.events.name} value={e} defaultChecked={isChosen(e)} />
              <span className="webhook-event">
                <code>{e}</code>
                <span className="webhook-event__what">{t(`webhooks.events.${e}`)}</span>
              </span>
            </label>
          ))}
          {eventErrors.length ? (
            <ul className="field__errors" id={fields.events.errorId}>
              {[...new Set(eventErrors)].map((m) => (
                <li key={m}>{t(m)}</li>
              ))}
            </ul>
          ) : null}
        </fieldset>
        <div className="form__actions">
          <Button name="intent" value="save">{editing ? t("webhooks.form.save") : t("webhooks.form.add")}</Button>
          {editing ? (
            <Link to={PATH} className="btn btn--secondary">
              {t("common.cancel")}
            </Link>
          ) : null}
        </div>
      </AppForm>
    </>
  );
}

export default function Webhooks({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hasScreen = useHasScreen();
  const actionData = useActionData<typeof action>() as ActionData | undefined;
  const { endpoints, secret, log, editing, delivery } = loaderData;
  const failing = endpoints.filter((e) => e.disabledReason === "FAILING");
  const lang = i18n.language;
  const pageHref = (p: number) => (p > 1 ? `${PATH}?page=${p}` : PATH);
  return (
    <>
      <PageHeader
        title={t("webhooks.title")}
        lead={t("webhooks.lead")}
        actions={hasScreen("/manageintegrations") ? <ButtonLink to="/manageintegrations" variant="secondary">{t("webhooks.backToIntegrations")}</ButtonLink> : null}
      />
      <div className="stack">
        {actionData?.error ? <FormErrors errors={[actionData.error]} /> : null}
        {failing.map((e) => (
          <Banner key={e.id} tone="warning" title={t("webhooks.failing.title")}>
            {t("webhooks.failing.body", { url: e.url, count: AUTO_DISABLE_AFTER })}
          </Banner>
        ))}
        {actionData?.secret ? (
          <Banner tone="success" title={t("webhooks.secret.newTitle")}>
            <p>{t("webhooks.secret.newBody")}</p>
            <p>
              <label htmlFor="new-secret">{t("webhooks.secret.label")}</label>
              <input id="new-secret" className="secret-value" readOnly value={actionData.secret} size={50} />
            </p>
          </Banner>
        ) : null}

        <Panel title={t("webhooks.endpoints.title")} id="webhook-endpoints">
          {endpoints.length === 0 ? (
            <EmptyState title={t("webhooks.endpoints.empty")} body={t("webhooks.endpoints.emptyBody")} />
          ) : (
            <ul className="webhook-endpoints">
              {endpoints.map((e) => (
                <li key={e.id} className="webhook-endpoint">
                  <p className="webhook-endpoint__url">
                    <code>{e.url}</code>
                  </p>
                  {e.description ? <p>{e.description}</p> : null}
                  <p className="field__hint">
                    {e.enabled ? t("webhooks.endpoints.on") : e.disabledReason === "FAILING" ? t("webhooks.endpoints.offFailing") : t("webhooks.endpoints.off")}
                    {" · "}
                    {e.events.join(", ")}
                  </p>
                  <div className="webhook-endpoint__actions">
                    <ButtonLink to={`${PATH}?edit=${e.id}#endpoint-form-title`} variant="secondary">
                      {t("webhooks.endpoints.edit")}
                      <span className="visually-hidden"> {e.url}</span>
                    </ButtonLink>
                    {e.enabled ? (
                      <AppForm action={PATH}>
                        <input type="hidden" name="id" value={e.id} />
                        <Button name="intent" value="test" variant="secondary">
                          {t("webhooks.endpoints.test")}
                          <span className="visually-hidden"> {e.url}</span>
                        </Button>
                      </AppForm>
                    ) : null}
                    <AppForm action={PATH}>
                      <input type="hidden" name="id" value={e.id} />
                      <Button name="intent" value={e.enabled ? "disable" : "enable"} variant="secondary">
                        {e.enabled ? t("webhooks.endpoints.disable") : t("webhooks.endpoints.enable")}
                        <span className="visually-hidden"> {e.url}</span>
                      </Button>
                    </AppForm>
                    <ConfirmAction
                      id={`delete-endpoint-${e.id}`}
                      trigger={t("webhooks.endpoints.delete")}
                      title={t("webhooks.endpoints.deleteTitle")}
                      confirmLabel={t("webhooks.endpoints.deleteConfirm")}
                      fields={{ intent: "delete", id: String(e.id) }}
                      action={PATH}
                    >
                      <p>{t("webhooks.endpoints.deleteBody", { url: e.url })}</p>
                    </ConfirmAction>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title={editing ? t("webhooks.form.editTitle") : t("webhooks.form.addTitle")} id="endpoint-form">
          <EndpointForm key={editing ? `edit-${editing.id}` : "new"} editing={editing} lastResult={actionData?.result} />
        </Panel>

        <Panel title={t("webhooks.secret.title")} id="webhook-secret">
          {secret ? (
            <>
              <dl className="members-dl">
                <dt>{t("webhooks.secret.current")}</dt>
                <dd>
                  <code>{secret.hint}</code>
                </dd>
                <dt>{secret.rolledAt ? t("webhooks.secret.rolledAt") : t("webhooks.secret.createdAt")}</dt>
                <dd>{when(secret.rolledAt ?? secret.createdAt, lang)}</dd>
              </dl>
              {secret.previousUntil ? <p className="field__hint">{t("webhooks.secret.overlap", { until: when(secret.previousUntil, lang) })}</p> : null}
              <p>{t("webhooks.secret.help")}</p>
              <ConfirmAction
                id="roll-secret"
                trigger={t("webhooks.secret.roll")}
                title={t("webhooks.secret.rollTitle")}
                confirmLabel={t("webhooks.secret.rollConfirm")}
                fields={{ intent: "roll" }}
                action={PATH}
              >
                <p>{t("webhooks.secret.rollBody")}</p>
              </ConfirmAction>
            </>
          ) : (
            <p>{t("webhooks.secret.none")}</p>
          )}
        </Panel>

        {delivery ? (
          <Panel title={t("webhooks.payload.title")} id="payload">
            <p>
              <code>{delivery.eventType}</code> · <code>{delivery.eventId}</code>
            </p>
            <pre className="webhook-payload" tabIndex={0} aria-label={t("webhooks.payload.title")}>
              {delivery.payload}
            </pre>
            <p>
              <Link to={pageHref(log.page)}>{t("webhooks.payload.close")}</Link>
            </p>
          </Panel>
        ) : null}

        <Panel title={t("webhooks.log.title")} id="webhook-log">
          {log.entries.length === 0 ? (
            <EmptyState title={t("webhooks.log.empty")} />
          ) : (
            <>
              <div className="table-wrap" role="group" aria-labelledby="webhook-log-title" tabIndex={0}>
                <table>
                  <thead>
                    <tr>
                      <th scope="col">{t("webhooks.log.created")}</th>
                      <th scope="col">{t("webhooks.log.event")}</th>
                      <th scope="col">{t("webhooks.log.endpoint")}</th>
                      <th scope="col">{t("webhooks.log.status")}</th>
                      <th scope="col">{t("webhooks.log.attempt")}</th>
                      <th scope="col">{t("webhooks.log.http")}</th>
                      <th scope="col">{t("webhooks.log.duration")}</th>
                      <th scope="col">{t("webhooks.log.nextRetry")}</th>
                      <th scope="col">{t("webhooks.log.actions")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {log.entries.map((d) => (
                      <tr key={d.id}>
                        <td>{when(d.createdAt, lang)}</td>
                        <td>
                          <code>{d.eventType}</code>
                        </td>
                        <td className="webhook-log__url">{d.endpointUrl}</td>
                        <td>
                          {t(`webhooks.state.${d.status}`)}
                          {d.lastError && d.status !== "SUCCEEDED" ? <span className="field__hint"> · {d.lastError}</span> : null}
                        </td>
                        <td>{d.attempts}</td>
                        <td>{d.lastStatusCode ?? "—"}</td>
                        <td>{d.lastDurationMs === null ? "—" : t("webhooks.log.ms", { count: d.lastDurationMs })}</td>
                        <td>{d.nextAttemptAt ? when(d.nextAttemptAt, lang) : "—"}</td>
                        <td>
                          <Link to={`${PATH}?${log.page > 1 ? `page=${log.page}&` : ""}delivery=${d.id}#payload-title`}>
                            {t("webhooks.log.view")}
                            <span className="visually-hidden"> {d.eventId}</span>
                          </Link>
                          {d.status === "PENDING" || d.status === "FAILED" ? (
                            <AppForm action={PATH} className="inline-form">
                              <input type="hidden" name="deliveryId" value={d.id} />
                              <input type="hidden" name="page" value={log.page} />
                              <Button name="intent" value="retry" variant="link">
                                {t("webhooks.log.retry")}
                                <span className="visually-hidden"> {d.eventId}</span>
                              </Button>
                            </AppForm>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pagination page={log.page} pageCount={log.pageCount} hrefFor={pageHref} />
            </>
          )}
        </Panel>
      </div>
    </>
  );
}
