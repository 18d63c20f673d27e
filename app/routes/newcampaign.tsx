// /newcampaign: choose what kind of campaign to run. Each type, with one line on what it does and whether it
// happens once or keeps running, links to its own create page.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Icon, PageHeader } from "~/components/ui";
import { CAMPAIGN_TYPES, TYPE_KINDS, TYPE_PATHS } from "~/domain/campaigns/model";

export const handle = { titleKey: "campaigns.meta.newTitle", descriptionKey: "campaigns.meta.newDescription", permission: "campaigns:manage" };

export default function NewCampaign() {
  const { t } = useTranslation();
  return (
    <div className="stack nc-page">
      <PageHeader title={t("campaigns.meta.newTitle")} lead={t("campaigns.new.lead")} />
      <ul className="nc-types list-reset">
        {CAMPAIGN_TYPES.map((type) => (
          <li key={type}>
            <Link to={TYPE_PATHS[type]} className="nc-type">
              <span className="nc-type__icon">
                <Icon name="campaign" />
              </span>
              <span className="nc-type__text">
                <span className="nc-type__name">{t(`campaigns.types.${type}.name`)}</span>
                <span className="nc-type__line">{t(`campaigns.types.${type}.line`)}</span>
                <span className="nc-type__kind">{t(`campaigns.kind.${TYPE_KINDS[type]}`)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
      <p>
        <Link to="/campaigns">{t("campaigns.new.back")}</Link>
      </p>
    </div>
  );
}
