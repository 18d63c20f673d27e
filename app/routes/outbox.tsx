// The email outbox (no login, like the SMS simulator): every email the app has sent through the embedded
// outbox, newest first, with its text and attachments. Nothing leaves the machine. 404 unless
// EMAIL_PROVIDER=outbox and the simulators are served on this address.
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import type { Route } from "./+types/outbox";
import { Badge } from "~/components/choices";
import { EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { listEmails } from "~/domain/email/email.server";
import { getDeps } from "~/lib/context.server";
import { formatLongDate } from "~/lib/uk-time";

export const handle = { titleKey: "email.meta.title", descriptionKey: "email.meta.description" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  if (!config.email.outboxServed) throw data(null, { status: 404 });
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const list = await listEmails(db, Number.isFinite(page) ? page : 1);
  return { ...list, pageCount: list.hasMore ? list.page + 1 : list.page };
}

const TONES = { QUEUED: "yellow", SENDING: "yellow", SENT: "green", FAILED: "red" } as const;

export default function Outbox({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const { emails, page, pageCount } = loaderData;
  return (
    <>
      <header className="sim-ribbon">
        <p>{t("email.ribbon")}</p>
      </header>
      <main className="page stack outbox" id="main">
        <PageHeader title={t("email.title")} lead={t("email.lead")} />
        <Panel>
          {emails.length === 0 ? (
            <EmptyState title={t("email.empty")} />
          ) : (
            <ul className="outbox__list">
              {emails.map((e) => (
                <li key={e.id} className="outbox__item">
                  <details>
                    <summary>
                      <span className="outbox__subject">{e.subject}</span>{" "}
                      <Badge tone={TONES[e.status]}>{t(`email.status.${e.status}`)}</Badge>
                      <span className="outbox__meta">
                        {t("email.to", { to: e.to })} · {formatLongDate(e.sentAt ?? e.createdAt, i18n.language)}
                      </span>
                    </summary>
                    <pre className="outbox__body">{e.text}</pre>
                    {e.attachments.length ? (
                      <ul className="outbox__attachments">
                        {e.attachments.map((a) => (
                          <li key={a.index}>
                            <a href={`/outbox/${e.id}/attachments/${a.index}`} download={a.filename}>
                              {a.filename}
                            </a>{" "}
                            ({Math.max(1, Math.round(a.size / 1024))} kB)
                          </li>
                        ))}
                      </ul>
                    ) : null}
                    {e.error ? <p className="outbox__error">{e.error}</p> : null}
                  </details>
                </li>
              ))}
            </ul>
          )}
          <Pagination page={page} pageCount={pageCount} hrefFor={(p) => `/outbox?page=${p}`} />
        </Panel>
      </main>
    </>
  );
}
