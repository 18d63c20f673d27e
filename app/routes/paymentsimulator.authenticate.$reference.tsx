// The payment simulator's 3-D Secure page: what a bank shows when it asks the card holder to confirm a payment.
// Confirm or fail it, then back to the address the shop gave. No money moves.
import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import type { Route } from "./+types/paymentsimulator.authenticate.$reference";
import { AppForm } from "~/components/form";
import { Banner, Button, Panel } from "~/components/ui";
import { formatPounds } from "~/domain/billing/money";
import { getDeps } from "~/lib/context.server";
import { answerAuthentication, findPendingAuthentication } from "~/providers/payments/simulator.server";

export const handle = { titleKey: "billing.sim.authTitle", descriptionKey: "billing.sim.authDescription" };

async function load(context: Route.LoaderArgs["context"], reference: string | undefined) {
  const { db, config } = getDeps(context);
  if (!config.billing.simulatorServed || !reference || reference.length > 100) throw data(null, { status: 404 });
  const payment = await findPendingAuthentication(db, reference);
  if (!payment) throw data(null, { status: 404 });
  return { db, payment };
}

export async function loader({ params, context }: Route.LoaderArgs) {
  const { payment } = await load(context, params.reference);
  return { reference: payment.reference, amountPence: payment.amountPence, card: payment.card.slice(-4), description: payment.description, waiting: payment.status === "REQUIRES_ACTION", returnUrl: payment.returnUrl };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const { db, payment } = await load(context, params.reference);
  const form = await request.formData();
  await answerAuthentication(db, payment.reference, form.get("answer") === "complete");
  return redirect(payment.returnUrl);
}

export default function Authenticate({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  return (
    <>
      <header className="sim-ribbon">
        <p>{t("billing.sim.ribbon")}</p>
      </header>
      <main className="page stack payment-sim payment-sim--auth" id="main">
      <Panel title={t("billing.sim.authHeading")} id="auth">
        <p className="payment-sim__label">{t("billing.sim.authLabel")}</p>
        <p>{t("billing.sim.authBody", { amount: formatPounds(loaderData.amountPence, i18n.language), card: loaderData.card })}</p>
        <p className="field__hint">{loaderData.description}</p>
        {loaderData.waiting ? (
          <AppForm className="form form--inline">
            <Button name="answer" value="complete">
              {t("billing.sim.complete")}
            </Button>
            <Button name="answer" value="fail" variant="secondary">
              {t("billing.sim.fail")}
            </Button>
          </AppForm>
        ) : (
          <Banner tone="info">
            <p>{t("billing.sim.authDone")}</p>
            <p>
              <a href={loaderData.returnUrl}>{t("billing.sim.back")}</a>
            </p>
          </Banner>
        )}
      </Panel>
      </main>
    </>
  );
}
