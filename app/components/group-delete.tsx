// The delete-group step shared by the list and smart group pages: a quiet button, then a question
// that says what deleting does (pending messages are not sent, their credits come back) before the
// group goes. Works as a plain form without JavaScript and as a dialog with it.
import { useTranslation } from "react-i18next";
import { ConfirmAction } from "~/components/confirm";

/** Delete, after a confirmation that names the messages to the group that have not gone yet. */
export function DeleteGroup({ pending, confirm }: { pending: number; confirm: boolean }) {
  const { t } = useTranslation();
  return (
    <div className="delete-group">
      <ConfirmAction
        id="delete-group"
        trigger={t("groups.delete.submit")}
        title={t("groups.delete.question")}
        confirmLabel={pending > 0 ? t("groups.delete.confirm") : t("groups.delete.submit")}
        fields={{ intent: "delete", confirm: "yes" }}
        open={confirm}
      >
        <p>{t("groups.delete.warning", { count: pending })}</p>
      </ConfirmAction>
    </div>
  );
}
