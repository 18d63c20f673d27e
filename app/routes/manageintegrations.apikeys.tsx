// /manageintegrations/apikeys: the business's API keys for the public API (Administrator only). Make a key (a
// name, enabled, member and messaging permissions, at least one of them), see its secret once with a copy button
// (the button comes with JavaScript; without it the secret sits selected in a read-only box), then the list: name,
// last four characters, created, last used, permissions and state, with disable/enable, roll (the old secret keeps
// working for a chosen grace period) and delete (after a confirmation).
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Fragment, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/manageintegrations.apikeys";
import { useHasScreen } from "~/components/app-shell";
import { ChoiceGroup, Badge } from "~/components/choices";
import { ConfirmAction } from "~/components/confirm";
import { AppForm, Field, FormErrors, translateError } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, EmptyState, PageHeader, Panel } from "~/components/ui";
import { createApiKey, deleteApiKey, listApiKeys, rollApiKey, ROLL_GRACE_SECONDS, setApiKeyEnabled } from "~/domain/apikeys/keys.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage, formText } from "~/lib/forms.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "apikeys.meta.title", descriptionKey: "apikeys.meta.description", permission: "apikeys:manage" } as const;

const PERMISSION = z.enum(["NONE", "READ", "WRITE"], { error: "apikeys.errors.permission" });
const createSchema = z
  .object({
    intent: z.literal("create"),
    name: z
      .string({ error: "validation.required" })
      .trim()
      .min(1, "validation.required")
      .max(40, "validation.tooLongShort")
      .refine((v) => !/[\u0000-\u001F\u007F]/.test(v), "validation.controlChars"),
    enabled: z.literal("on").optional(),
    memberPermission: PERMISSION,
    messagingPermission: PERMISSION,
  })
  .refine((v) => v.memberPermission !== "NONE" || v.messagingPermission !== "NONE", { path: ["memberPermission"], message: "errors.BR025_apiKeyPermission" });

const keyIdOf = (form: FormData): number => {
  const raw = formText(form, "keyId");
  return /^[1-9][0-9]{0,14}$/.test(raw) ? Number(raw) : 0;
};

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  return { keys: await listApiKeys(db, user.businessId, now()), graces: [...ROLL_GRACE_SECONDS] };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const form = await request.clone().formData();
  const intent = formText(form, "intent");
  if (intent === "create") {
    const submission = parseWithZod(form, { schema: createSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply(), secret: null }, { status: 400 });
    try {
      const v = submission.value;
      const { key } = await createApiKey(db, user.businessId, { name: v.name, enabled: v.enabled === "on", memberPermission: v.memberPermission, messagingPermission: v.messagingPermission }, user.userId, now());
      // The secret is in this answer only: it is never stored and never shown again.
      return data({ intent, result: submission.reply({ resetForm: true }), secret: { name: v.name, key, rolled: false } }, { headers: { "Cache-Control": "no-store" } });
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      const message = errorMessage(e);
      const result = e.field ? submission.reply({ fieldErrors: { [e.field]: [message] } }) : submission.reply({ formErrors: [message] });
      return data({ intent, result, secret: null }, { status: e.status });
    }
  }
  const keyId = keyIdOf(form);
  try {
    if (intent === "roll") {
      const grace = Number(formText(form, "grace", "-1"));
      const { name, key } = await rollApiKey(db, user.businessId, keyId, grace, now());
      return data({ intent, result: null, secret: { name, key, rolled: true } }, { headers: { "Cache-Control": "no-store" } });
    }
    if (intent === "disable" || intent === "enable") {
      await setApiKeyEnabled(db, user.businessId, keyId, intent === "enable", now());
      setToast(context, { type: "success", message: intent === "enable" ? "apikeys.toast.enabled" : "apikeys.toast.disabled" });
      return redirect("/manageintegrations/apikeys");
    }
    if (intent === "delete") {
      await deleteApiKey(db, user.businessId, keyId);
      setToast(context, { type: "success", message: "apikeys.toast.deleted" });
      return redirect("/manageintegrations/apikeys");
    }
  } catch (e) {
    if (e instanceof AppError && e.status === 404) throw new Response("Not found", { status: 404 });
    if (e instanceof AppError) return data({ intent, result: null, secret: null, error: errorMessage(e) }, { status: e.status });
    throw e;
  }
  return data({ intent, result: null, secret: null, error: "errors.BR025" }, { status: 400 });
}

