// My account: the business's name, dedicated number and join keyword, links to the settings pages
// that exist, and the default opt-in and opt-out texts (empty = the built-in defaults the pipeline uses),
// with the segment count of each (segments.ts), live as you type and on the server render.
// The texts are business settings: everyone signed in reads them, only the Administrator saves
// them (the handle's actionPermission; a team member's post is refused with FB001).
import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/myaccount";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, PageHeader, Panel } from "~/components/ui";
import { useHasScreen } from "~/components/app-shell";
import { businessTexts, updateOptTexts } from "~/domain/members/community.server";
import { analyse } from "~/domain/messaging/segments";
import { can } from "~/domain/accounts/permissions";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { replyWithError } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "myaccount.meta.title", descriptionKey: "myaccount.meta.description", actionPermission: "settings:manage" } as const;

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const text = z
  .string()
  .max(5000, "validation.tooLongLong")
  .refine((v) => !CONTROL.test(v), "validation.controlChars")
  .optional();
const schema = z.object({ optIn: text, optOut: text });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const t = await businessTexts(db, user.businessId);
  return {
    name: t.business.name,
    number: t.business.phone_number ? formatUkNumber(t.business.phone_number) : null,
    keyword: t.business.join_keyword,
    optIn: t.business.opt_in_message ?? "",
    optOut: t.business.opt_out_message ?? "",
    defaults: t.defaults,
    canEdit: can(user, "settings:manage"),
    canManageTeam: can(user, "team:manage"),
    canManageApiKeys: can(user, "apikeys:manage"),
    canManageIntegrations: can(user, "integrations:manage"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const submission = parseWithZod(await request.clone().formData(), { schema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    await updateOptTexts(db, user.businessId, { optIn: submission.value.optIn ?? "", optOut: submission.value.optOut ?? "" });
    setToast(context, { type: "success", message: "myaccount.toast.saved" });
    return redirect("/myaccount");
  } catch (error) {
    return replyWithError(submission, error);
  }
}

function Counter({ text, fallback, id }: { text: string; fallback: string; id: string }) {
  const { t } = useTranslation();
  const a = analyse(text.trim() ? text : fallback);
  return (
    <p className="field__hint" id={id} aria-live="polite">
      {t("myaccount.texts.counter", { characters: a.characters, count: a.segments })}
      {a.encoding === "UCS-2" ? ` ${t("myaccount.texts.ucs2")}` : ""}
    </p>
  );
}

function TextField({ field, label, initial, fallback }: { field: { id: string; name: string; errorId: string; descriptionId: string; errors?: string[]; initialValue?: unknown }; label: string; initial: string; fallback: string }) {
  const { t } = useTranslation();
  const start = typeof field.initialValue === "string" ? field.initialValue : initial;
  const [value, setValue] = useState(start);
  const counterId = `${field.id}-count`;
  return (
    <Field field={field} label={label} hint={t("myaccount.texts.defaultHint", { text: fallback })}>
      <textarea
        id={field.id}
        name={field.name}
        rows={4}
        maxLength={5000}
        defaultValue={start}
        placeholder={fallback}
        onChange={(e) => setValue(e.currentTarget.value)}
        aria-invalid={field.errors?.length ? true : undefined}
        aria-describedby={`${field.descriptionId} ${counterId}${field.errors?.length ? ` ${field.errorId}` : ""}`}
      />
      <Counter text={value} fallback={fallback} id={counterId} />
    </Field>
  );
}

export default function MyAccount({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const d = loaderData;
  const actionData = useActionData<typeof action>();
  const [form, fields] = useValidatedForm(schema, actionData?.result, { defaultValue: { optIn: d.optIn, optOut: d.optOut } });
  const hasScreen = useHasScreen();
  return (
    <>
      <PageHeader title={t("myaccount.title")} lead={d.name} />
      <div className="stack">
        <Panel title={t("myaccount.business.title")} id="acct-business">
          <dl className="members-dl">
            <dt>{t("myaccount.business.name")}</dt>
            <dd>{d.name}</dd>
            <dt>{t("myaccount.business.number")}</dt>
            <dd>{d.number ?? t("myaccount.business.noNumber")}</dd>
            <dt>{t("myaccount.business.keyword")}</dt>
            <dd>{d.keyword}</dd>
          </dl>
        </Panel>
        <Panel title={t("myaccount.links.title")} id="acct-links">
          <ul className="acct-links">
            <li>
              <Link to="/mycommunity">{t("myaccount.links.community")}</Link>
            </li>
            <li>
              <Link to="/memberattributes">{t("myaccount.links.attributes")}</Link>
            </li>
            <li>
              <Link to="/invitemember">{t("myaccount.links.invite")}</Link>
            </li>
            <li>
              <Link to="/groups">{t("myaccount.links.groups")}</Link>
            </li>
            <li>
              <Link to="/joinus">{t("myaccount.links.joinus")}</Link>
            </li>
            {d.canManageTeam ? (
              <li>
                <Link to="/manageteam">{t("myaccount.links.team")}</Link>
              </li>
            ) : null}
            {d.canManageIntegrations && hasScreen("/manageintegrations") ? (
              <li>
                <Link to="/manageintegrations">{t("shop.accountLink")}</Link>
              </li>
            ) : null}
            {d.canManageApiKeys ? (
              <li>
                <Link to="/manageintegrations/apikeys">{t("apikeys.title")}</Link>
              </li>
            ) : null}
          </ul>
        </Panel>
        <Panel title={t("myaccount.texts.title")} id="acct-texts">
          <p>{t("myaccount.texts.lead")}</p>
          {/* The merge tag is shown as the owner would type it. */}
          <p className="field__hint">{t("myaccount.texts.rules", { businessName: "{{businessName}}" })}</p>
          {d.canEdit ? (
            <>
              <FormErrors errors={form.errors} id={form.errorId} />
              <AppForm {...getFormProps(form)} className="form">
                <TextField field={fields.optIn} label={t("myaccount.texts.optIn")} initial={d.optIn} fallback={d.defaults.optIn} />
                <TextField field={fields.optOut} label={t("myaccount.texts.optOut")} initial={d.optOut} fallback={d.defaults.optOut} />
                <Button>{t("myaccount.texts.save")}</Button>
              </AppForm>
            </>
          ) : (
            <>
              <dl className="members-dl">
                <dt>{t("myaccount.texts.optIn")}</dt>
                <dd>{d.optIn || d.defaults.optIn}</dd>
                <dt>{t("myaccount.texts.optOut")}</dt>
                <dd>{d.optOut || d.defaults.optOut}</dd>
              </dl>
              <p className="field__hint">{t("myaccount.texts.adminOnly")}</p>
            </>
          )}
        </Panel>
      </div>
    </>
  );
}
