// /groupmessages/{id}/leftout: the members a group message was not sent to because the credit ran out (the
// owner chose to send to the first N on the preview step). A page at a time; another business's message is a 404.
import { useTranslation } from "react-i18next";
import { data, Link } from "react-router";
import type { Route } from "./+types/groupmessages.$messageId.leftout";
import { MergeText } from "~/components/merge-text";
import { EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { listLeftOut } from "~/domain/group-messages/group-messages.server";
import { truncateText } from "~/domain/home/format";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { orNotFound } from "~/lib/not-found.server";

export const handle = { titleKey: "partialsend.page.title", descriptionKey: "partialsend.meta.description" };

export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  if (!/^\d{1,12}$/.test(params.messageId ?? "")) throw data(null, { status: 404 });
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  return orNotFound(listLeftOut(db, user.businessId, Number(params.messageId), Number.isFinite(page) ? page : 1));
}

export default function LeftOut({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { message, members, page, pageCount } = loaderData;
  const fmt = (n: number) => n.toLocaleString(i18n.language === "fr" ? "fr-FR" : "en-GB");
  return (
    <>
      <PageHeader title={t("partialsend.page.title")} lead={t("partialsend.page.lead", { count: message.leftOut, sent: fmt(message.recipients) })} />
      <Panel title={t("partialsend.page.text")} id="leftout-text">
        <p className="gm-list__text">
          <MergeText text={truncateText(message.body, 320)} />
        </p>
      </Panel>
      <Panel title={t("partialsend.page.title")} id="leftout">
        {members.length === 0 ? (
          <EmptyState title={t("partialsend.page.title")} />
        ) : (
          <div className="table-wrap" role="group" aria-labelledby="leftout-title" tabIndex={0}>
            <table>
              <thead>
                <tr>
                  <th scope="col">{t("partialsend.page.member")}</th>
                  <th scope="col">{t("partialsend.page.phone")}</th>
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.id} data-testid="left-out-member">
                    <td data-label={t("partialsend.page.member")}>{m.name}</td>
                    <td className="nowrap" data-label={t("partialsend.page.phone")}>{m.phone}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/groupmessages/${message.id}/leftout?page=${p}`} />
      </Panel>
      <p>
        <Link to={`/groupmessages?groupId=${message.groupId ?? -1}`}>{t("partialsend.page.back")}</Link>
        {" · "}
        <Link to="/changesubscription">{t("partialsend.page.increase")}</Link>
      </p>
    </>
  );
}
