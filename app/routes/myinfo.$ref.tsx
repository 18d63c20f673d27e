// The member's own form (/myinfo/{uniqueId}, public, no login): the member sees the attributes the
// business shows on the form, edits the ones they may (and mandatory ones), confirms a pending
// invitation ("Join") and can unsubscribe (consent logged, channel WEB, with the opt-out text).
// Plain HTML forms with server-side checks only: it works the same with JavaScript off, and the page
// pulls in no form library. An unknown reference is the invalid-member-reference page (404).
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/myinfo.$ref";
import { AppForm, translateError } from "~/components/form";
import { Banner, Button } from "~/components/ui";
import { formatBirthday, formValue } from "~/domain/members/attributes.server";
import { confirmJoinByRefWithCode, joinByRef, memberEditable, myInfo, unsubscribeByRef, updateMyInfo } from "~/domain/members/community.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage, formText } from "~/lib/forms.server";
import { attributeValuesFrom } from "./mycommunity.shared";

/** Opened from a text, often on a slow phone connection: the page ships no JavaScript (it needs none). */
export const handle = { titleKey: "myinfo.meta.title", descriptionKey: "myinfo.meta.description", scripts: false };

/** The member's own data: never cached by shared caches. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = getDeps(context);
  const info = await myInfo(db, params.ref);
  if (!info) return data({ invalid: true as const }, { status: 404 });
  const { member, attributes, values, business } = info;
  return {
    invalid: false as const,
    business: business.name,
    status: member.status,
    firstName: member.first_name ?? "",
    fullName: member.full_name ?? "",
    birthday: formatBirthday(member.birthday),
    attributes: attributes.map((a) => ({
      id: Number(a.id),
      name: a.name,
      type: a.type,
      mandatory: !!a.mandatory,
      editable: memberEditable(a),
      items: a.items,
      value: formValue(a, values.get(Number(a.id))),
    })),
  };
}

const FIELD_MAX = 5000;

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, now } = getDeps(context);
  const form = await request.formData();
  const intent = formText(form, "intent", "save");
  const str = (k: string) => {
    const v = form.get(k);
    return typeof v === "string" ? v.slice(0, FIELD_MAX) : undefined;
  };
  try {
    if (intent === "join") {
      const result = await joinByRef(db, params.ref, now());
      // A number that objected: the code texted to the phone must be entered first.
      if (result === "CODE_SENT" || result === "CODE_LIMITED") return data({ codeStep: result, error: null, field: null, values: {} as Record<string, string> });
      setToast(context, { type: "success", message: "myinfo.toast.joined" });
    } else if (intent === "joinCode") {
      const result = await confirmJoinByRefWithCode(db, params.ref, str("code") ?? "", now());
      if (result !== "JOINED") {
        return data({ codeStep: "CODE_SENT" as const, error: result === "WRONG" ? "myinfo.code.wrong" : "myinfo.code.expired", field: "code", values: {} as Record<string, string> }, { status: 400 });
      }
      setToast(context, { type: "success", message: "myinfo.toast.joined" });
    } else if (intent === "unsubscribe") {
      await unsubscribeByRef(db, params.ref, now());
      setToast(context, { type: "success", message: "myinfo.toast.unsubscribed" });
    } else {
      await updateMyInfo(db, params.ref, { firstName: str("firstName"), fullName: str("fullName"), birthday: str("birthday"), values: attributeValuesFrom(form) }, now());
      setToast(context, { type: "success", message: "myinfo.toast.saved" });
    }
    return redirect(`/myinfo/${params.ref}`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    const values: Record<string, string> = {};
    for (const [k, v] of form) if (typeof v === "string" && k !== "_csrf") values[k] = v.slice(0, FIELD_MAX);
    return data({ codeStep: null, error: errorMessage(error), field: error.field ?? null, values }, { status: error.status });
  }
}

export default function MyInfo({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  if (loaderData.invalid) {
    return (
      <div className="public__card stack">
        <h1>{t("myinfo.invalid.title")}</h1>
        <p>{t("myinfo.invalid.body")}</p>
      </div>
    );
  }
  const d = loaderData;
  const posted = actionData?.values;
  const val = (name: string, fallback: string) => posted?.[name] ?? fallback;
  const errorFor = (name: string) => (actionData?.field === name && actionData.error ? translateError(t, actionData.error) : null);
  const formError = actionData?.error && !actionData.field ? translateError(t, actionData.error) : null;
  const codeStep = actionData?.codeStep ?? null;
  const input = (name: string, label: string, value: string, opts: { hint?: string; type?: string; required?: boolean } = {}) => {
    const err = errorFor(name);
    return (
      <div className={`field${err ? " field--invalid" : ""}`} key={name}>
        <label htmlFor={`mi-${name}`}>{label}</label>
        {opts.hint ? (
          <p className="field__hint" id={`mi-${name}-hint`}>
            {opts.hint}
          </p>
        ) : null}
        <input
          id={`mi-${name}`}
          name={name}
          type={opts.type ?? "text"}
          defaultValue={val(name, value)}
          maxLength={40}
          aria-invalid={err ? true : undefined}
          aria-describedby={[opts.hint ? `mi-${name}-hint` : "", err ? `mi-${name}-error` : ""].filter(Boolean).join(" ") || undefined}
        />
        {err ? (
          <ul className="field__errors" id={`mi-${name}-error`}>
            <li>{err}</li>
          </ul>
        ) : null}
      </div>
    );
  };
  const optedOut = d.status === "OPTED_OUT";
  return (
    <div className="public__card stack">
      <h1>{t("myinfo.title", { business: d.business })}</h1>
      {d.status === "PENDING" ? (
        <Banner tone="info" title={t("myinfo.pending.title")}>
          <p>{t("myinfo.pending.body", { business: d.business })}</p>
          {codeStep === "CODE_LIMITED" ? <p role="status">{t("myinfo.code.limited")}</p> : null}
          {codeStep === "CODE_SENT" ? (
            <AppForm method="post" className="form">
              <input type="hidden" name="intent" value="joinCode" />
              <p role="status">{t("myinfo.code.sent")}</p>
              {input("code", t("myinfo.code.label"), "", { hint: t("myinfo.code.hint") })}
              <Button>{t("myinfo.pending.join")}</Button>
            </AppForm>
          ) : (
            <AppForm method="post">
              <input type="hidden" name="intent" value="join" />
              <Button>{t("myinfo.pending.join")}</Button>
            </AppForm>
          )}
        </Banner>
      ) : null}
      {optedOut ? <Banner tone="warning">{t("myinfo.optedOut", { business: d.business })}</Banner> : null}
      {formError ? (
        <div className="banner banner--error" role="alert">
          {formError}
        </div>
      ) : null}
      {!optedOut ? (
        <AppForm method="post" className="form">
          <input type="hidden" name="intent" value="save" />
          {input("firstName", t("members.fields.firstName"), d.firstName)}
          {input("fullName", t("members.fields.fullName"), d.fullName)}
          {input("birthday", t("members.fields.birthday"), d.birthday, { hint: t("members.form.birthdayHint") })}
          {d.attributes.map((a) => {
            const name = `attr_${a.id}`;
            const label = a.mandatory ? a.name : `${a.name} ${t("members.form.optional")}`;
            if (!a.editable) {
              return (
                <div className="field" key={name}>
                  <span className="field__label">{a.name}</span>
                  <p>{(a.type === "LIST" ? a.items.find((i) => String(i.id) === a.value)?.label : a.value) || "—"}</p>
                </div>
              );
            }
            if (a.type === "LIST") {
              const err = errorFor(name);
              return (
                <div className={`field${err ? " field--invalid" : ""}`} key={name}>
                  <label htmlFor={`mi-${name}`}>{label}</label>
                  <select id={`mi-${name}`} name={name} defaultValue={val(name, a.value)} aria-invalid={err ? true : undefined}>
                    <option value="">{t("members.form.choose")}</option>
                    {a.items.map((i) => (
                      <option key={i.id} value={i.id}>
                        {i.label}
                      </option>
                    ))}
                  </select>
                  {err ? (
                    <ul className="field__errors">
                      <li>{err}</li>
                    </ul>
                  ) : null}
                </div>
              );
            }
            return input(name, label, a.value, {
              type: a.type === "DATE" ? "date" : a.type === "TIME" ? "time" : "text",
              hint: a.type === "BIRTHDAY" ? t("members.form.birthdayHint") : undefined,
            });
          })}
          <Button>{t("myinfo.save")}</Button>
        </AppForm>
      ) : null}
      {!optedOut ? (
        <section className="stack" aria-labelledby="mi-unsub">
          <h2 id="mi-unsub">{t("myinfo.unsubscribe.title")}</h2>
          <p>{t("myinfo.unsubscribe.body", { business: d.business })}</p>
          <AppForm method="post">
            <input type="hidden" name="intent" value="unsubscribe" />
            <Button variant="secondary">{t("myinfo.unsubscribe.button")}</Button>
          </AppForm>
        </section>
      ) : null}
    </div>
  );
}
