// /viewcampaign?id=N: everything about one campaign. Its status (and why it failed), what was sent and when, the
// time left until it closes, its totals, and each type's own results: a poll's votes per option (a doughnut with
// JavaScript, a table always), one question's replies a page at a time, an invitation's door list (to print or
// download), a draw's entries, seed hash and winners, an auto responder's texts today, yesterday and this month.
// With JavaScript it refreshes itself every 10 seconds while visible. End and Delete ask first (confirm.tsx).
// The bare /viewcampaign opens the campaigns list; another business's id is a 404.
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData, useNavigation, useRevalidator } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/viewcampaign";
import { CampaignStatusBadge, FailureReason, TimeLeft } from "~/components/campaign-bits";
import { StatList, type Stat } from "~/components/choices";
import { ConfirmAction } from "~/components/confirm";
import { translateError } from "~/components/form";
import { Banner, ButtonLink, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { useHasScreen } from "~/components/app-shell";
import { campaignActors, campaignResults, deleteCampaign, endCampaign } from "~/domain/campaigns/campaigns.server";
import { TYPE_PATHS, type ResponseTotal } from "~/domain/campaigns/model";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage, formText } from "~/lib/forms.server";
import { formatUkNumber } from "~/lib/phone";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "campaigns.meta.viewTitle", descriptionKey: "campaigns.meta.viewDescription", permission: "campaigns:manage" };

const REPLIES_PAGE = 50;
/** Types whose results download as CSV (the others answer BR041). */
const EXPORTABLE = new Set(["ONEQUESTION", "POLL", "INVITATION", "PICKWINNERS"]);

function campaignId(request: Request): number | null {
  const raw = new URL(request.url).searchParams.get("id");
  if (raw === null || raw === "") return null;
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(Number(raw)) || Number(raw) <= 0) throw data(null, { status: 404 });
  return Number(raw);
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const id = campaignId(request);
  if (id === null) throw redirect("/campaigns");
  const page = Math.max(1, Math.min(1_000, Math.floor(Number(new URL(request.url).searchParams.get("page"))) || 1));
  const at = now();
  const results = await campaignResults(db, user.businessId, id, at, { replyLimit: REPLIES_PAGE, replyOffset: (page - 1) * REPLIES_PAGE });
  if (!results) throw data(null, { status: 404 });
  const actors = await campaignActors(db, user.businessId, id);
  const phone = <T extends { phone: string }>(r: T): T => ({ ...r, phone: formatUkNumber(r.phone) });
  return {
    ...results,
    // The door list is who is coming (and who is waiting for a place); declines stay in the totals and the CSV.
    doorList: (results.invitation?.doorList ?? []).filter((r) => r.status !== "DECLINED").map(phone),
    replies: results.replies.map(phone),
    invitation: results.invitation ? { ...results.invitation, doorList: [] } : undefined,
    draw: results.draw ? { ...results.draw, winners: results.draw.winners.map(phone) } : undefined,
    actors,
    page,
    pageCount: Math.max(1, Math.ceil(results.repliesTotal / REPLIES_PAGE)),
    now: at.toISOString(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const deps = getDeps(context);
  const id = campaignId(request);
  if (id === null) throw data(null, { status: 404 });
  const intent = formText(await request.formData(), "intent");
  try {
    if (intent === "end") {
      await endCampaign(deps, { businessId: user.businessId, campaignId: id, actorId: user.userId });
      setToast(context, { type: "success", message: "campaigns.toast.ended" });
      return redirect(`/viewcampaign?id=${id}`);
    }
    if (intent === "delete") {
      await deleteCampaign(deps, { businessId: user.businessId, campaignId: id, actorId: user.userId });
      setToast(context, { type: "success", message: "campaigns.toast.deleted" });
      return redirect("/campaigns");
    }
    return data({ error: "errors.generic", intent }, { status: 400 });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    return data({ error: errorMessage(error), intent }, { status: error.status });
  }
}

type Loaded = Awaited<ReturnType<typeof loader>>;

/** Re-runs the page's loader every 10 seconds while the campaign runs, the tab is visible and nothing is being posted. */
function useLiveResults(enabled: boolean) {
  const { revalidate, state } = useRevalidator();
  const navigation = useNavigation();
  const busy = state !== "idle" || navigation.state !== "idle";
  useEffect(() => {
    if (!enabled || busy) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && navigator.onLine !== false) void revalidate();
    }, 10_000);
    return () => window.clearInterval(timer);
  }, [enabled, busy, revalidate]);
}

