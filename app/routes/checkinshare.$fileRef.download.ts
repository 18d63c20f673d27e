// The shared CSV itself. An unknown or deleted file goes back to the share link, whose page says so (NF002).
import { redirect } from "react-router";
import type { Route } from "./+types/checkinshare.$fileRef.download";
import { sharedExportFile } from "~/domain/exports/exports.server";
import { getDeps } from "~/lib/context.server";
import { AppError } from "~/lib/errors";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db } = getDeps(context);
  try {
    const file = await sharedExportFile(db, params.fileRef);
    return new Response(file.content, {
      headers: {
        "Content-Type": "text/csv; charset=utf-8",
        "Content-Disposition": `attachment; filename="${file.filename}"`,
        "Cache-Control": "private, no-store",
        "Referrer-Policy": "no-referrer",
        "X-Content-Type-Options": "nosniff",
        "X-Robots-Tag": "noindex",
      },
    });
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return redirect(`/checkinshare/${encodeURIComponent(params.fileRef)}`);
    throw error;
  }
}
