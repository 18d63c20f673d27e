// Confirm and delete a pending group message (ui.md: a confirmation step that works as a plain form).
// Its credits are refunded; BR015 once it has been issued.
import { useTranslation } from "react-i18next";
import { data, Link, redirect, useActionData, useLoaderData } from "react-router";
import { setToast } from "remix-toast/middleware";
import type { Route } from "./+types/groupmessages.$messageId.delete";
import { ActorLine } from "~/components/group-messages";
import { AppForm, FormErrors } from "~/components/form";
import { Button, PageHeader } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { deleteGroupMessage, getGroupMessage } from "~/domain/group-messages/group-messages.server";
import { truncateText } from "~/domain/home/format";

export const handle = { titleKey: "groupmessages.meta.deleteTitle", descriptionKey: "groupmessages.meta.deleteDescription" };

async function load(context: Route.LoaderArgs["context"], id: string) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  return { user, msg: await orNotFound(getGroupMessage(db, user.businessId, Number(id), now())) };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  return { msg: (await load(context, params.messageId)).msg };
}

export async function action({ params, context }: Route.ActionArgs) {
  const { user, msg } = await load(context, params.messageId);
  try {
    await deleteGroupMessage(getDeps(context), { businessId: user.businessId, messageId: msg.id, actorId: user.userId });
    setToast(context, { type: "success", message: "groupmessages.toast.deleted" });
    return redirect(`/groupmessages?groupId=${msg.groupId}`);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ errors: [errorMessage(error)] }, { status: error.status });
  }
}

export default function DeleteGroupMessage() {
  const { t } = useTranslation();
  const { msg } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="stack gm-page">
      <PageHeader title={t("groupmessages.delete.title")} lead={t("groupmessages.delete.lead", { credits: msg.credits })} />
      <blockquote className="gm-quote">{truncateText(msg.body, 300)}</blockquote>
      <ActorLine createdBy={msg.createdBy} updatedBy={msg.updatedBy} />
      <FormErrors errors={actionData?.errors} />
      <AppForm className="form">
        <Button variant="destructive">{t("groupmessages.delete.confirm")}</Button>
      </AppForm>
      <p>
        <Link to={`/groupmessages?groupId=${msg.groupId}`}>{t("groupmessages.delete.cancel")}</Link>
      </p>
    </div>
  );
}
