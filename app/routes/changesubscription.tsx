// /changesubscription: change the monthly plan in two steps that work without JavaScript. First the owner picks
// what to do (increase now, increase for this month only, lower from the next renewal) and a plan, and sees the
// price (pro rata for the rest of the period, VAT, total); then one press pays with the card on file (or
// schedules the lower plan). Administrator only.
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Form, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/changesubscription";
import { ChoiceGroup } from "~/components/choices";
import { AppForm, FormErrors } from "~/components/form";
import { Banner, Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { formatBillingDate, formatPounds } from "~/domain/billing/money";
import { changeSubscription, quoteChange, subscriptionView, type Quote } from "~/domain/billing/subscription.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { PlanChoices, planField } from "./subscription.shared";

export const handle = { titleKey: "billing.meta.changeTitle", descriptionKey: "billing.meta.changeDescription", permission: "subscription:change" } as const;

const KINDS = ["increase", "month", "lower"] as const;
const confirmSchema = z.object({ kind: z.enum(KINDS, { error: "billing.errors.kind" }), plan: planField });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const at = now();
  const view = await subscriptionView(db, user.businessId, config.billing, at);
  if (view.status === "TRIAL") throw redirect("/subscription");
  const url = new URL(request.url);
  const kind = url.searchParams.get("kind");
  const plan = url.searchParams.get("plan");
  let quote: Quote | null = null;
  let error: string | null = null;
  if (kind || plan) {
    const parsed = confirmSchema.safeParse({ kind, plan });
    if (!parsed.success) error = parsed.error.issues[0]?.message ?? "billing.errors.plan";
    else {
      try {
        quote = await quoteChange(db, user.businessId, config.billing, parsed.data.kind, parsed.data.plan, at);
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        error = errorMessage(e);
      }
    }
  }
  return { view, plans: config.billing.plans, quote, error, kind: KINDS.includes(kind as never) ? kind : null, plan };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, config, payments, now } = getDeps(context);
  const form = await request.clone().formData();
  const submission = parseWithZod(form, { schema: confirmSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  try {
    const outcome = await changeSubscription(
      db,
      payments,
      config.billing,
      { businessId: user.businessId, businessName: user.companyName, kind: submission.value.kind, planId: submission.value.plan, returnUrl: "/subscription/confirm/{id}" },
      now(),
    );
    if (outcome.status === "requires_action") return redirect(outcome.actionUrl);
    setToast(context, { type: "success", message: outcome.status === "scheduled" ? "billing.toast.lowered" : submission.value.kind === "month" ? "billing.toast.monthIncreased" : "billing.toast.increased" });
    return redirect("/subscription");
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ result: submission.reply({ formErrors: [errorMessage(error)] }) }, { status: error.status });
  }
}

export default function ChangeSubscription({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { view, plans, quote, error, kind, plan } = loaderData;
  const actionData = useActionData<typeof action>();
  const lng = i18n.language;
  const money = (p: number) => formatPounds(p, lng);
  const planName = (allowance: number) => t("billing.plan.name", { count: allowance, allowance: allowance.toLocaleString(lng) });
  const current = view.plan;
  const choices = plans.filter((p) => p.id !== current?.id);

  return (
    <>
      <PageHeader title={t("billing.change.title")} lead={current ? t("billing.change.lead", { plan: planName(current.allowance), used: view.used.toLocaleString(lng) }) : undefined} />
      {view.status === "PAYMENT_FAILED" ? (
        <Banner tone="error" title={t("errors.BR033")}>
          <p>
            <Link to="/subscription">{t("billing.change.payFirst")}</Link>
          </p>
        </Banner>
      ) : null}
      <FormErrors errors={[...(error ? [error] : []), ...(actionData?.result.error?.[""] ?? [])]} />

      {quote ? (
        <Panel title={t(`billing.change.kind.${quote.kind}`)} id="quote">
          {quote.kind === "lower" ? (
            <p>{t("billing.change.lowerQuote", { plan: planName(quote.plan.allowance), date: formatBillingDate(quote.effectiveAt!, lng), price: money(quote.plan.pricePence) })}</p>
          ) : (
            <>
              <p>
                {quote.kind === "month"
                  ? t("billing.change.monthQuote", { credits: quote.credits.toLocaleString(lng), plan: planName(quote.plan.allowance) })
                  : t("billing.change.increaseQuote", { plan: planName(quote.plan.allowance), credits: quote.credits.toLocaleString(lng) })}
              </p>
              <dl className="billing-facts">
                <div>
                  <dt>{t("billing.change.net")}</dt>
                  <dd>{money(quote.netPence)}</dd>
                </div>
                {quote.companyDiscountPence ? (
                  <div>
                    <dt>{t("billing.change.discount")}</dt>
                    <dd>−{money(quote.companyDiscountPence)}</dd>
                  </div>
                ) : null}
                {quote.referralDiscountPence ? (
                  <div>
                    <dt>{t("billing.change.referral")}</dt>
                    <dd>−{money(quote.referralDiscountPence)}</dd>
                  </div>
                ) : null}
                <div>
                  <dt>{t("billing.change.vat")}</dt>
                  <dd>{money(quote.vatPence)}</dd>
                </div>
                <div>
                  <dt>{t("billing.change.total")}</dt>
                  <dd>
                    <strong>{money(quote.totalPence)}</strong>
                  </dd>
                </div>
              </dl>
              <p className="field__hint">{t("billing.change.proRata", { date: formatBillingDate(view.nextPaymentDate!, lng) })}</p>
            </>
          )}
          <AppForm className="form form--inline">
            <input type="hidden" name="kind" value={quote.kind} />
            <input type="hidden" name="plan" value={quote.plan.id} />
            <Button>
              {quote.kind === "lower" ? t("billing.change.confirmLower") : t("billing.change.confirmPay", { total: money(quote.totalPence), card: view.cardLabel ?? "" })}
            </Button>
            <ButtonLink to="/changesubscription" variant="secondary">
              {t("billing.change.back")}
            </ButtonLink>
          </AppForm>
        </Panel>
      ) : (
        <Panel title={t("billing.change.choose")} id="choose">
          <Form method="get" className="form">
            <ChoiceGroup
              name="kind"
              legend={t("billing.change.what")}
              defaultValue={kind ?? "increase"}
              options={KINDS.map((k) => ({
                value: k,
                label: t(`billing.change.kind.${k}`),
                hint: k === "month" && view.monthIncreaseUsed ? t("errors.PY008") : t(`billing.change.kindHint.${k}`),
              }))}
            />
            <PlanChoices
              plans={choices}
              field={{ id: "plan", name: "plan", errorId: "plan-error", descriptionId: "plan-hint" }}
              legend={t("billing.change.plan")}
              defaultValue={plan ?? choices.find((p) => p.allowance > (current?.allowance ?? 0))?.id}
            />
            <Button>{t("billing.change.seePrice")}</Button>
          </Form>
        </Panel>
      )}
    </>
  );
}
