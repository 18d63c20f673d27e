// /allgroupmessages: group messages across every group, newest first, with their counts; the home
// tile "pending group messages" leads here.
import { useTranslation } from "react-i18next";
import { useLoaderData } from "react-router";
import type { Route } from "./+types/allgroupmessages";
import { GroupMessageList } from "~/components/group-messages";
import { ButtonLink, EmptyState, PageHeader, Pagination } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { countPendingGroupMessages, listGroupMessages } from "~/domain/group-messages/group-messages.server";

export const handle = { titleKey: "groupmessages.meta.allTitle", descriptionKey: "groupmessages.meta.allDescription" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const page = Math.max(1, Math.min(100_000, Number(new URL(request.url).searchParams.get("page")) || 1));
  const list = await listGroupMessages(db, user.businessId, { page }, now());
  return { ...list, pending: await countPendingGroupMessages(db, user.businessId) };
}

export default function AllGroupMessages() {
  const { t } = useTranslation();
  const { rows, page, pageCount, pending } = useLoaderData<typeof loader>();
  return (
    <div className="stack gm-page">
      <PageHeader
        title={t("groupmessages.list.allTitle")}
        lead={`${t("groupmessages.list.pending")}: ${pending}`}
        actions={<ButtonLink to="/newgroupmessage">{t("groupmessages.list.new")}</ButtonLink>}
      />
      {rows.length === 0 ? (
        <EmptyState title={t("groupmessages.list.emptyTitle")} body={t("groupmessages.list.emptyBody")} action={<ButtonLink to="/newgroupmessage">{t("groupmessages.list.new")}</ButtonLink>} />
      ) : (
        <>
          <GroupMessageList rows={rows} showGroup />
          <p className="small">{t("groupmessages.list.repliesHint")}</p>
          <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/allgroupmessages?page=${p}`} />
        </>
      )}
    </div>
  );
}
