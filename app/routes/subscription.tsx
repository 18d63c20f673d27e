// /subscription: the account's plan. On a trial: credits and days left, and a form to choose a monthly plan and
// pay with a card. On a monthly plan: the allowance used this month, the next payment date, a discount, the card
// on file and a lower plan waiting for the renewal; after a failed renewal, paying now lifts the account. Anyone
// in the team can look; only the Administrator may change anything (the handle's actionPermission).
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import { z } from "zod";
import type { Route } from "./+types/subscription";
import { AppForm, FormErrors } from "~/components/form";
import { useValidatedForm } from "~/components/use-validated-form";
import { Banner, Button, ButtonLink, Meter, PageHeader, Panel } from "~/components/ui";
import { can } from "~/domain/accounts/permissions";
import { amounts, formatBillingDate, formatPounds } from "~/domain/billing/money";
import { referralDiscountFor } from "~/domain/billing/referrals.server";
import { changeSubscription, keepCurrentPlan, payNow, subscriptionView, type PaymentOutcome } from "~/domain/billing/subscription.server";
import { planView, TRIAL_METER_SCALE } from "~/domain/billing/plan";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { CardFields, cardFields, PlanChoices, planField } from "./subscription.shared";

export const handle = { titleKey: "billing.meta.subscriptionTitle", descriptionKey: "billing.meta.subscriptionDescription", actionPermission: "subscription:change" } as const;

const activateSchema = z.object({ intent: z.literal("activate"), plan: planField, ...cardFields });
const payNewSchema = z.object({ intent: z.literal("paynew"), ...cardFields });
// With a processor that has its own card page (Stripe), no card field is on our form.
const activateHostedSchema = z.object({ intent: z.literal("activate"), plan: planField });
const payNewHostedSchema = z.object({ intent: z.literal("paynew") });
const simpleSchema = z.object({ intent: z.enum(["paysaved", "keep"]) });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config, now } = getDeps(context);
  const at = now();
  const view = await subscriptionView(db, user.businessId, config.billing, at);
  const meter = planView(
    {
      status: view.status === "PAYMENT_FAILED" ? "PAYMENT_FAILED" : "OK",
      messageAllowance: view.allowance,
      allowanceUsed: view.used,
      trialCredits: view.trial.creditsRemaining,
      trialEndsAt: view.trial.endsAt,
    },
    at,
  );
  const vat = config.billing.vatRatePercent;
  const referral = await referralDiscountFor(db, user.businessId, view.status === "TRIAL" ? "ACTIVATE" : "RENEWAL", config.billing);
  return {
    view,
    meter,
    plans: config.billing.plans.map((p) => ({ ...p, totalPence: amounts(p.pricePence, vat).totalPence })),
    vatRatePercent: vat,
    canChange: can(user, "subscription:change"),
    simulator: config.billing.simulatorServed,
    cardEntry: getDeps(context).payments.cardEntry,
    referralPence: referral.totalPence,
  };
}

/** Where a payment goes next: paid (back here with a toast) or 3-D Secure (the bank's page). */
function afterPayment(context: Route.ActionArgs["context"], outcome: PaymentOutcome, message: string) {
  if (outcome.status === "requires_action") return redirect(outcome.actionUrl);
  setToast(context, { type: "success", message });
  return redirect("/subscription");
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, config, payments, now } = getDeps(context);
  const form = await request.clone().formData();
  const intent = form.get("intent");
  const returnUrl = "/subscription/confirm/{id}";
  const hosted = payments.cardEntry === "hosted";
  if (intent === "activate" && hosted) {
    const submission = parseWithZod(form, { schema: activateHostedSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), intent }, { status: 400 });
    try {
      const outcome = await changeSubscription(db, payments, config.billing, { businessId: user.businessId, businessName: user.companyName, kind: "activate", planId: submission.value.plan, returnUrl }, now());
      return afterPayment(context, outcome as PaymentOutcome, "billing.toast.activated");
    } catch (error) {
      return fail(submission, error, intent);
    }
  }
  if (intent === "paynew" && hosted) {
    const submission = parseWithZod(form, { schema: payNewHostedSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), intent }, { status: 400 });
    try {
      const outcome = await payNow(db, payments, config.billing, { businessId: user.businessId, businessName: user.companyName, newCard: true, returnUrl }, now());
      return afterPayment(context, outcome, "billing.toast.paid");
    } catch (error) {
      return fail(submission, error, intent);
    }
  }
  if (intent === "activate") {
    const submission = parseWithZod(form, { schema: activateSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), intent }, { status: 400 });
    try {
      const { plan, intent: _i, ...card } = submission.value;
      const outcome = await changeSubscription(db, payments, config.billing, { businessId: user.businessId, businessName: user.companyName, kind: "activate", planId: plan, card, returnUrl }, now());
      return afterPayment(context, outcome as PaymentOutcome, "billing.toast.activated");
    } catch (error) {
      return fail(submission, error, intent, ["number", "cvc", "expiry"]);
    }
  }
  if (intent === "paynew") {
    const submission = parseWithZod(form, { schema: payNewSchema });
    if (submission.status !== "success") return data({ result: submission.reply(), intent }, { status: 400 });
    try {
      const { intent: _i, ...card } = submission.value;
      const outcome = await payNow(db, payments, config.billing, { businessId: user.businessId, businessName: user.companyName, card, returnUrl }, now());
      return afterPayment(context, outcome, "billing.toast.paid");
    } catch (error) {
      return fail(submission, error, intent, ["number", "cvc", "expiry"]);
    }
  }
  const submission = parseWithZod(form, { schema: simpleSchema });
  if (submission.status !== "success") return data({ result: submission.reply(), intent: "other" }, { status: 400 });
  try {
    if (submission.value.intent === "keep") {
      await keepCurrentPlan(db, user.businessId, now());
      setToast(context, { type: "success", message: "billing.toast.kept" });
      return redirect("/subscription");
    }
    const outcome = await payNow(db, payments, config.billing, { businessId: user.businessId, businessName: user.companyName, returnUrl }, now());
    return afterPayment(context, outcome, "billing.toast.paid");
  } catch (error) {
    return fail(submission, error, "other");
  }
}