/** The new secret, once: a read-only box (selected on focus) and, with JavaScript, a copy button. */
function SecretOnce({ name, secret, rolled }: { name: string; secret: string; rolled: boolean }) {
  const { t } = useTranslation();
  const [enhanced, setEnhanced] = useState(false);
  const [copied, setCopied] = useState(false);
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    setEnhanced(true);
    box.current?.focus();
  }, []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      box.current?.select();
      document.execCommand("copy");
    }
    setCopied(true);
  };
  return (
    <Banner tone="success" title={t(rolled ? "apikeys.secret.rolledTitle" : "apikeys.secret.title", { name })}>
      <p>{t("apikeys.secret.once")}</p>
      <div className="field">
        <label htmlFor="apikey-secret">{t("apikeys.secret.label")}</label>
        <input ref={box} id="apikey-secret" className="apikey-secret" readOnly value={secret} spellCheck={false} autoComplete="off" onFocus={(e) => e.currentTarget.select()} />
      </div>
      {enhanced ? (
        <button type="button" className="btn btn--secondary" onClick={() => void copy()}>
          {t("apikeys.secret.copy")}
        </button>
      ) : (
        <p className="field__hint">{t("apikeys.secret.selectHint")}</p>
      )}
      <p className="field__hint" aria-live="polite">
        {copied ? t("apikeys.secret.copied") : ""}
      </p>
    </Banner>
  );
}

