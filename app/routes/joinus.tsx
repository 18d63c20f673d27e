// Join-us: the business's keyword and number, a printable QR code that opens a text to the number
// with the keyword filled in, and the public web sign-up link (with its own QR code). The page prints
// as a poster (print styles hide the app around it).
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/joinus";
import { PageHeader, Panel } from "~/components/ui";
import { joinInfo, qrSvg, smsLink } from "~/domain/groups/join.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { formatUkNumber } from "~/lib/phone";

export const handle = { titleKey: "joinus.meta.title", descriptionKey: "joinus.meta.description" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  const info = await joinInfo(db, user.businessId);
  const webLink = `${config.publicUrl}/join/${encodeURIComponent(info.slug)}`;
  const sms = info.phoneNumber ? smsLink(info.phoneNumber, info.keyword) : null;
  return {
    businessName: info.businessName,
    keyword: info.keyword,
    number: info.phoneNumber ? formatUkNumber(info.phoneNumber) : null,
    sms,
    smsQr: sms ? await qrSvg(sms) : null,
    webLink,
    webQr: await qrSvg(webLink),
  };
}

export default function JoinUs({ loaderData: d }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <>
      <div className="no-print">
        <PageHeader title={t("joinus.title")} lead={t("joinus.lead")} />
      </div>
      <div className="joinus stack">
        <Panel className="joinus__poster" title={t("joinus.poster.title", { business: d.businessName })} id="poster">
          {d.number && d.smsQr ? (
            <>
              <p className="joinus__instruction">{t("joinus.poster.text", { keyword: d.keyword, number: d.number })}</p>
              <p className="joinus__keyword">
                <strong>{d.keyword}</strong> → <strong>{d.number}</strong>
              </p>
              <figure className="joinus__qr">
                <div role="img" aria-label={t("joinus.poster.qrLabel", { keyword: d.keyword, number: d.number })} dangerouslySetInnerHTML={{ __html: d.smsQr }} />
                <figcaption>{t("joinus.poster.scan")}</figcaption>
              </figure>
              <p className="joinus__stop">{t("joinus.poster.stop")}</p>
            </>
          ) : (
            <p>{t("joinus.noNumber")}</p>
          )}
        </Panel>
        <Panel className="joinus__web" title={t("joinus.web.title")} id="web-link">
          <p>{t("joinus.web.text")}</p>
          <p>
            <a href={d.webLink} className="joinus__link">
              {d.webLink}
            </a>
          </p>
          <figure className="joinus__qr joinus__qr--small">
            <div role="img" aria-label={t("joinus.web.qrLabel")} dangerouslySetInnerHTML={{ __html: d.webQr }} />
          </figure>
        </Panel>
        <p className="no-print muted">{t("joinus.print")}</p>
        {d.sms ? (
          <p className="no-print">
            <a href={d.sms}>{t("joinus.tryLink")}</a>
          </p>
        ) : null}
      </div>
    </>
  );
}
