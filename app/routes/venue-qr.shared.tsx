// The printable QR page shared by the check-in (/checkinqrcode) and customer experience (/customerexpqrcode)
// screens: an A4 poster or a table card (?size=card), the QR code that opens a text with the keyword to the business
// number, the keyword and number written out beside it, and links to the SVG and PNG downloads.
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useHasScreen } from "~/components/app-shell";
import { PageHeader, Panel } from "~/components/ui";
import type { QrNotConfigured, QrPageData } from "./venue-qr.server";

/** A Print button, drawn only once JavaScript runs (without it the hint says to use the browser's Print). */
function PrintButton({ label }: { label: string }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <button type="button" className="btn btn--primary" onClick={() => window.print()}>
      {label}
    </button>
  );
}

/** The page a QR screen shows before the business runs a campaign of its type (BR005 for the survey). */
function NotConfigured({ type }: { type: QrNotConfigured["type"] }) {
  const { t } = useTranslation();
  const checkin = type === "CHECKIN";
  return (
    <>
      <PageHeader title={t(checkin ? "venue.qr.checkinTitle" : "venue.qr.surveyTitle")} />
      <Panel id="qr-not-configured">
        <p>{checkin ? t("venue.qr.checkinNotConfigured") : t("errors.BR005")}</p>
        <p>
          <Link className="btn btn--primary" to={checkin ? "/checkin" : "/customerexp"}>
            {t(checkin ? "venue.qr.setUpCheckin" : "venue.qr.setUpSurvey")}
          </Link>
        </p>
      </Panel>
    </>
  );
}

export function QrPage({ d }: { d: QrPageData | QrNotConfigured }) {
  if ("notConfigured" in d) return <NotConfigured type={d.type} />;
  return <QrSheet d={d} />;
}

function QrSheet({ d }: { d: QrPageData }) {
  const { t } = useTranslation();
  const hasScreen = useHasScreen();
  const checkin = d.type === "CHECKIN";
  const path = checkin ? "/checkinqrcode" : "/customerexpqrcode";
  const sizeLink = (size: "poster" | "card") => `${path}?id=${d.id}${size === "card" ? "&size=card" : ""}`;
  return (
    <>
      <div className="no-print">
        <PageHeader
          title={t(checkin ? "venue.qr.checkinTitle" : "venue.qr.surveyTitle")}
          lead={t(checkin ? "venue.qr.checkinLead" : "venue.qr.surveyLead")}
          actions={<PrintButton label={t("venue.qr.print")} />}
        />
        <p className="muted">{t("venue.qr.campaign", { name: d.campaignName })}</p>
        <nav className="venue-qr__sizes" aria-label={t("venue.qr.size")}>
          <span>{t("venue.qr.size")}:</span>
          {(["poster", "card"] as const).map((size) => (
            <Link key={size} to={sizeLink(size)} className={`venue-qr__size${d.size === size ? " venue-qr__size--active" : ""}`} aria-current={d.size === size ? "page" : undefined}>
              {t(`venue.qr.${size}`)}
            </Link>
          ))}
        </nav>
      </div>
      <section className={`venue-qr venue-qr--${d.size}`} aria-label={t(`venue.qr.${d.size}`)}>
        {d.number && d.svg ? (
          <div className="venue-qr__sheet">
            <h2 className="venue-qr__heading">{t(checkin ? "venue.qr.checkinHeading" : "venue.qr.surveyHeading", { business: d.businessName })}</h2>
            <p className="venue-qr__instruction">{t(checkin ? "venue.qr.checkinText" : "venue.qr.surveyText", { keyword: d.keyword, number: d.number, business: d.businessName })}</p>
            <figure className="venue-qr__code">
              <div role="img" aria-label={t("venue.qr.qrLabel", { keyword: d.keyword, number: d.number })} dangerouslySetInnerHTML={{ __html: d.svg }} />
              <figcaption>{t("venue.qr.scan")}</figcaption>
            </figure>
            <p className="venue-qr__manual">
              <span>{t("venue.qr.orText")}</span> <strong className="venue-qr__keyword">{d.keyword}</strong> <span>{t("venue.qr.to")}</span>{" "}
              <strong className="venue-qr__number">{d.number}</strong>
            </p>
            <p className="venue-qr__small">{t(checkin ? "venue.qr.checkinSmall" : "venue.qr.surveySmall")}</p>
          </div>
        ) : (
          <p>{t("venue.qr.noNumber")}</p>
        )}
      </section>
      <div className="no-print stack venue-qr__after">
        <p className="muted">{t("venue.qr.printHint")}</p>
        {d.sms ? (
          <>
            <h2 className="venue-qr__subheading">{t("venue.qr.download")}</h2>
            <ul className="venue-qr__downloads">
              <li>
                <a href={`${path}/download?id=${d.id}&format=svg`} download>
                  {t("venue.qr.svg")}
                </a>
              </li>
              <li>
                <a href={`${path}/download?id=${d.id}&format=png`} download>
                  {t("venue.qr.png")}
                </a>
              </li>
            </ul>
            <p>
              <a href={d.sms}>{t("venue.qr.tryLink")}</a>
            </p>
          </>
        ) : null}
        {hasScreen("/campaigns") ? (
          <p>
            <Link to={`/viewcampaign?id=${d.id}`}>{t("venue.qr.back")}</Link>
          </p>
        ) : null}
      </div>
    </>
  );
}
