// The payment simulator (no login, like the SMS simulator): the test cards and every payment it has been asked
// for, newest first. Clearly labelled: no money moves. 404 unless PAYMENT_PROVIDER=simulator and the
// simulators are served on this address.
import { useTranslation } from "react-i18next";
import { data } from "react-router";
import type { Route } from "./+types/paymentsimulator";
import { Badge } from "~/components/choices";
import { EmptyState, PageHeader, Pagination, Panel } from "~/components/ui";
import { formatPounds } from "~/domain/billing/money";
import { getDeps } from "~/lib/context.server";
import { formatLongDate } from "~/lib/uk-time";
import { listSimPayments, TEST_CARDS } from "~/providers/payments/simulator.server";

export const handle = { titleKey: "billing.sim.metaTitle", descriptionKey: "billing.sim.metaDescription" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  if (!config.billing.simulatorServed) throw data(null, { status: 404 });
  const page = Number(new URL(request.url).searchParams.get("page") ?? "1");
  const list = await listSimPayments(db, Number.isFinite(page) ? page : 1);
  return {
    cards: Object.entries(TEST_CARDS).map(([number, behaviour]) => ({ number: number.replace(/(\d{4})(?=\d)/g, "$1 "), behaviour })),
    payments: list.rows.map((r) => ({
      id: Number(r.id),
      reference: r.reference,
      business: r.business_name,
      card: r.card.slice(-4),
      amountPence: r.amount_pence,
      description: r.description.split("\n")[0],
      status: r.status,
      createdAt: r.created_at,
    })),
    page: list.page,
    pageCount: list.hasMore ? list.page + 1 : list.page,
  };
}

const TONES = { SUCCEEDED: "green", DECLINED: "red", REQUIRES_ACTION: "yellow", ABANDONED: "neutral", REFUNDED: "neutral" } as const;

export default function PaymentSimulator({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const lng = i18n.language;
  return (
    <>
      <header className="sim-ribbon">
        <p>{t("billing.sim.ribbon")}</p>
      </header>
      <main className="page stack payment-sim" id="main">
      <PageHeader title={t("billing.sim.title")} lead={t("billing.sim.lead")} />
      <Panel title={t("billing.sim.cards")} id="cards">
        <div className="table-wrap" role="group" aria-labelledby="cards-title" tabIndex={0}>
          <table>
            <thead>
              <tr>
                <th scope="col">{t("billing.sim.cardNumber")}</th>
                <th scope="col">{t("billing.sim.behaviour")}</th>
              </tr>
            </thead>
            <tbody>
              {loaderData.cards.map((c) => (
                <tr key={c.number}>
                  <td className="nowrap">{c.number}</td>
                  <td>{t(`billing.sim.behaviours.${c.behaviour}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="field__hint">{t("billing.sim.cardsHint")}</p>
      </Panel>
      <Panel title={t("billing.sim.payments")} id="payments">
        {loaderData.payments.length === 0 ? (
          <EmptyState title={t("billing.sim.empty")} />
        ) : (
          <ul className="payment-sim__list">
            {loaderData.payments.map((p) => (
              <li key={p.id} className="payment-sim__item">
                <p className="payment-sim__head">
                  <strong>{formatPounds(p.amountPence, lng)}</strong> <Badge tone={TONES[p.status]}>{t(`billing.sim.statuses.${p.status}`)}</Badge>
                  {p.status === "REQUIRES_ACTION" ? (
                    <>
                      {" "}
                      <a href={`/paymentsimulator/authenticate/${encodeURIComponent(p.reference)}`}>{t("billing.sim.open3ds")}</a>
                    </>
                  ) : null}
                </p>
                <p>{p.description}</p>
                <p className="payment-sim__meta">
                  {p.business ?? "—"} · {t("billing.sim.cardEnding", { card: p.card })} · {formatLongDate(p.createdAt, lng)}
                </p>
              </li>
            ))}
          </ul>
        )}
        <Pagination page={loaderData.page} pageCount={loaderData.pageCount} hrefFor={(p) => `/paymentsimulator?page=${p}`} />
      </Panel>
      </main>
    </>
  );
}
