// The check-in export (/checkinexport?id=N): "Generate" asks for a CSV of the last 21 days of a check-in
// campaign's visits, made in the background by the worker; the page lists the campaign's files with their state
// and refreshes itself while one is waiting or being made (a meta refresh: no JavaScript needed). A ready file
// downloads, and its share link (/checkinshare/{fileRef}) can be copied. Another business's id is a 404; a
// campaign type that has no export answers BR041.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/checkinexport";
import { useHasScreen } from "~/components/app-shell";
import { AppForm, translateError } from "~/components/form";
import { Banner, Button, EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { EXPORT_PAGE_SIZE, exportableCampaign, listExportFiles, requestCheckinExport } from "~/domain/exports/exports.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "venue.meta.exportTitle", descriptionKey: "venue.meta.exportDescription", permission: "campaigns:manage" } as const;

/** While a file is on its way the page reloads itself every few seconds, with or without JavaScript. */
export const meta: Route.MetaFunction = ({ data: d }) => (d && "working" in d && d.working ? [{ httpEquiv: "refresh", content: "3" }] : []);

function campaignIdFrom(request: Request): number {
  const raw = new URL(request.url).searchParams.get("id") ?? "";
  const id = Number(raw);
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(id) || id <= 0) throw data(null, { status: 404 });
  return id;
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  const id = campaignIdFrom(request);
  let campaign;
  try {
    campaign = await exportableCampaign(db, user.businessId, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "BR041") return data({ unsupported: true as const, error: errorMessage(error) }, { status: 400 });
    throw error;
  }
  if (!campaign) throw data(null, { status: 404 });
  const pageRaw = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const page = Number.isSafeInteger(pageRaw) && pageRaw > 0 && pageRaw < 10_000 ? pageRaw : 1;
  const { items, total } = await listExportFiles(db, user.businessId, campaign.id, page);
  return {
    unsupported: false as const,
    id: campaign.id,
    name: campaign.name,
    page,
    pageCount: Math.max(1, Math.ceil(total / EXPORT_PAGE_SIZE)),
    working: items.some((f) => f.status === "PENDING" || f.status === "CREATING"),
    shareBase: `${config.publicUrl}/checkinshare/`,
    files: items,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const id = campaignIdFrom(request);
  try {
    const made = await requestCheckinExport(db, user.businessId, id, now());
    setToast(context, { type: "success", message: made.created ? "venue.export.requested" : "venue.export.already" });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw data(null, { status: 404 });
    return data({ error: errorMessage(error) }, { status: error.status });
  }
  return redirect(`/checkinexport?id=${id}`);
}

/** Copies the share link: drawn only once JavaScript runs; without it the link is there to select and copy. */
function CopyButton({ text, label, done }: { text: string; label: string; done: string }) {
  const [ready, setReady] = useState(false);
  const [copied, setCopied] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready || typeof navigator === "undefined" || !navigator.clipboard) return null;
  return (
    <button
      type="button"
      className="btn btn--secondary"
      onClick={() => {
        void navigator.clipboard.writeText(text).then(() => setCopied(true));
      }}
    >
      <span aria-live="polite">{copied ? done : label}</span>
    </button>
  );
}

export default function CheckinExport({ loaderData: d }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>();
  const hasScreen = useHasScreen();
  // The campaign's own page comes with the campaigns list.
  const back = hasScreen("/campaigns") ? (
    <p>
      <Link to={d.unsupported ? "/campaigns" : `/viewcampaign?id=${d.id}`}>{t(d.unsupported ? "venue.export.backList" : "venue.export.back")}</Link>
    </p>
  ) : null;
  if (d.unsupported) {
    return (
      <>
        <PageHeader title={t("venue.export.unsupportedTitle")} />
        <Banner tone="error">{translateError(t, d.error)}</Banner>
        {back}
      </>
    );
  }
  const lng = i18n.language;
  return (
    <>
      <PageHeader title={t("venue.export.title")} lead={t("venue.export.lead", { name: d.name })} />
      <div className="stack">
        {actionData?.error ? (
          <div className="banner banner--error" role="alert">
            {translateError(t, actionData.error)}
          </div>
        ) : null}
        <AppForm method="post" className="venue-export__generate">
          <Button>{t("venue.export.generate")}</Button>
          <p className="muted">{t("venue.export.generateHint")}</p>
        </AppForm>
        <Panel title={t("venue.export.files")} id="files">
          {d.files.length === 0 ? (
            <EmptyState title={t("venue.export.none")} body={t("venue.export.noneBody")} />
          ) : (
            <ul className="venue-export__files">
              {d.files.map((f) => {
                const link = d.shareBase + f.fileRef;
                return (
                  <li key={f.id} className="venue-export__file">
                    <div className="venue-export__head">
                      <span>{formatLongDate(f.createdAt, lng)}</span>
                      <span className={`venue-export__state venue-export__state--${f.status.toLowerCase()}`}>{t(`venue.export.status.${f.status}`)}</span>
                    </div>
                    {f.status === "PENDING" || f.status === "CREATING" ? (
                      <p role="status" className="venue-export__progress">
                        <progress aria-label={t("venue.export.progress")} /> {t("venue.export.progress")}
                      </p>
                    ) : null}
                    {f.status === "FAILED" ? <p className="field__errors">{t("venue.export.failed")}</p> : null}
                    {f.status === "AVAILABLE" ? (
                      <>
                        <dl className="venue-export__facts">
                          <dt>{t("venue.export.rows")}</dt>
                          <dd>{f.rows ?? 0}</dd>
                          <dt>{t("venue.export.expires")}</dt>
                          <dd>{formatLongDate(f.expiresAt, lng)}</dd>
                        </dl>
                        <div className="venue-export__actions">
                          <a className="btn btn--primary" href={`/checkinshare/${f.fileRef}/download`} download>
                            {t("venue.export.download")}
                          </a>
                          <CopyButton text={link} label={t("venue.export.copy")} done={t("venue.export.copied")} />
                        </div>
                        <div className="field">
                          <label htmlFor={`share-${f.id}`}>{t("venue.export.link")}</label>
                          <p className="field__hint" id={`share-${f.id}-hint`}>
                            {t("venue.export.linkHint")}
                          </p>
                          <input id={`share-${f.id}`} type="url" readOnly value={link} aria-describedby={`share-${f.id}-hint`} />
                        </div>
                      </>
                    ) : null}
                  </li>
                );
              })}
            </ul>
          )}
          {d.pageCount > 1 ? <Pagination page={d.page} pageCount={d.pageCount} hrefFor={(p) => `/checkinexport?id=${d.id}&page=${p}#files`} /> : null}
        </Panel>
        {back}
      </div>
    </>
  );
}
