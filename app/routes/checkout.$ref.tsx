// The personal check-out link a visitor gets in their check-in reply (/checkout/{ref}, public, no login): the
// business and the visit, one button that checks them out, then the confirmation. A second check-out is refused
// with BR040's message; an unknown or made-up reference is NF003's page (404). A plain HTML form: the page ships
// no JavaScript.
import { useTranslation } from "react-i18next";
import { data, redirect, useActionData } from "react-router";
import type { Route } from "./+types/checkout.$ref";
import { AppForm, translateError } from "~/components/form";
import { Banner, Button } from "~/components/ui";
import { checkoutInfo, checkOut } from "~/domain/campaigns/campaigns.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";
import { formatLongDate, formatUkTime, utcToUkDateTime } from "~/lib/uk-time";

/** Opened from a text, often on a slow phone connection: no JavaScript is needed or sent. */
export const handle = { titleKey: "venue.meta.checkoutTitle", descriptionKey: "venue.meta.checkoutDescription", scripts: false };

/** A visitor's own link: never cached by shared caches, never sent on as a referrer. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, now } = getDeps(context);
  try {
    const info = await checkoutInfo(db, params.ref, now());
    const today = utcToUkDateTime(now()).date;
    return {
      invalid: false as const,
      business: info.businessName,
      place: info.campaignName,
      checkedInAt: info.checkedInAt,
      checkedInToday: utcToUkDateTime(new Date(info.checkedInAt)).date === today,
      checkedOutAt: info.checkedOutAt,
      checkedOutToday: info.checkedOutAt ? utcToUkDateTime(new Date(info.checkedOutAt)).date === today : false,
    };
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return data({ invalid: true as const, error: errorMessage(error) }, { status: 404 });
    throw error;
  }
}

export async function action({ params, context }: Route.ActionArgs) {
  const { db, now } = getDeps(context);
  try {
    await checkOut(db, params.ref, now());
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return data({ error: errorMessage(error) }, { status: error.status });
  }
  // Post, then show: a refresh shows the confirmation rather than posting again.
  return redirect(`/checkout/${encodeURIComponent(params.ref)}`);
}

export default function CheckoutPage({ loaderData: d }: Route.ComponentProps) {
  const { t, i18n } = useTranslation();
  const actionData = useActionData<typeof action>();
  const lng = i18n.language;
  if (d.invalid) {
    return (
      <div className="public__card stack venue-checkout">
        <h1>{t("venue.checkout.invalidTitle")}</h1>
        <p role="alert">{translateError(t, d.error)}</p>
        <p>{t("venue.checkout.invalidBody")}</p>
      </div>
    );
  }
  const visit = d.checkedInToday
    ? t("venue.checkout.visitToday", { place: d.place, time: formatUkTime(new Date(d.checkedInAt), lng) })
    : t("venue.checkout.visitOn", { place: d.place, date: formatLongDate(d.checkedInAt, lng) });
  return (
    <div className="public__card stack venue-checkout">
      {d.checkedOutAt ? (
        <>
          <h1>{t("venue.checkout.doneTitle")}</h1>
          {actionData?.error ? <Banner tone="info">{translateError(t, actionData.error)}</Banner> : null}
          <p className="venue-checkout__visit">{visit}</p>
          <p role="status" className="venue-checkout__done">
            {d.checkedOutToday
              ? t("venue.checkout.done", { time: formatUkTime(new Date(d.checkedOutAt), lng), business: d.business })
              : t("venue.checkout.doneOn", { date: formatLongDate(d.checkedOutAt, lng), business: d.business })}
          </p>
          <p className="muted">{t("venue.checkout.closeHint")}</p>
        </>
      ) : (
        <>
          <h1>{t("venue.checkout.title", { business: d.business })}</h1>
          {actionData?.error ? (
            <div className="banner banner--error" role="alert">
              {translateError(t, actionData.error)}
            </div>
          ) : null}
          <p className="venue-checkout__visit">{visit}</p>
          <p className="muted">{t("venue.checkout.hint", { business: d.business })}</p>
          <AppForm method="post">
            <Button className="venue-checkout__button">{t("venue.checkout.button")}</Button>
          </AppForm>
        </>
      )}
    </div>
  );
}