/** The poll's doughnut (top response and the rest, spec section 9), drawn by chartist once JavaScript runs. */
function Doughnut({ percent, label }: { percent: number; label: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let chart: { detach(): void } | null = null;
    void import("chartist").then(({ PieChart }) => {
      if (cancelled || !ref.current) return;
      chart = new PieChart(ref.current, { series: [percent, Math.max(0, 100 - percent)] }, { donut: true, donutWidth: 22, showLabel: false, startAngle: 0, total: 100 });
      setDrawn(true);
    });
    return () => {
      cancelled = true;
      chart?.detach();
    };
  }, [percent]);
  return (
    <figure className="cv-doughnut" aria-hidden="true">
      {/* Until chartist draws (and without JavaScript) a CSS ring of the same size shows the same share. */}
      <div ref={ref} className={`cv-doughnut__chart${drawn ? "" : " cv-doughnut__chart--css"}`} style={drawn ? undefined : { background: `conic-gradient(var(--accent) 0 ${percent}%, var(--line) ${percent}% 100%)` }} />
      <figcaption className="cv-doughnut__label">
        <strong>{percent}%</strong>
        <span>{label}</span>
      </figcaption>
    </figure>
  );
}

/** With JavaScript, a button that prints the page (the print stylesheet keeps only the door list); without it, the hint under the list says to print the page. */
function PrintButton() {
  const { t } = useTranslation();
  const [enhanced, setEnhanced] = useState(false);
  useEffect(() => setEnhanced(true), []);
  if (!enhanced) return null;
  return (
    <button type="button" className="btn btn--secondary btn--small" onClick={() => window.print()}>
      {t("campaigns.view.print")}
    </button>
  );
}

