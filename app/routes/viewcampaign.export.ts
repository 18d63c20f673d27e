// /viewcampaign/export?id=N: a campaign's results as a CSV download (one question's replies, a poll's votes, an
// invitation's door list, a draw's winners). Another business's id is a 404; a type with nothing to export, BR041.
import { data } from "react-router";
import type { Route } from "./+types/viewcampaign.export";
import { exportCampaignCsv } from "~/domain/campaigns/campaigns.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";

export const handle = { permission: "campaigns:manage" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db } = getDeps(context);
  const raw = new URL(request.url).searchParams.get("id") ?? "";
  if (!/^[0-9]{1,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw data(null, { status: 404 });
  let file: Awaited<ReturnType<typeof exportCampaignCsv>>;
  try {
    file = await exportCampaignCsv(db, user.businessId, Number(raw));
  } catch (error) {
    if (error instanceof AppError && error.status !== 404) throw data({ code: error.code }, { status: error.status });
    if (error instanceof AppError) throw data(null, { status: 404 });
    throw error;
  }
  if (!file) throw data(null, { status: 404 });
  const filename = file.filename.replace(/[^A-Za-z0-9._-]+/g, "-") || "campaign.csv";
  return new Response(file.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
