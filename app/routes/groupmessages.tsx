// /groupmessages?groupId=…: one group's messages (scheduled, sending soon, sending, sent, failed)
// with their counts (members, sent, delivered, failed, replies); pending ones can be changed or deleted.
// groupId -1 = all subscribers. Another business's group id answers 404.
import { useTranslation } from "react-i18next";
import { data, Link, useLoaderData } from "react-router";
import type { Route } from "./+types/groupmessages";
import { GroupMessageList } from "~/components/group-messages";
import { ButtonLink, EmptyState, PageHeader, Pagination } from "~/components/ui";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { findGroup } from "~/domain/group-messages/groups.server";
import { countPendingGroupMessages, listGroupMessages } from "~/domain/group-messages/group-messages.server";

export const handle = { titleKey: "groupmessages.meta.listTitle", descriptionKey: "groupmessages.meta.listDescription" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const url = new URL(request.url);
  const raw = url.searchParams.get("groupId") ?? "-1";
  const groupId = Number(raw);
  if (!/^-?\d{1,15}$/.test(raw)) throw data(null, { status: 404 });
  const group = await findGroup(db, user.businessId, groupId);
  if (!group) throw data(null, { status: 404 });
  const page = Math.max(1, Math.min(100_000, Number(url.searchParams.get("page")) || 1));
  const list = await listGroupMessages(db, user.businessId, { groupId, page }, now());
  return { group, ...list, pending: await countPendingGroupMessages(db, user.businessId, groupId) };
}

export default function GroupMessages() {
  const { t } = useTranslation();
  const { group, rows, page, pageCount, pending } = useLoaderData<typeof loader>();
  const name = group.name ?? t("groupmessages.allSubscribers");
  return (
    <div className="stack gm-page">
      <PageHeader
        title={t("groupmessages.list.forGroup", { group: name })}
        lead={`${t("groupmessages.list.pending")}: ${pending}`}
        actions={<ButtonLink to="/newgroupmessage">{t("groupmessages.list.new")}</ButtonLink>}
      />
      <p>
        <Link to="/allgroupmessages">{t("groupmessages.list.all")}</Link>
      </p>
      {rows.length === 0 ? (
        <EmptyState title={t("groupmessages.list.emptyTitle")} body={t("groupmessages.list.emptyBody")} action={<ButtonLink to="/newgroupmessage">{t("groupmessages.list.new")}</ButtonLink>} />
      ) : (
        <>
          <GroupMessageList rows={rows} />
          <p className="small">{t("groupmessages.list.repliesHint")}</p>
          <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/groupmessages?groupId=${group.id}&page=${p}`} />
        </>
      )}
    </div>
  );
}
