// /referral: the business's referral code and link, what a referral is worth, and the businesses it referred
// with where each discount stands (pending until they pay their first month, then awarded, then redeemed on
// an invoice).
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/referral";
import { Badge } from "~/components/choices";
import { EmptyState, PageHeader, Panel } from "~/components/ui";
import { formatBillingDate, formatPounds } from "~/domain/billing/money";
import { listReferrals } from "~/domain/billing/referrals.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export const handle = { titleKey: "billing.referral.metaTitle", descriptionKey: "billing.referral.metaDescription" };

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, config } = getDeps(context);
  const b = await db.selectFrom("businesses").select("referral_code").where("id", "=", user.businessId).executeTakeFirstOrThrow();
  return {
    code: b.referral_code,
    link: `${config.publicUrl}/signup-form/${encodeURIComponent(b.referral_code)}`,
    amountPence: config.billing.referralDiscountPence ?? 0,
    referrals: await listReferrals(db, user.businessId),
  };
}

const TONES = { pending: "neutral", awarded: "green", redeemed: "info" } as const;

export default function Referral({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { code, link, amountPence, referrals } = loaderData;
  const lng = i18n.language;
  const amount = formatPounds(amountPence, lng);
  return (
    <>
      <PageHeader title={t("billing.referral.title")} lead={amountPence > 0 ? t("billing.referral.lead", { amount }) : t("billing.referral.leadNoDiscount")} />
      <Panel title={t("billing.referral.yourCode")} id="code">
        <dl className="billing-facts">
          <div>
            <dt>{t("billing.referral.code")}</dt>
            <dd className="referral-code">{code}</dd>
          </div>
          <div>
            <dt>{t("billing.referral.link")}</dt>
            <dd className="referral-link">
              <a href={link}>{link}</a>
            </dd>
          </div>
        </dl>
        <p className="field__hint">{t("billing.referral.howTo")}</p>
      </Panel>
      <Panel title={t("billing.referral.list")} id="referrals">
        {referrals.length === 0 ? (
          <EmptyState title={t("billing.referral.empty")} />
        ) : (
          <ul className="referral-list">
            {referrals.map((r) => (
              <li key={r.id} className="referral-list__item">
                <p>
                  <strong>{r.name}</strong> <Badge tone={TONES[r.state]}>{t(`billing.referral.state.${r.state}`)}</Badge>
                </p>
                <p className="referral-list__meta">
                  {t("billing.referral.joined", { date: formatBillingDate(r.joinedAt, lng) })}
                  {" · "}
                  {r.state === "pending"
                    ? t("billing.referral.pendingHint")
                    : r.state === "awarded"
                      ? t("billing.referral.awardedHint", { amount: formatPounds(r.amountPence ?? 0, lng) })
                      : t("billing.referral.redeemedHint", { amount: formatPounds(r.amountPence ?? 0, lng), date: formatBillingDate(r.redeemedAt!, lng) })}
                </p>
              </li>
            ))}
          </ul>
        )}
      </Panel>
    </>
  );
}
