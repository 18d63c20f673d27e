// The SMS simulator (public, no login): every virtual phone with its texts as chat bubbles, a form to
// text a business number from a virtual phone, and the switch that makes number requests fail so
// onboarding failure can be tried. Clearly labelled: no real texts are sent. 404 unless SMS_PROVIDER=simulator.
import { getFormProps, getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData, useLocation, useNavigation, useRevalidator } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/simulator";
import { AppForm, Field, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Button, EmptyState, Pagination, Panel } from "~/components/ui";
import { formatLongDate } from "~/lib/uk-time";
import { SIM_BODY_MAX } from "~/domain/simulator/limits";
import {
  listPhones,
  listSimNumbers,
  parseE164,
  receiveInbound,
  refusesNumberRequests,
  requireSimulator,
  setRefuseNumberRequests,
} from "~/domain/simulator/simulator.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { replyWithError } from "~/lib/forms.server";
import { formatUkNumber, parseUkMobile } from "~/lib/phone";

export const handle = { titleKey: "simulator.meta.title", descriptionKey: "simulator.meta.description" };

/** How often the page refreshes itself with JavaScript. */
const REFRESH_MS = 4000;
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

const sendSchema = z.object({
  intent: z.literal("send"),
  from: z
    .string({ error: "validation.required" })
    .trim()
    .min(1, "validation.required")
    .max(25, "simulator.errors.from")
    .regex(/^[0-9+()\-\s]+$/, "simulator.errors.from"),
  to: z.string({ error: "simulator.errors.to" }).trim().min(1, "simulator.errors.to").max(20, "simulator.errors.to"),
  body: z
    .string({ error: "validation.required" })
    .min(1, "validation.required")
    .max(SIM_BODY_MAX, "simulator.errors.bodyTooLong")
    .refine((v) => v.trim().length > 0, "validation.required")
    .refine((v) => !CONTROL.test(v), "validation.controlChars"),
});

const toggleSchema = z.object({ intent: z.literal("refuse"), refuse: z.enum(["on", "off"]) });

/** A UK mobile typed as 07…, or any valid E.164 number. */
function normalisePhone(input: string): string | null {
  const compact = input.replace(/[\s()-]/g, "");
  return compact.startsWith("+") ? (parseE164(compact) ?? parseUkMobile(input)) : parseUkMobile(input);
}

