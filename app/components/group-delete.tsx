// The delete-group form shared by the list and smart group pages (deleting a group with pending
// messages warns that they will not be sent; the hidden confirm makes the next press delete them).
import { useTranslation } from "react-i18next";
import { AppForm } from "~/components/form";
import { Banner, Button } from "~/components/ui";

/** Delete, with the warning when messages to the group have not gone yet. */
export function DeleteGroup({ pending, confirm }: { pending: number; confirm: boolean }) {
  const { t } = useTranslation();
  return (
    <AppForm className="form delete-group">
      <input type="hidden" name="intent" value="delete" />
      {confirm || pending > 0 ? (
        <Banner tone="warning" title={t("groups.delete.warningTitle")}>
          {t("groups.delete.warning", { count: pending })}
        </Banner>
      ) : null}
      {pending > 0 ? <input type="hidden" name="confirm" value="yes" /> : null}
      <Button variant="destructive">{pending > 0 ? t("groups.delete.confirm") : t("groups.delete.submit")}</Button>
    </AppForm>
  );
}
