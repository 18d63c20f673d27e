// /analytics/export?days=7|30|90: the analytics period as a CSV download (one line a day, then one line for each
// group message and campaign). Any other period is the default week.
import type { Route } from "./+types/analytics.export";
import { analyticsCsv, getAnalytics, isAnalyticsRange, type AnalyticsRange } from "~/domain/analytics/analytics.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const raw = new URL(request.url).searchParams.get("days");
  const days: AnalyticsRange = isAnalyticsRange(raw) ? (Number(raw) as AnalyticsRange) : 7;
  const file = analyticsCsv(await getAnalytics(db, user.businessId, days, now()));
  return new Response(file.csv, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${file.filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
