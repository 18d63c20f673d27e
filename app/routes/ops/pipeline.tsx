// /ops/pipeline: the health of the pipelines: texts out and in, emails and campaign fires, per provider:
// waiting now, being retried, failed in the last 24 hours, set aside, and the oldest waiting item.
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/pipeline";
import { PageHeader } from "~/components/ui";
import { getDeps } from "~/lib/context.server";
import { requireOperator } from "~/lib/ops-auth.server";
import { formatLongDate } from "~/lib/uk-time";
import { pipelineHealth } from "~/domain/ops/health.server";
import { usePagePoll } from "~/components/use-page-poll";

export const handle = { titleKey: "ops.pipeline.title" };

export async function loader({ context }: Route.LoaderArgs) {
  requireOperator(context);
  const { db, config, now } = getDeps(context);
  return { rows: await pipelineHealth(db, { sms: config.smsProvider, email: config.email.provider }, now()), at: now().toISOString() };
}

export default function OpsPipeline({ loaderData: { rows, at } }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  usePagePoll(10_000);
  return (
    <>
      <PageHeader title={t("ops.pipeline.title")} lead={t("ops.pipeline.lead", { at: formatLongDate(at, i18n.language) })} />
      <div className="table-wrap">
        <table className="ops-table">
          <caption className="visually-hidden">{t("ops.pipeline.title")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("ops.pipeline.channel")}</th>
              <th scope="col">{t("ops.pipeline.provider")}</th>
              <th scope="col" className="num">
                {t("ops.pipeline.waiting")}
              </th>
              <th scope="col" className="num">
                {t("ops.pipeline.retrying")}
              </th>
              <th scope="col" className="num">
                {t("ops.pipeline.failed")}
              </th>
              <th scope="col" className="num">
                {t("ops.pipeline.setAside")}
              </th>
              <th scope="col">{t("ops.pipeline.oldest")}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.channel} data-channel={r.channel}>
                <th scope="row">{t(`ops.pipeline.channels.${r.channel}`)}</th>
                <td>{r.provider}</td>
                <td className="num">{r.waiting}</td>
                <td className="num">{r.retrying}</td>
                <td className="num">{r.failed24h}</td>
                <td className="num">{r.setAside}</td>
                <td>{r.oldestWaitingAt ? formatLongDate(r.oldestWaitingAt, i18n.language) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="small muted">{t("ops.pipeline.notes")}</p>
    </>
  );
}
