// Plan meters and notifications. Pure functions, shared by the home screen, the API and tests.

export const TRIAL_METER_SCALE = 50;
export type Tone = "green" | "yellow" | "red";
export type PlanNotification =
  | "PAYMENTFAILED"
  | "TRIALENDED"
  | "NOCREDIT"
  | "ALLOWANCEEXCEEDED"
  | "LOWCREDIT"
  | "ALLOWANCELIMIT"
  | "7DAYSORLESS";

export interface PlanInput {
  status: string; // TRIAL | SUBSCRIBED | PAYMENT_FAILED | DISABLED | SUSPENDED
  messageAllowance: number; // monthly allowance; 0 on a trial
  allowanceUsed: number;
  trialCredits: number;
  trialEndsAt: string | null;
}

export interface PlanView {
  kind: "monthly" | "trial";
  percent: number;
  tone: Tone;
  notification: PlanNotification | null;
  creditsRemaining: number;
  daysLeftOfTrial: number;
  messageAllowance: number;
  used: number;
}

export function daysLeft(trialEndsAt: string | null, now: Date): number {
  if (!trialEndsAt) return 0;
  return Math.max(0, Math.ceil((Date.parse(trialEndsAt) - now.getTime()) / 86400_000));
}

/** A monthly plan is recognised when the allowance is above 0. */
export function planView(p: PlanInput, now: Date): PlanView {
  const days = daysLeft(p.trialEndsAt, now);
  if (p.messageAllowance > 0) {
    const raw = (p.allowanceUsed / p.messageAllowance) * 100;
    const percent = Math.min(100, raw);
    const tone: Tone = percent < 80 ? "green" : percent < 90 ? "yellow" : "red";
    let notification: PlanNotification | null = raw > 100 ? "ALLOWANCEEXCEEDED" : raw > 90 ? "ALLOWANCELIMIT" : null;
    if (p.status === "PAYMENT_FAILED") notification = "PAYMENTFAILED";
    return {
      kind: "monthly",
      percent,
      tone,
      notification,
      creditsRemaining: Math.max(0, p.messageAllowance - p.allowanceUsed),
      daysLeftOfTrial: days,
      messageAllowance: p.messageAllowance,
      used: p.allowanceUsed,
    };
  }
  const remaining = Math.max(0, p.trialCredits);
  const percent = Math.min(100, (remaining / TRIAL_METER_SCALE) * 100);
  const tone: Tone = percent < 10 ? "red" : percent < 20 ? "yellow" : "green";
  let notification: PlanNotification | null = null;
  if (days < 8) notification = "7DAYSORLESS";
  if (percent < 10) notification = "LOWCREDIT";
  if (remaining === 0) notification = "NOCREDIT";
  if (days < 1) notification = "TRIALENDED";
  if (p.status === "PAYMENT_FAILED") notification = "PAYMENTFAILED";
  return { kind: "trial", percent, tone, notification, creditsRemaining: remaining, daysLeftOfTrial: days, messageAllowance: 0, used: 0 };
}