/** A discount ends at midnight after its last day: the day shown is the one before. */
const lastDay = (endsAt: string) => new Date(new Date(endsAt).getTime() - 1).toISOString();

type Replyable = { reply(options: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] }): SubmissionResult<string[]> };

/** A refusal (AppError) as a reply to the form that was sent; anything else is a real fault. */
function fail(submission: Replyable, error: unknown, intent: string, hideFields?: string[]) {
  if (!(error instanceof AppError)) throw error;
  const message = errorMessage(error);
  const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [message] }, hideFields }) : submission.reply({ formErrors: [message], hideFields });
  return data({ result, intent }, { status: error.status });
}

export default function Subscription({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { view, meter, plans, vatRatePercent, canChange, simulator, referralPence, cardEntry } = loaderData;
  const hosted = cardEntry === "hosted";
  const testCards = simulator ? (
    <Banner tone="info">
      <p>
        {t("billing.simCards")} <a href="/paymentsimulator">{t("billing.simCardsLink")}</a>
      </p>
    </Banner>
  ) : null;
  const actionData = useActionData<typeof action>();
  const lng = i18n.language;
  const money = (p: number) => formatPounds(p, lng);
  const date = (iso: string | null) => (iso ? formatBillingDate(iso, lng) : "—");
  const [activateForm, activateFields] = useValidatedForm(hosted ? activateHostedSchema : activateSchema, actionData?.intent === "activate" ? actionData.result : undefined, { id: "activate" });
  const [payForm, payFields] = useValidatedForm(hosted ? payNewHostedSchema : payNewSchema, actionData?.intent === "paynew" ? actionData.result : undefined, { id: "paynew" });
  const cardEntryFields = (fields: typeof activateFields | typeof payFields) =>
    hosted ? <p className="field__hint">{t("billing.card.hosted")}</p> : <CardFields fields={fields as unknown as Parameters<typeof CardFields>[0]["fields"]} />;
  const otherErrors = actionData?.intent === "other" ? (actionData.result.error?.[""] ?? undefined) : undefined;

  return (
    <>
      <PageHeader
        title={t("billing.subscription.title")}
        lead={view.status === "TRIAL" ? t("billing.subscription.leadTrial") : t("billing.subscription.leadMonthly")}
        actions={
          canChange && view.status !== "TRIAL" ? (
            <>
              {view.status === "ACTIVE" ? <ButtonLink to="/changesubscription">{t("billing.subscription.change")}</ButtonLink> : null}
              <ButtonLink to="/paymenthistory" variant="secondary">
                {t("billing.subscription.history")}
              </ButtonLink>
            </>
          ) : null
        }
      />
      {!canChange ? <Banner tone="info">{t("billing.adminOnly")}</Banner> : null}
      {referralPence > 0 ? <Banner tone="success">{t("billing.referral.discountBanner", { amount: formatPounds(referralPence, lng) })}</Banner> : null}
      <FormErrors errors={otherErrors} />

      {view.status === "PAYMENT_FAILED" ? (
        <Panel title={t("billing.failed.title")} id="payment-failed" className="billing-failed">
          <Banner tone="error" title={t("billing.failed.title")}>
            <p>
              {view.sendingStopped
                ? t("billing.failed.stopped")
                : t("billing.failed.grace", { date: date(view.graceEndsAt) })}
            </p>
          </Banner>
          {canChange ? (
            <>
              {view.cardLabel ? (
                <AppForm className="form form--inline">
                  <input type="hidden" name="intent" value="paysaved" />
                  <Button>{t("billing.failed.paySaved", { card: view.cardLabel })}</Button>
                </AppForm>
              ) : null}
              <h3>{t("billing.failed.payNew")}</h3>
              <FormErrors errors={payForm.errors} id={payForm.errorId} />
              <AppForm {...getFormProps(payForm)} className="form">
                <input type="hidden" name="intent" value="paynew" />
                {hosted ? null : testCards}
                {cardEntryFields(payFields)}
                <Button>{t("billing.failed.payNewButton")}</Button>
              </AppForm>
            </>
          ) : null}
        </Panel>
      ) : null}

      {view.pending ? (
        <Banner tone="warning" title={t("billing.pending.title")}>
          <p>{t("billing.pending.body")}</p>
          {canChange ? (
            <p>
              <a href={view.pending.actionUrl}>{t("billing.pending.continue")}</a>
            </p>
          ) : null}
        </Banner>
      ) : null}

      {view.status === "TRIAL" ? (
        <>
          <Panel title={t("billing.trial.title")} id="trial">
            <Meter
              percent={meter.percent}
              tone={meter.tone}
              label={t("billing.trial.credits", { remaining: view.trial.creditsRemaining, scale: TRIAL_METER_SCALE })}
              detail={view.trial.ended ? t("billing.trial.ended") : t("billing.trial.daysLeft", { count: meter.daysLeftOfTrial })}
            />
            <p>{view.trial.ended ? t("billing.trial.endedBody") : t("billing.trial.body")}</p>
          </Panel>
          {canChange ? (
            <Panel title={t("billing.activate.title")} id="activate">
              <p>{t("billing.activate.lead", { vat: vatRatePercent })}</p>
              <FormErrors errors={activateForm.errors} id={activateForm.errorId} />
              <AppForm {...getFormProps(activateForm)} className="form">
                <input type="hidden" name="intent" value="activate" />
                <PlanChoices plans={plans} field={activateFields.plan} legend={t("billing.activate.plan")} defaultValue={plans[1]?.id ?? plans[0]?.id} />
                {hosted ? null : testCards}
                {cardEntryFields(activateFields)}
                <p className="field__hint">{t("billing.activate.terms")}</p>
                <Button>{t("billing.activate.submit")}</Button>
              </AppForm>
            </Panel>
          ) : null}
        </>
      ) : (
        <Panel title={t("billing.monthly.title")} id="plan">
          <Meter
            percent={meter.percent}
            tone={meter.tone}
            label={t("billing.monthly.used", { used: view.used.toLocaleString(lng), allowance: view.allowance.toLocaleString(lng) })}
            detail={t("billing.monthly.remaining", { count: view.remaining, remaining: view.remaining.toLocaleString(lng) })}
          />
          <dl className="billing-facts">
            <div>
              <dt>{t("billing.monthly.plan")}</dt>
              <dd>{view.plan ? t("billing.plan.name", { count: view.plan.allowance, allowance: view.plan.allowance.toLocaleString(lng) }) : "—"}</dd>
            </div>
            <div>
              <dt>{t("billing.monthly.price")}</dt>
              <dd>{view.plan ? t("billing.plan.price", { price: money(view.plan.pricePence) }) : "—"}</dd>
            </div>
            <div>
              <dt>{t("billing.monthly.nextPayment")}</dt>
              <dd>{date(view.nextPaymentDate)}</dd>
            </div>
            <div>
              <dt>{t("billing.monthly.card")}</dt>
              <dd>{view.cardLabel ?? "—"}</dd>
            </div>
            {view.discount ? (
              <div>
                <dt>{t("billing.monthly.discount")}</dt>
                <dd>
                  {view.discount.endsAt
                    ? t("billing.monthly.discountUntil", { percent: view.discount.percent, date: date(lastDay(view.discount.endsAt)) })
                    : t("billing.monthly.discountOpen", { percent: view.discount.percent })}
                </dd>
              </div>
            ) : null}
          </dl>
          {view.allowance > (view.plan?.allowance ?? 0) ? <p>{t("billing.monthly.extraThisMonth", { allowance: view.allowance.toLocaleString(lng) })}</p> : null}
          {view.nextPlan ? (
            <Banner tone="info" title={t("billing.monthly.lowerTitle")}>
              <p>
                {t("billing.monthly.lowerBody", {
                  plan: t("billing.plan.name", { count: view.nextPlan.allowance, allowance: view.nextPlan.allowance.toLocaleString(lng) }),
                  date: date(view.nextPaymentDate),
                })}
              </p>
              {canChange ? (
                <AppForm className="form form--inline">
                  <input type="hidden" name="intent" value="keep" />
                  <Button variant="secondary">{t("billing.monthly.keep")}</Button>
                </AppForm>
              ) : null}
            </Banner>
          ) : null}
        </Panel>
      )}
      <p className="billing-refer">
        <Link to="/referral">{t("billing.subscription.refer")}</Link>
      </p>
      {canChange ? (
        <p className="billing-refer">
          <Link to="/subscription/cancel">{t("billing.cancel.link")}</Link>
        </p>
      ) : null}
    </>
  );
}