/** How the form shows a phone it keeps: 07911 578481 for a UK number, the E.164 form otherwise. */
function phoneLabel(e164: string): string {
  return e164.startsWith("+44") ? formatUkNumber(e164) : e164;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  requireSimulator(config);
  const url = new URL(request.url);
  const page = Number(url.searchParams.get("page") ?? "1");
  const [phones, numbers, refuse] = await Promise.all([listPhones(db, Number.isFinite(page) ? page : 1), listSimNumbers(db), refusesNumberRequests(db)]);
  const names = new Map(numbers.map((n) => [n.number, n.businessName]));
  const label = (n: string) => formatUkNumber(n);
  // A business number is shown with its business's name where it has one.
  const businessLabel = (n: string) => (names.get(n) ? `${names.get(n)} (${label(n)})` : label(n));
  // After a send the page comes back with the phone and business in the address, so the next text
  // goes from the same phone to the same business, with or without JavaScript.
  const from = normalisePhone((url.searchParams.get("from") ?? "").slice(0, 25));
  const to = url.searchParams.get("to") ?? "";
  return {
    ...phones,
    phones: phones.phones.map((p) => ({ ...p, label: label(p.phone), texts: p.texts.map((x) => ({ ...x, businessLabel: businessLabel(x.businessNumber) })) })),
    numbers: numbers.map((n) => ({ value: n.number, label: businessLabel(n.number) })),
    refuse,
    defaults: { from: from ? phoneLabel(from) : "", to: names.has(to) ? to : (numbers[0]?.number ?? "") },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  requireSimulator(config);
  const form = await request.formData();
  if (form.get("intent") === "refuse") {
    const parsed = toggleSchema.safeParse(Object.fromEntries(form));
    if (!parsed.success) throw data({ code: "BR025" }, { status: 400 });
    await setRefuseNumberRequests(db, parsed.data.refuse === "on");
    setToast(context, { type: "success", message: parsed.data.refuse === "on" ? "simulator.refuse.onToast" : "simulator.refuse.offToast" });
    return redirect("/simulator");
  }
  const submission = parseWithZod(form, { schema: sendSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const from = normalisePhone(submission.value.from);
  try {
    if (!from) throw new AppError("BR025", undefined, { field: "from" });
    await receiveInbound(db, { from, to: submission.value.to, body: submission.value.body }, now());
  } catch (error) {
    return replyWithError(submission, error);
  }
  setToast(context, { type: "success", message: "simulator.send.sentToast" });
  return redirect(`/simulator?${new URLSearchParams({ from: from ?? "", to: submission.value.to }).toString()}#sim-send`);
}

type SendDefaults = { from: string; to: string };

function SendForm({ numbers, defaults }: { numbers: { value: string; label: string }[]; defaults: SendDefaults }) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  // The form starts from the address's phone and business (kept there after a send) with an empty
  // message; it is mounted afresh after each send (see the key below), so the emptied message is not
  // validated as if the person had cleared it.
  const [form, fields] = useValidatedForm(sendSchema, actionData?.result, { id: "sim-send", defaultValue: { from: defaults.from, to: defaults.to } });
  if (numbers.length === 0) return <EmptyState title={t("simulator.send.noNumbers")} body={t("simulator.send.noNumbersBody")} />;
  return (
    <>
      <FormErrors errors={form.errors} id={form.errorId} />
      <AppForm {...getFormProps(form)} className="form">
        <input type="hidden" name="intent" value="send" />
        <Field
          field={fields.from}
          label={t("simulator.send.from")}
          hint={t("simulator.send.fromHint")}
          input={{ ...getInputProps(fields.from, { type: "tel" }), maxLength: 25, autoComplete: "off", placeholder: "07911 123456" }}
        />
        <Field field={fields.to} label={t("simulator.send.to")}>
          <select {...getSelectProps(fields.to)} key={fields.to.key} defaultValue={fields.to.initialValue ?? defaults.to}>
            {numbers.map((n) => (
              <option key={n.value} value={n.value}>
                {n.label}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.body} label={t("simulator.send.body")} hint={t("simulator.send.bodyHint", { max: SIM_BODY_MAX })}>
          <textarea {...getTextareaProps(fields.body)} key={fields.body.key} rows={3} maxLength={SIM_BODY_MAX} />
        </Field>
        <Button>{t("simulator.send.submit")}</Button>
      </AppForm>
    </>
  );
}

/** Refreshes the page's data while visible and online (JavaScript only). */
function useAutoRefresh() {
  const revalidator = useRevalidator();
  const navigation = useNavigation();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine !== false && revalidator.state === "idle" && navigation.state === "idle") {
        void revalidator.revalidate();
      }
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [revalidator, navigation.state]);
}

export default function Simulator({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  useAutoRefresh();
  const { phones, page, pageCount, numbers, refuse, total, defaults } = loaderData;
  // A new navigation (the redirect after a send) mounts a fresh form; the page refreshing itself does not.
  const { key } = useLocation();
  return (
    <>
      <header className="sim-ribbon">
        <p>{t("simulator.ribbon")}</p>
      </header>
      <main id="main" className="page stack simulator">
        <header className="page-header">
          <div>
            <h1>{t("simulator.title")}</h1>
            <p className="lead">{t("simulator.lead")}</p>
          </div>
        </header>
        <div className="grid grid--2">
          <Panel id="sim-send" title={t("simulator.send.title")}>
            <SendForm key={key} numbers={numbers} defaults={defaults} />
          </Panel>
          <Panel id="sim-refuse" title={t("simulator.refuse.title")}>
            <p>{t("simulator.refuse.body")}</p>
            <p data-refuse={refuse ? "on" : "off"}>
              <strong>{refuse ? t("simulator.refuse.stateOn") : t("simulator.refuse.stateOff")}</strong>
            </p>
            <AppForm>
              <input type="hidden" name="intent" value="refuse" />
              <input type="hidden" name="refuse" value={refuse ? "off" : "on"} />
              <Button variant={refuse ? "primary" : "secondary"}>{refuse ? t("simulator.refuse.turnOff") : t("simulator.refuse.turnOn")}</Button>
            </AppForm>
          </Panel>
        </div>
        <section aria-labelledby="phones-title" className="stack">
          <h2 id="phones-title">{t("simulator.phones.title", { count: total })}</h2>
          {phones.length === 0 ? (
            <EmptyState title={t("simulator.phones.empty")} body={t("simulator.phones.emptyBody")} />
          ) : (
            <ul className="phones list-reset">
              {phones.map((p) => (
                <li key={p.phone} className="phone" aria-label={t("simulator.phones.phoneLabel", { number: p.label })}>
                  <h3 className="phone__number">{p.label}</h3>
                  {/* The texts scroll inside the phone: focusable so a keyboard can scroll them too. */}
                  <ol className="phone__screen list-reset" tabIndex={0} aria-label={t("simulator.phones.textsLabel", { number: p.label })}>
                    {p.texts.map((m) => (
                      <li key={m.id} className={`bubble ${m.direction === "TO_PHONE" ? "bubble--in" : "bubble--out"}`}>
                        <span className="visually-hidden">
                          {m.direction === "TO_PHONE"
                            ? t("simulator.phones.received", { number: m.businessLabel })
                            : t("simulator.phones.sent", { number: m.businessLabel })}
                        </span>
                        {m.body}
                        <time dateTime={m.at}>
                          {m.direction === "TO_PHONE" ? t("simulator.phones.fromShort", { number: m.businessLabel }) : t("simulator.phones.toShort", { number: m.businessLabel })}{" "}
                          · {formatLongDate(m.at, i18n.language)}
                        </time>
                      </li>
                    ))}
                  </ol>
                </li>
              ))}
            </ul>
          )}
          <Pagination page={page} pageCount={pageCount} hrefFor={(n) => `/simulator?page=${n}`} />
        </section>
      </main>
    </>
  );
}
