// A shared export file's public link (/checkinshare/{fileRef}, no login): the unguessable reference opens the
// CSV straight away (a redirect to its download, so the browser saves it); a file that is unknown, deleted after
// its 14 days, or not made yet is NF002's page (404).
import { useTranslation } from "react-i18next";
import { data, redirect } from "react-router";
import type { Route } from "./+types/checkinshare.$fileRef";
import { translateError } from "~/components/form";
import { sharedExportFile } from "~/domain/exports/exports.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";
import { errorMessage } from "~/lib/forms.server";

export const handle = { titleKey: "venue.meta.shareTitle", scripts: false };

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = getDeps(context);
  try {
    await sharedExportFile(db, params.fileRef);
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return data({ error: errorMessage(error) }, { status: 404 });
    throw error;
  }
  throw redirect(`/checkinshare/${encodeURIComponent(params.fileRef)}/download`);
}

export default function SharedFile({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <div className="public__card stack">
      <h1>{t("venue.share.invalidTitle")}</h1>
      <p role="alert">{translateError(t, loaderData.error)}</p>
      <p>{t("venue.share.invalidBody")}</p>
    </div>
  );
}
