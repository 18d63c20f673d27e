// Community panel: members in total and the period's joins and opt-outs; polls every 9 s. With no
// members yet it invites the owner to share the join keyword.
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink, EmptyState, Panel } from "~/components/ui";
import { fetchStat, POLL, usePolling } from "~/lib/use-polling";

export interface Community {
  total: number;
  joinedPeriod: number;
  optedOutPeriod: number;
}

export async function loadCommunity(signal: AbortSignal): Promise<Community> {
  const [total, joinedPeriod, optedOutPeriod] = await Promise.all([
    fetchStat("SUBSCRIBERSTOTAL", signal),
    fetchStat("SUBSCRIBERSTOTALPERIOD", signal),
    fetchStat("SUBSCRIBERSOPTEDOUTPERIOD", signal),
  ]);
  return { total, joinedPeriod, optedOutPeriod };
}

export function CommunityPanel({ community: initial, keyword, phoneNumber }: { community: Community; keyword: string; /** Already formatted for display. */ phoneNumber: string | null }) {
  const { t } = useTranslation();
  const load = useCallback((signal: AbortSignal) => loadCommunity(signal), []);
  const c = usePolling(load, POLL.community, initial);
  return (
    <Panel
      id="community"
      title={t("home.community.title")}
      className="community-panel"
      action={
        <Link to="/mycommunity" className="panel__link">
          {t("home.community.seeMembers")}
        </Link>
      }
    >
      {c.total === 0 ? (
        <EmptyState
          title={t("home.community.emptyTitle")}
          body={
            phoneNumber
              ? t("home.community.emptyBody", { keyword, number: phoneNumber })
              : t("home.community.emptyBodyNoNumber", { keyword })
          }
          action={
            <ButtonLink to="/joinus" variant="secondary">
              {t("home.community.share")}
            </ButtonLink>
          }
        />
      ) : (
        <dl className="community-stats">
          <div className="community-stats__total">
            <dt>{t("home.community.total")}</dt>
            <dd data-stat="SUBSCRIBERSTOTAL">{c.total}</dd>
          </div>
          <div>
            <dt>{t("home.community.joined")}</dt>
            <dd data-stat="SUBSCRIBERSTOTALPERIOD">{c.joinedPeriod}</dd>
          </div>
          <div>
            <dt>{t("home.community.optedOut")}</dt>
            <dd data-stat="SUBSCRIBERSOPTEDOUTPERIOD">{c.optedOutPeriod}</dd>
          </div>
        </dl>
      )}
    </Panel>
  );
}