export default function ApiKeys({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const hasScreen = useHasScreen();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(createSchema, actionData?.intent === "create" ? actionData.result : undefined, {
    id: "apikey-create",
    defaultValue: { intent: "create", enabled: "on", memberPermission: "NONE", messagingPermission: "NONE" },
  });
  const { keys, graces } = loaderData;
  const when = (iso: string | null) => (iso ? formatLongDate(iso, i18n.language) : t("apikeys.list.never"));
  const permissionOptions = (area: "member" | "messaging") =>
    (["NONE", "READ", "WRITE"] as const).map((v) => ({ value: v, label: t(`apikeys.permission.${v}`), hint: t(`apikeys.permission.${area}.${v}`) }));
  const error = actionData && "error" in actionData && actionData.error ? translateError(t, actionData.error) : null;

  return (
    <>
      <PageHeader title={t("apikeys.title")} lead={t("apikeys.lead")} />
      <div className="stack">
        {hasScreen("/manageintegrations") ? (
          <p>
            <Link to="/manageintegrations">{t("apikeys.back")}</Link>
          </p>
        ) : null}
        {actionData?.secret ? <SecretOnce name={actionData.secret.name} secret={actionData.secret.key} rolled={actionData.secret.rolled} /> : null}
        {error ? (
          <div className="banner banner--error" role="alert">
            {error}
          </div>
        ) : null}

        <Panel title={t("apikeys.list.title")} id="apikeys-list">
          {keys.length === 0 ? (
            <EmptyState title={t("apikeys.list.empty")} />
          ) : (
            <ul className="list-reset apikeys">
              {keys.map((k) => (
                <li key={k.id} className="apikeys__item" aria-labelledby={`apikey-${k.id}-name`}>
                  <h3 className="apikeys__name" id={`apikey-${k.id}-name`}>
                    {k.name} <Badge tone={k.enabled ? "green" : "neutral"}>{k.enabled ? t("apikeys.state.enabled") : t("apikeys.state.disabled")}</Badge>
                  </h3>
                  <dl className="members-dl">
                    <dt>{t("apikeys.list.key")}</dt>
                    <dd>
                      <code>{`tc_live_…${k.lastFour}`}</code>
                    </dd>
                    {k.previous.map((p) => (
                      <Fragment key={p.lastFour}>
                        <dt>{t("apikeys.list.previous")}</dt>
                        <dd>{t("apikeys.list.previousUntil", { lastFour: p.lastFour, until: when(p.expiresAt) })}</dd>
                      </Fragment>
                    ))}
                    <dt>{t("apikeys.list.members")}</dt>
                    <dd>{t(`apikeys.permission.${k.memberPermission}`)}</dd>
                    <dt>{t("apikeys.list.messaging")}</dt>
                    <dd>{t(`apikeys.permission.${k.messagingPermission}`)}</dd>
                    <dt>{t("apikeys.list.created")}</dt>
                    <dd>{when(k.createdAt)}</dd>
                    <dt>{t("apikeys.list.lastUsed")}</dt>
                    <dd>{when(k.lastUsedAt)}</dd>
                  </dl>
                  <div className="apikeys__actions">
                    <AppForm className="inline-form">
                      <input type="hidden" name="intent" value={k.enabled ? "disable" : "enable"} />
                      <input type="hidden" name="keyId" value={k.id} />
                      <Button variant="secondary" className="btn--small">
                        {k.enabled ? t("apikeys.actions.disable", { name: k.name }) : t("apikeys.actions.enable", { name: k.name })}
                      </Button>
                    </AppForm>
                    <AppForm className="form--inline apikeys__roll">
                      <input type="hidden" name="intent" value="roll" />
                      <input type="hidden" name="keyId" value={k.id} />
                      <div className="field">
                        <label htmlFor={`grace-${k.id}`}>{t("apikeys.roll.grace")}</label>
                        <select id={`grace-${k.id}`} name="grace" defaultValue="86400">
                          {graces.map((g) => (
                            <option key={g} value={g}>
                              {t(`apikeys.roll.graces.${g}`)}
                            </option>
                          ))}
                        </select>
                      </div>
                      <Button variant="secondary" className="btn--small">
                        {t("apikeys.actions.roll", { name: k.name })}
                      </Button>
                    </AppForm>
                    <ConfirmAction
                      id={`delete-apikey-${k.id}`}
                      trigger={t("apikeys.actions.delete", { name: k.name })}
                      title={t("apikeys.delete.title", { name: k.name })}
                      confirmLabel={t("apikeys.delete.confirm")}
                      fields={{ intent: "delete", keyId: String(k.id) }}
                    >
                      <p>{t("apikeys.delete.body")}</p>
                    </ConfirmAction>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>

        <Panel title={t("apikeys.create.title")} id="apikeys-create">
          <FormErrors errors={form.errors} id={form.errorId} />
          <AppForm {...getFormProps(form)} className="form">
            <input type="hidden" name="intent" value="create" />
            <Field field={fields.name} label={t("apikeys.create.name")} hint={t("apikeys.create.nameHint")} input={{ maxLength: 40, autoComplete: "off" }} />
            <label className="checkbox">
              <input type="checkbox" name="enabled" defaultChecked={fields.enabled.initialValue === "on"} /> {t("apikeys.create.enabled")}
            </label>
            <ChoiceGroup
              name="memberPermission"
              legend={t("apikeys.create.members")}
              options={permissionOptions("member")}
              defaultValue={(fields.memberPermission.initialValue as string | undefined) ?? "NONE"}
              errors={fields.memberPermission.errors?.map((e) => translateError(t, e))}
              errorId={fields.memberPermission.errorId}
            />
            <ChoiceGroup
              name="messagingPermission"
              legend={t("apikeys.create.messaging")}
              options={permissionOptions("messaging")}
              defaultValue={(fields.messagingPermission.initialValue as string | undefined) ?? "NONE"}
              errors={fields.messagingPermission.errors?.map((e) => translateError(t, e))}
              errorId={fields.messagingPermission.errorId}
            />
            <Button>{t("apikeys.create.submit")}</Button>
          </AppForm>
        </Panel>

        <Panel title={t("apikeys.docs.title")} id="apikeys-docs">
          <p>{t("apikeys.docs.body")}</p>
          <ul className="acct-links">
            <li>
              <Link to="/manageintegrations/apikeys/reference">{t("apikeys.docs.reference")}</Link>
            </li>
            <li>
              <a href="/api/v1/openapi.json">{t("apikeys.docs.openapi")}</a>
            </li>
          </ul>
        </Panel>
      </div>
    </>
  );
}
