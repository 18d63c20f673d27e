// Plan panel and meters/notifications: a trial shows its credits (remaining/50) and days left, a
// monthly plan its allowance used. The notification banner leads to /subscription. Polls every 6 s.
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useHasScreen } from "~/components/app-shell";
import { Icon, Meter, Panel } from "~/components/ui";
import { planView, TRIAL_METER_SCALE, type PlanNotification, type PlanView } from "~/domain/billing/plan";
import { fetchJson, fetchStat, POLL, usePolling } from "~/lib/use-polling";

const NOTIFICATIONS: readonly PlanNotification[] = ["PAYMENTFAILED", "TRIALENDED", "NOCREDIT", "ALLOWANCEEXCEEDED", "LOWCREDIT", "ALLOWANCELIMIT", "7DAYSORLESS"];
const WARNING_ONLY = new Set<PlanNotification>(["7DAYSORLESS", "ALLOWANCELIMIT", "LOWCREDIT"]);

function isNotification(v: unknown): v is PlanNotification {
  return typeof v === "string" && (NOTIFICATIONS as readonly string[]).includes(v);
}

/** Rebuilds the plan view from the API answers (message allowance, stats, account status). */
export async function loadPlan(current: PlanView, signal: AbortSignal): Promise<PlanView> {
  const now = new Date();
  const monthly = current.kind === "monthly";
  const [allowance, status, stat] = await Promise.all([
    fetchJson<{ messageAllowance?: unknown; daysLeftOfTrial?: unknown }>("/api/account/messageallowance", signal),
    fetchJson<{ displayNotification?: unknown }>("/api/account/status", signal),
    fetchStat(monthly ? "MESSAGECREDITSUSED" : "MESSAGECREDITSREMAINING", signal),
  ]);
  const days = Number(allowance.daysLeftOfTrial);
  const view = monthly
    ? planView(
        {
          status: "SUBSCRIBED",
          messageAllowance: Number(allowance.messageAllowance) > 0 ? Number(allowance.messageAllowance) : current.messageAllowance,
          allowanceUsed: stat,
          trialCredits: 0,
          trialEndsAt: null,
        },
        now,
      )
    : planView(
        {
          status: "TRIAL",
          messageAllowance: 0,
          allowanceUsed: 0,
          trialCredits: stat,
          trialEndsAt: new Date(now.getTime() + (Number.isFinite(days) ? days : current.daysLeftOfTrial) * 86400_000).toISOString(),
        },
        now,
      );
  // The server's notification is authoritative (it also knows about failed payments).
  return { ...view, notification: isNotification(status.displayNotification) ? status.displayNotification : null };
}

export function PlanNotificationBanner({ notification }: { notification: PlanNotification | null }) {
  const { t } = useTranslation();
  const hasScreen = useHasScreen();
  if (!notification) return null;
  const tone = WARNING_ONLY.has(notification) ? "warning" : "error";
  const content = (
    <>
      <Icon name="alert" />
      <span>
        <strong className="banner__title">{t(`home.plan.notification.${notification}.title`)}</strong>
        <span>{t(`home.plan.notification.${notification}.body`)}</span>
      </span>
    </>
  );
  // Until the subscription screen exists the notice is told, not linked.
  return hasScreen("/subscription") ? (
    <Link to="/subscription" className={`banner banner--${tone} plan-notice`} data-notification={notification}>
      {content}
    </Link>
  ) : (
    <div className={`banner banner--${tone} plan-notice`} data-notification={notification}>
      {content}
    </div>
  );
}

export function PlanPanel({ plan: initial }: { plan: PlanView }) {
  const { t } = useTranslation();
  const load = useCallback((signal: AbortSignal) => loadPlan(initial, signal), [initial]);
  const plan = usePolling(load, POLL.plan, initial);
  const hasScreen = useHasScreen();
  const trial = plan.kind === "trial";
  return (
    <Panel
      id="plan"
      title={trial ? t("home.plan.trialTitle") : t("home.plan.monthlyTitle")}
      className="plan-panel"
      action={
        hasScreen("/subscription") ? (
          <Link to="/subscription" className="panel__link">
            {t("home.plan.manage")}
          </Link>
        ) : undefined
      }
    >
      <div data-plan-kind={plan.kind} data-tone={plan.tone}>
        {trial ? (
          <Meter
            percent={plan.percent}
            tone={plan.tone}
            label={t("home.plan.creditsLabel")}
            detail={
              <>
                {t("home.plan.creditsDetail", { remaining: plan.creditsRemaining, scale: TRIAL_METER_SCALE })}{" "}
                · {t("home.plan.daysLeft", { count: plan.daysLeftOfTrial })}
              </>
            }
          />
        ) : (
          <Meter
            percent={plan.percent}
            tone={plan.tone}
            label={t("home.plan.allowanceLabel")}
            detail={t("home.plan.allowanceDetail", { used: plan.used, allowance: plan.messageAllowance })}
          />
        )}
      </div>
      <div className="plan-panel__notice">
        <PlanNotificationBanner notification={plan.notification} />
      </div>
    </Panel>
  );
}
