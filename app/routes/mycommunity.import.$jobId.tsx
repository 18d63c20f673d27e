// Member import, step 2 and 3: map each column to a member detail, see the first rows, confirm the
// business holds consent, import; then the report (added, updated, skipped and why). While an import
// runs the page refreshes itself (meta refresh: works without JavaScript).
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/mycommunity.import.$jobId";
import { AppForm } from "~/components/form";
import { Banner, Button, ButtonLink, PageHeader, Panel } from "~/components/ui";
import { getImportJob, mappingView, reportOf, runImport } from "~/domain/import/import.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { AppError } from "~/lib/errors";

export const handle = { titleKey: "import.meta.mapTitle", descriptionKey: "import.meta.mapDescription" };

function jobIdOf(raw: string | undefined): number {
  if (!/^[0-9]{1,15}$/.test(raw ?? "")) throw data(null, { status: 404 });
  return Number(raw);
}


export async function loader({ params, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const job = await orNotFound(getImportJob(db, user.businessId, jobIdOf(params.jobId)));
  const base = { id: job.id, status: job.status, filename: job.filename, total: job.total_rows, processed: job.processed_rows };
  if (job.status === "MAPPING") return { ...base, view: await mappingView(db, user.businessId, job), result: null };
  return { ...base, view: null, result: { added: job.added, updated: job.updated, skipped: job.skipped, report: reportOf(job), error: job.error } };
}

export const meta: Route.MetaFunction = ({ data: d }) => (d && (d.status === "QUEUED" || d.status === "RUNNING") ? [{ httpEquiv: "refresh", content: "2" }] : []);

export async function action({ params, request, context }: Route.ActionArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const jobId = jobIdOf(params.jobId);
  await orNotFound(getImportJob(db, user.businessId, jobId));
  const form = await request.formData();
  const mapping: string[] = [];
  for (let i = 0; i < 50; i++) {
    const v = form.get(`column${i}`);
    if (v === null) break;
    mapping.push(typeof v === "string" ? v.slice(0, 30) : "");
  }
  try {
    const job = await runImport(db, { businessId: user.businessId, jobId, mapping, consent: form.get("consent") === "yes", now: now() });
    setToast(context, { type: "success", message: "import.done" });
    return redirect(`/mycommunity/import/${job.id}`);
  } catch (error) {
    if (error instanceof AppError && error.status < 500 && error.code !== "NF001") {
      const key = error.field === "consent" ? "consent" : error.data?.attribute === "phone" ? "noPhone" : "mapping";
      return data({ error: key, mapping }, { status: 400 });
    }
    throw error;
  }
}

export default function ImportJob({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  const actionData = useActionData<typeof action>();
  if (d.view) {
    const v = d.view;
    const chosen = actionData?.mapping ?? v.guesses;
    return (
      <>
        <PageHeader title={t("import.map.title")} lead={t("import.map.lead", { count: d.total, file: d.filename })} actions={<Link to="/mycommunity/import">{t("import.startAgain")}</Link>} />
        <AppForm className="form import-map">
          {actionData?.error ? (
            <div className="banner banner--error" role="alert">
              {t(`import.errors.${actionData.error}`)}
            </div>
          ) : null}
          <Panel title={t("import.map.columns")} id="columns">
            <div className="table-scroll">
              <table className="import-preview">
                <caption>{t("import.map.caption")}</caption>
                <thead>
                  <tr>
                    {v.header.map((h, i) => (
                      <th key={i} scope="col">
                        <label htmlFor={`column${i}`}>{h || t("import.map.untitled", { n: i + 1 })}</label>
                        <select id={`column${i}`} name={`column${i}`} defaultValue={chosen[i] ?? ""}>
                          <option value="">{t("import.map.skip")}</option>
                          {v.targets.map((o) => (
                            <option key={o.value} value={o.value}>
                              {o.custom ? o.label : t(`import.targets.${o.label}`)}
                            </option>
                          ))}
                        </select>
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {v.preview.map((row, r) => (
                    <tr key={r}>
                      {row.map((cell, c) => (
                        <td key={c}>{cell}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </Panel>
          <Panel title={t("import.consent.title")} id="consent">
            <div className={`field${actionData?.error === "consent" ? " field--invalid" : ""}`}>
              <label className="choice">
                <input type="checkbox" name="consent" value="yes" required />
                <span>{t("import.consent.label")}</span>
              </label>
            </div>
            <p className="field__hint">{t("import.consent.hint")}</p>
            <Button>{t("import.map.submit", { count: d.total })}</Button>
          </Panel>
        </AppForm>
      </>
    );
  }
  const r = d.result;
  const running = d.status === "QUEUED" || d.status === "RUNNING";
  return (
    <>
      <PageHeader title={t("import.report.title")} lead={d.filename} actions={<ButtonLink to="/mycommunity">{t("import.back")}</ButtonLink>} />
      {running ? (
        <Banner tone="info">{t("import.report.running", { processed: d.processed, total: d.total })}</Banner>
      ) : d.status === "FAILED" ? (
        <Banner tone="error">{t("import.report.failed")}</Banner>
      ) : (
        <Panel title={t("import.report.summary")} id="summary">
          <ul className="import-summary">
            <li>{t("import.report.added", { count: r.added })}</li>
            <li>{t("import.report.updated", { count: r.updated })}</li>
            <li>{t("import.report.skipped", { count: r.skipped })}</li>
          </ul>
          {Object.entries(r.report.reasons).length ? (
            <>
              <h3>{t("import.report.why")}</h3>
              <ul>
                {Object.entries(r.report.reasons).map(([reason, n]) => (
                  <li key={reason}>{t(`import.reasons.${reason}`, { count: n })}</li>
                ))}
              </ul>
              <details>
                <summary>{t("import.report.rows")}</summary>
                <ul>
                  {r.report.skippedRows.map((s) => (
                    <li key={s.row}>{t("import.report.row", { row: s.row, reason: t(`import.rowReasons.${s.reason}`) })}</li>
                  ))}
                </ul>
              </details>
            </>
          ) : null}
        </Panel>
      )}
    </>
  );
}
