// Export members to CSV: streamed (a page of members at a time), formula-injection safe.
import type { Route } from "./+types/mycommunity.export";
import { exportHeader, exportMembersCsv } from "~/domain/import/export.server";
import { requireUser } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  const { db, now } = getDeps(context);
  const lines = exportMembersCsv(db, user.businessId, { header: await exportHeader(db, user.businessId) });
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value));
    },
    async cancel() {
      await lines.return(undefined);
    },
  });
  const day = now().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="members-${day}.csv"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
