// How long until a pending text goes. Without JavaScript: "Sending soon, at 14:05:07" (UK time). With it: a live
// "Sending in 4 seconds" that reloads the page's data when the pause is over, so the state moves on by itself.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";

const timeWithSeconds = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/London", hour: "2-digit", minute: "2-digit", second: "2-digit" });

export function Countdown({ until, doneLabel }: { until: string; doneLabel: string }) {
  const { t } = useTranslation();
  const target = Date.parse(until);
  const [left, setLeft] = useState<number | null>(null);
  const revalidator = useRevalidator();
  useEffect(() => {
    const tick = () => setLeft(Math.max(0, Math.ceil((target - Date.now()) / 1000)));
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [target]);
  const done = left === 0;
  useEffect(() => {
    if (done) void revalidator.revalidate();
    // Only once, when the pause ends.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [done]);
  if (left === null) return <>{t("common.countdown.at", { time: timeWithSeconds.format(new Date(target)) })}</>;
  return <span aria-live="polite">{left > 0 ? t("common.countdown.in", { count: left }) : doneLabel}</span>;
}
