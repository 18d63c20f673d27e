// Small pieces the campaign pages share: the status badge (a word, never colour alone), the failure reason in
// plain words, and how long is left until a close date in the spec's units (seconds to years).
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "./choices";
import type { CampaignStatus } from "~/domain/campaigns/model";

const STATUS_TONES: Record<CampaignStatus, BadgeTone> = {
  FAILED: "red",
  SUSPENDED: "yellow",
  SCHEDULED: "info",
  LIVE: "green",
  ONGOING: "green",
  ENDED: "neutral",
};

export function CampaignStatusBadge({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation();
  return <Badge tone={STATUS_TONES[status] ?? "neutral"}>{t(`campaigns.status.${status}`)}</Badge>;
}

/** The failure reason's i18n key (an unknown reason reads as a processing failure, never as a raw code). */
export function failureKey(code: string | null): string | null {
  if (!code) return null;
  return /^SURVEYERROR_[A-Z_]+$/.test(code) ? `campaigns.failure.${code}` : "campaigns.failure.SURVEYERROR_PROCESSING_FAILED";
}

export function FailureReason({ code }: { code: string | null }) {
  const { t } = useTranslation();
  const key = failureKey(code);
  if (!key) return null;
  return <>{t(key, { defaultValue: t("campaigns.failure.SURVEYERROR_PROCESSING_FAILED") })}</>;
}

const UNITS: [unit: "years" | "months" | "days" | "hours" | "minutes" | "seconds", seconds: number][] = [
  ["years", 365 * 86_400],
  ["months", 30 * 86_400],
  ["days", 86_400],
  ["hours", 3_600],
  ["minutes", 60],
  ["seconds", 1],
];

/** The time between now and `until` as one whole number of the largest unit that fits (months of 30 days, years of 365), or null once past. */
export function timeLeft(until: string | null, now: Date): { count: number; unit: (typeof UNITS)[number][0] } | null {
  if (!until) return null;
  const seconds = Math.floor((Date.parse(until) - now.getTime()) / 1000);
  if (!Number.isFinite(seconds) || seconds <= 0) return null;
  for (const [unit, size] of UNITS) if (seconds >= size) return { count: Math.floor(seconds / size), unit };
  return { count: seconds, unit: "seconds" };
}

/** "7 days left"; `short`, "7 days" (under a "Time left" label). */
export function TimeLeft({ until, now, short = false }: { until: string | null; now: Date; short?: boolean }) {
  const { t } = useTranslation();
  const left = timeLeft(until, now);
  if (!left) return null;
  return <>{t(`campaigns.${short ? "duration" : "timeLeft"}.${left.unit}`, { count: left.count })}</>;
}