function ResponsesTable({ responses, total, caption, optionLabel }: { responses: ResponseTotal[]; total: number; caption: string; optionLabel: string }) {
  const { t, i18n } = useTranslation();
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  return (
    <div className="table-wrap">
      <table className="cv-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{optionLabel}</th>
            <th scope="col" className="num">{t("campaigns.view.votes")}</th>
            <th scope="col" className="num">{t("campaigns.view.share")}</th>
          </tr>
        </thead>
        <tbody>
          {responses.map((r) => {
            const share = total > 0 ? Math.round((r.total / total) * 100) : 0;
            return (
              <tr key={r.response}>
                <th scope="row">{r.response}</th>
                <td className="num">{fmt(r.total)}</td>
                <td className="num">
                  <span className="cv-bar" aria-hidden="true">
                    <span className="cv-bar__fill" style={{ width: `${share}%` }} />
                  </span>
                  {share}%
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Replies({ d }: { d: Loaded }) {
  const { t, i18n } = useTranslation();
  if (d.repliesTotal === 0) return <p className="muted">{t("campaigns.view.noReplies")}</p>;
  const withOption = d.campaign.type !== "ONEQUESTION";
  return (
    <>
      <div className="table-wrap">
        <table className="cv-table cv-replies">
          <caption className="visually-hidden">{t("campaigns.view.replies")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("campaigns.view.member")}</th>
              <th scope="col">{t("campaigns.view.reply")}</th>
              {withOption ? <th scope="col">{t("campaigns.view.countedAs")}</th> : null}
              <th scope="col">{t("campaigns.view.when")}</th>
            </tr>
          </thead>
          <tbody>
            {d.replies.map((r, i) => (
              <tr key={`${r.memberId}-${r.at}-${i}`}>
                <td className="cv-replies__who">
                  {r.name ? <span className="cv-who">{r.name}</span> : null}
                  <span className="nowrap muted">{r.phone}</span>
                </td>
                <td className="cv-reply">{r.response}</td>
                {withOption ? <td className="cv-replies__as">{r.responseOption ?? <span className="muted">{t("campaigns.view.notCounted")}</span>}</td> : null}
                <td className="nowrap cv-replies__when">{formatLongDate(r.at, i18n.language)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pagination page={d.page} pageCount={d.pageCount} hrefFor={(p) => `/viewcampaign?id=${d.campaign.id}&page=${p}`} />
    </>
  );
}

export default function ViewCampaign() {
  const { t, i18n } = useTranslation();
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const c = d.campaign;
  const now = new Date(d.now);
  const lng = i18n.language;
  const fmt = (n: number) => n.toLocaleString(lng === "fr" ? "fr-FR" : "en-GB");
  const running = c.status === "SCHEDULED" || c.status === "LIVE" || c.status === "ONGOING";
  useLiveResults(running);

  const group = c.contactGroupId === -1 ? t("campaigns.allSubscribers") : c.contactGroupName;
  const issued = c.issueDate && Date.parse(c.issueDate) <= now.getTime() && c.status !== "SCHEDULED";
  const facts: Stat[] = [];
  if (c.type === "PICKWINNERS") {
    facts.push({ label: t("campaigns.view.entries"), value: fmt(d.draw ? d.draw.entries : c.totalReceived) });
    facts.push({ label: t("campaigns.view.winnersToPick"), value: fmt(Number(c.settings.numberWinnersToPick ?? 0)) });
  } else if (d.upcoming) {
    facts.push({ label: t("campaigns.view.textsSent"), value: fmt(c.totalSent) });
    facts.push({ label: t("campaigns.view.plannedThisMonth"), value: fmt(d.upcoming.thisMonth) });
    if (d.upcoming.nextAt) facts.push({ label: t("campaigns.view.nextSend"), value: formatLongDate(d.upcoming.nextAt, lng) });
  } else if (c.type === "CHECKIN" && d.checkin) {
    facts.push({ label: t("campaigns.view.hereNow"), value: fmt(d.checkin.here.length) });
    facts.push({ label: t("campaigns.view.today"), value: fmt(d.checkin.today) });
    facts.push({ label: t("campaigns.view.last21Days"), value: fmt(d.checkin.last21Days) });
  } else if (c.type !== "BOUNCEBACK") {
    facts.push({ label: t("campaigns.view.sent"), value: fmt(c.totalSent) });
    facts.push({ label: t("campaigns.view.replied"), value: fmt(c.totalReceived) });
  } else if (d.totals) {
    facts.push({ label: t("campaigns.view.today"), value: fmt(d.totals.today) });
    facts.push({ label: t("campaigns.view.yesterday"), value: fmt(d.totals.yesterday) });
    facts.push({ label: t("campaigns.view.month"), value: fmt(d.totals.month) });
  }
  if (running && c.closeDate) facts.push({ label: t(c.type === "PICKWINNERS" ? "campaigns.view.untilDraw" : "campaigns.view.timeLeft"), value: <TimeLeft until={c.closeDate} now={now} short /> });
  const error = actionData && "error" in actionData ? actionData : null;
  const exportable = EXPORTABLE.has(c.type);
  const hasScreen = useHasScreen();

  return (
    <div className={`stack cv-page cv-page--${c.type.toLowerCase()}`}>
      <PageHeader
        title={c.name}
        lead={
          <span className="cv-lead">
            {t(`campaigns.types.${c.type}.name`)} <CampaignStatusBadge status={c.status} />
          </span>
        }
        actions={c.editable ? <ButtonLink to={`${TYPE_PATHS[c.type]}?id=${c.id}`} variant="secondary">{t("campaigns.view.edit")}</ButtonLink> : undefined}
      />
      <p className="no-print">
        <Link to={`/campaigns?kind=${c.kind}`}>{t("campaigns.view.back")}</Link>
      </p>
      {error ? <Banner tone="error">{translateError(t, error.error)}</Banner> : null}
      {c.status === "FAILED" ? (
        <Banner tone="error" title={t("campaigns.view.failed")}>
          <FailureReason code={c.errorMessage} />
        </Banner>
      ) : null}
      {c.status === "SUSPENDED" ? <Banner tone="warning">{t("campaigns.view.suspended")}</Banner> : null}

      <Panel title={t("campaigns.view.summary")} id="cv-summary">
        {facts.length ? <StatList items={facts} /> : null}
        <dl className="cv-facts">
          {c.keyword ? (
            <div>
              <dt>{t("campaigns.view.keyword")}</dt>
              <dd>
                <strong>{c.keyword}</strong>
              </dd>
            </div>
          ) : null}
          {group && c.type !== "BOUNCEBACK" ? (
            <div>
              <dt>{t("campaigns.view.group")}</dt>
              <dd>{group}</dd>
            </div>
          ) : null}
          {c.issueDate ? (
            <div>
              <dt>{t(issued ? `campaigns.view.issued.${c.type}` : `campaigns.view.issues.${c.type}`)}</dt>
              <dd>{formatLongDate(c.issueDate, lng)}</dd>
            </div>
          ) : null}
          {c.closeDate ? (
            <div>
              <dt>{t(`campaigns.view.close.${c.type}`)}</dt>
              <dd>{formatLongDate(c.closeDate, lng)}</dd>
            </div>
          ) : null}
          <div>
            <dt>{t("campaigns.view.created")}</dt>
            <dd>
              {formatLongDate(c.createdAt, lng)}
              {c.createdByName ? <span className="actor"> · {t("team.actor.createdBy", { name: c.createdByName })}</span> : null}
              {d.actors.updatedBy ? <span className="actor"> · {t("team.actor.editedBy", { name: d.actors.updatedBy })}</span> : null}
              {d.actors.endedBy ? <span className="actor"> · {t("team.actor.endedBy", { name: d.actors.endedBy })}</span> : null}
            </dd>
          </div>
        </dl>
      </Panel>

      {c.messageText || c.thankYouText ? (
        <Panel title={t("campaigns.view.texts")} id="cv-texts">
          {c.messageText ? (
            <div className="cv-text">
              <p className="cv-text__label">{t(`campaigns.view.message.${c.type}`)}</p>
              <p className="cv-text__body">{c.messageText}</p>
            </div>
          ) : null}
          {c.thankYouText ? (
            <div className="cv-text">
              <p className="cv-text__label">{t(`campaigns.view.thankYou.${c.type}`)}</p>
              <p className="cv-text__body">{c.thankYouText}</p>
            </div>
          ) : null}
          {typeof c.settings.acceptText === "string" ? (
            <div className="cv-text">
              <p className="cv-text__label">{t("campaigns.form.acceptText")}</p>
              <p className="cv-text__body">{c.settings.acceptText}</p>
            </div>
          ) : null}
          {typeof c.settings.declineText === "string" ? (
            <div className="cv-text">
              <p className="cv-text__label">{t("campaigns.form.declineText")}</p>
              <p className="cv-text__body">{c.settings.declineText}</p>
            </div>
          ) : null}
        </Panel>
      ) : null}

      {c.type === "POLL" ? (
        <Panel title={t("campaigns.view.results")} id="cv-results">
          {c.responses.length === 0 || c.totalReceived === 0 ? (
            <p className="muted">{t("campaigns.view.noVotes")}</p>
          ) : (
            <div className="cv-poll">
              {d.topResponse ? (
                <>
                  <Doughnut percent={d.topResponse.percent} label={d.topResponse.response} />
                  <p className="cv-top">{t("campaigns.view.top", { response: d.topResponse.response, percent: d.topResponse.percent, count: d.topResponse.total })}</p>
                </>
              ) : null}
              <ResponsesTable responses={c.responses} total={c.responses.reduce((a, r) => a + r.total, 0)} caption={t("campaigns.view.results")} optionLabel={t("campaigns.view.option")} />
            </div>
          )}
        </Panel>
      ) : null}

      {c.type === "INVITATION" && d.invitation ? (
        <>
          <Panel title={t("campaigns.view.rsvps")} id="cv-rsvps">
            <StatList
              items={[
                { label: t("campaigns.view.accepted"), value: t("campaigns.view.acceptedValue", { count: d.invitation.acceptedPlaces, replies: fmt(d.invitation.acceptedReplies), formatted: fmt(d.invitation.acceptedPlaces) }) },
                { label: t("campaigns.view.declined"), value: fmt(d.invitation.declined) },
                { label: t("campaigns.view.waitlist"), value: fmt(d.invitation.waitlist) },
                { label: t("campaigns.view.noReply"), value: fmt(d.invitation.noReply) },
                ...(d.invitation.capacity !== null ? [{ label: t("campaigns.view.capacity"), value: fmt(d.invitation.capacity) }] : []),
              ]}
            />
            {d.topResponse && c.totalReceived > 0 ? <Doughnut percent={d.topResponse.percent} label={d.topResponse.response} /> : null}
          </Panel>
          <section className="panel cv-doorlist" aria-labelledby="cv-door-title">
            <div className="panel__head">
              <h2 className="panel__title" id="cv-door-title">
                {t("campaigns.view.doorList")}
              </h2>
              <span className="no-print cv-doorlist__actions">
                <PrintButton />
                <a href={`/viewcampaign/export?id=${c.id}`} download>
                  {t("campaigns.view.download")}
                </a>
              </span>
            </div>
            <p className="print-only">
              {c.name}
              {typeof c.settings.eventDate === "string" ? ` · ${formatLongDate(c.settings.eventDate, lng)}` : ""}
            </p>
            {d.doorList.length === 0 ? (
              <p className="muted">{t("campaigns.view.doorListEmpty")}</p>
            ) : (
              <div className="table-wrap">
                <table className="cv-table">
                  <caption className="visually-hidden">{t("campaigns.view.doorList")}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{t("campaigns.view.member")}</th>
                      <th scope="col" className="num">{t("campaigns.view.partySize")}</th>
                      <th scope="col">{t("campaigns.view.rsvp")}</th>
                      <th scope="col" className="print-only">{t("campaigns.view.arrived")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.doorList.map((r) => (
                      <tr key={r.memberId}>
                        <td>
                          {r.name ? <span className="cv-who">{r.name}</span> : null}
                          <span className="nowrap muted">{r.phone}</span>
                        </td>
                        <td className="num">{r.partySize}</td>
                        <td>{t(`campaigns.view.rsvpStatus.${r.status}`)}</td>
                        <td className="print-only cv-tick">☐</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            <p className="field__hint no-print">{t("campaigns.view.printHint")}</p>
          </section>
        </>
      ) : null}

      {c.type === "PICKWINNERS" && d.draw ? (
        <Panel title={t("campaigns.view.draw")} id="cv-draw">
          <dl className="cv-facts">
            <div>
              <dt>{t("campaigns.view.seedHash")}</dt>
              <dd>
                <code className="cv-hash">{d.draw.seedHash}</code>
              </dd>
            </div>
            {d.draw.seed ? (
              <div>
                <dt>{t("campaigns.view.seed")}</dt>
                <dd>
                  <code className="cv-hash">{d.draw.seed}</code>
                </dd>
              </div>
            ) : null}
            {d.draw.drawnAt ? (
              <div>
                <dt>{t("campaigns.view.drawnAt")}</dt>
                <dd>{formatLongDate(d.draw.drawnAt, lng)}</dd>
              </div>
            ) : null}
          </dl>
          <p className="field__hint">{t(d.draw.seed ? "campaigns.view.seedHintDrawn" : "campaigns.view.seedHint")}</p>
          {d.draw.drawnAt ? (
            d.draw.winners.length ? (
              <>
                <h3>{t("campaigns.view.winners")}</h3>
                <ol className="cv-winners">
                  {d.draw.winners.map((w) => (
                    <li key={w.rank}>
                      {w.name ? <span className="cv-who">{w.name}</span> : null} <span className="nowrap muted">{w.phone}</span>
                    </li>
                  ))}
                </ol>
              </>
            ) : (
              <p>{t("campaigns.view.noWinners")}</p>
            )
          ) : (
            <p className="muted">{t("campaigns.view.awaitingDraw", { date: c.closeDate ? formatLongDate(c.closeDate, lng) : "" })}</p>
          )}
        </Panel>
      ) : null}

      {c.type === "CUSTOMEREXP" && d.nps ? (
        <Panel title={t("campaigns.view.npsTitle")} id="cv-nps">
          <div className="cv-nps">
            <p className="cv-nps__score">
              <span className="cv-nps__value">{d.nps.currentScore === null ? "–" : d.nps.currentScore}</span>
              <span className="cv-nps__label">{t("campaigns.view.npsThisMonth")}</span>
            </p>
            <p className="cv-nps__trend">
              {d.nps.previousScore === null
                ? t("campaigns.view.npsNoPrevious")
                : t(`campaigns.view.npsTrend.${d.nps.trend}`, { previous: d.nps.previousScore })}
            </p>
            <ResponsesTable
              responses={[
                { response: t("campaigns.view.promoters"), total: d.nps.promoters },
                { response: t("campaigns.view.passives"), total: d.nps.passives },
                { response: t("campaigns.view.detractors"), total: d.nps.detractors },
              ]}
              total={d.nps.promoters + d.nps.passives + d.nps.detractors}
              caption={t("campaigns.view.npsTitle")}
              optionLabel={t("campaigns.view.npsClass")}
            />
            <p className="small muted">{t("campaigns.view.npsHow")}</p>
          </div>
          {hasScreen("/customerexpqrcode") ? (
            <p className="no-print">
              <Link to={`/customerexpqrcode?id=${c.id}`}>{t("campaigns.view.qrCode")}</Link>
            </p>
          ) : null}
        </Panel>
      ) : null}

      {c.type === "CHECKIN" && d.checkin ? (
        <Panel title={t("campaigns.view.hereNowTitle", { count: d.checkin.here.length })} id="cv-here">
          {d.checkin.here.length === 0 ? (
            <p className="muted">{t("campaigns.view.nobodyHere")}</p>
          ) : (
            <ul className="list cv-here">
              {d.checkin.here.map((h, i) => (
                <li key={`${h.phone}-${i}`}>
                  <strong>{h.name || h.phone}</strong> <span className="muted">{t("campaigns.view.checkedInAt", { when: formatLongDate(h.checkedInAt, lng) })}</span>
                </li>
              ))}
            </ul>
          )}
          <p className="no-print cv-links">
            {hasScreen("/checkinqrcode") ? <Link to={`/checkinqrcode?id=${c.id}`}>{t("campaigns.view.qrCode")}</Link> : null}{" "}
            {hasScreen("/checkinexport") ? <Link to={`/checkinexport?id=${c.id}`}>{t("campaigns.view.exportVisits")}</Link> : null}
          </p>
        </Panel>
      ) : null}

      {c.type === "ONEQUESTION" || c.type === "POLL" || c.type === "INVITATION" || c.type === "CUSTOMEREXP" ? (
        <Panel
          title={t("campaigns.view.repliesCount", { count: d.repliesTotal, formatted: fmt(d.repliesTotal) })}
          id="cv-replies"
          action={exportable && d.repliesTotal > 0 && c.type !== "INVITATION" ? <a href={`/viewcampaign/export?id=${c.id}`} download className="no-print">{t("campaigns.view.download")}</a> : undefined}
        >
          <Replies d={d} />
        </Panel>
      ) : null}

      {c.type === "PICKWINNERS" && d.draw?.drawnAt && d.draw.winners.length ? (
        <p className="no-print">
          <a href={`/viewcampaign/export?id=${c.id}`} download>
            {t("campaigns.view.downloadWinners")}
          </a>
        </p>
      ) : null}

      {c.type === "BOUNCEBACK" && d.totals && d.totals.month === 0 && c.totalReceived === 0 ? (
        <EmptyState title={t("campaigns.view.bouncebackEmpty", { keyword: c.keyword ?? "" })} />
      ) : null}

      <div className="cv-actions no-print">
        {running ? (
          <ConfirmAction
            id="end-campaign"
            trigger={t("campaigns.view.end")}
            title={t("campaigns.view.endTitle")}
            confirmLabel={t("campaigns.view.endConfirm")}
            fields={{ intent: "end" }}
            open={error?.intent === "end"}
          >
            <p>{t(`campaigns.view.endBody.${c.type}`)}</p>
          </ConfirmAction>
        ) : null}
        <ConfirmAction
          id="delete-campaign"
          trigger={t("campaigns.view.delete")}
          title={t("campaigns.view.deleteTitle")}
          confirmLabel={t("campaigns.view.deleteConfirm")}
          fields={{ intent: "delete" }}
        >
          <p>{t("campaigns.view.deleteBody")}</p>
        </ConfirmAction>
      </div>
    </div>
  );
}
