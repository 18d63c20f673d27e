// Small pieces shared by the operator console's pages: a business's state as a badge.
import { useTranslation } from "react-i18next";
import { Badge, type BadgeTone } from "~/components/choices";

const TONES: Record<string, BadgeTone> = { TRIAL: "info", SUBSCRIBED: "green", PAYMENT_FAILED: "yellow", DISABLED: "red", SUSPENDED: "red" };

export function StateBadge({ state, locked }: { state: string; locked?: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      <Badge tone={TONES[state] ?? "neutral"}>{t(`ops.state.${state}`, { defaultValue: state })}</Badge>
      {locked ? (
        <>
          {" "}
          <Badge tone="yellow">{t("ops.state.LOCKED")}</Badge>
        </>
      ) : null}
    </>
  );
}
