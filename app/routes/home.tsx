// Home: plan panel, community panel, count tiles, send buttons, live campaigns, and the feed.
// Everything is in the server render (JavaScript off); with JavaScript the numbers and the feed poll.
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/home";
import { CommunityPanel } from "~/components/community-panel";
import { FeedList, HIDE_QUICK_START, UnreadPanel } from "~/components/feed";
import { PlanPanel } from "~/components/plan-panel";
import { useHasScreen } from "~/components/app-shell";
import { ButtonLink, Icon, PageHeader, Tile } from "~/components/ui";
import { markHelpSectionViewed } from "~/domain/accounts/status.server";
import { QUICK_START_SECTION, type FeedItem } from "~/domain/feed/feed.server";
import { UNREAD_SHOWN } from "~/domain/home/format";
import { getHome, type UnreadSummary } from "~/domain/home/home.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { oncePerRequest } from "~/lib/request-memo.server";
import { unreadTotal } from "~/domain/conversations/conversations.server";
import { formatUkNumber } from "~/lib/phone";
import { fetchJson, fetchStat, listOf, POLL, usePolling } from "~/lib/use-polling";

export const handle = { titleKey: "home.meta.title", descriptionKey: "home.meta.description" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const at = now();
  // The navigation reads the unread count for this request too: one read serves both.
  const home = await getHome(db, user, at, oncePerRequest(context, "unreadTotal", () => unreadTotal(db, user.businessId, at)));
  return { ...home, phoneDisplay: home.business.phoneNumber ? formatUkNumber(home.business.phoneNumber) : null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const form = await request.formData();
  if (form.get("intent") !== HIDE_QUICK_START) throw data({ code: "UA002" }, { status: 400 });
  await markHelpSectionViewed(db, user.userId, QUICK_START_SECTION, now());
  setToast(context, { type: "success", message: "feed.help.hidden" });
  return redirect("/");
}

type Tiles = Awaited<ReturnType<typeof loader>>["tiles"];
type Unread = { total: number; messages: UnreadSummary[] };

async function loadTiles(signal: AbortSignal): Promise<Tiles> {
  const [unreadMessages, pendingGroupMessages, liveCampaigns] = await Promise.all([
    fetchStat("UNREADMESSAGESTOTAL", signal),
    fetchStat("CONTACTGROUPPENDINGMESSAGESTOTAL", signal),
    fetchStat("CAMPAIGNSTOTAL", signal),
  ]);
  return { unreadMessages, pendingGroupMessages, liveCampaigns };
}

async function loadFeed(signal: AbortSignal): Promise<FeedItem[] | undefined> {
  const items = listOf<FeedItem>(await fetchJson("/api/feed", signal));
  return items?.filter((i) => i && typeof i.type === "string" && i.type !== "UNREADMESSAGES");
}

async function loadUnread(signal: AbortSignal): Promise<Unread | undefined> {
  const body = await fetchJson<unknown>("/api/directmessages?filter=UNREAD", signal);
  const messages = listOf<UnreadSummary>(body);
  if (!messages) return undefined;
  const total = Number((body as { total?: unknown })?.total);
  return { total: Number.isFinite(total) ? total : messages.length, messages: messages.slice(0, UNREAD_SHOWN) };
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const { business, phoneDisplay } = loaderData;
  const tiles = usePolling(useCallback(loadTiles, []), POLL.tiles, loaderData.tiles);
  const feed = usePolling(useCallback(loadFeed, []), POLL.feed, loaderData.feed);
  const unread = usePolling(useCallback(loadUnread, []), POLL.unread, loaderData.unread);
  const hasScreen = useHasScreen();
  return (
    <>
      <PageHeader
        title={business.name}
        lead={phoneDisplay ? t("home.lead", { number: phoneDisplay, keyword: business.joinKeyword }) : t("home.leadNoNumber")}
      />
      <div className="home">
        <div className="home__side stack">
          <PlanPanel plan={loaderData.plan} />
          <CommunityPanel community={loaderData.community} keyword={business.joinKeyword} phoneNumber={phoneDisplay} />
        </div>
        <div className="home__main stack">
          <div className="tiles tiles--home" aria-live="polite">
            <Tile to="/directmessages" id="tile-unread" value={tiles.unreadMessages} label={t("home.tiles.unread")} />
            <Tile to="/allgroupmessages" id="tile-pending" value={tiles.pendingGroupMessages} label={t("home.tiles.pending")} />
            {hasScreen("/campaigns") ? (
              <Tile to="/campaigns" id="tile-campaigns" value={tiles.liveCampaigns} label={t("home.tiles.campaigns")} />
            ) : null}
          </div>
          <div className="actions">
            <ButtonLink to="/newdirectmessage">
              <Icon name="message" /> {t("home.actions.direct")}
            </ButtonLink>
            <ButtonLink to="/newgroupmessage">
              <Icon name="group" /> {t("home.actions.group")}
            </ButtonLink>
            {hasScreen("/analytics") ? (
              <ButtonLink to="/analytics" variant="secondary">
                <Icon name="chart" /> {t("analytics.homeLink")}
              </ButtonLink>
            ) : null}
          </div>
          <section className="feed" aria-labelledby="feed-title">
            <h2 id="feed-title">{t("feed.title")}</h2>
            <FeedList items={feed} />
            <UnreadPanel messages={unread.messages} total={unread.total} />
          </section>
        </div>
      </div>
    </>
  );
}
