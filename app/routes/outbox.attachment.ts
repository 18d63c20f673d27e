// GET /outbox/{emailId}/attachments/{index}: one attachment of an email in the outbox, as a download.
import { data } from "react-router";
import type { Route } from "./+types/outbox.attachment";
import { emailAttachment } from "~/domain/email/email.server";
import { getDeps } from "~/lib/context.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  if (!config.email.outboxServed || !/^\d{1,12}$/.test(params.emailId ?? "") || !/^\d{1,3}$/.test(params.index ?? "")) throw data(null, { status: 404 });
  const a = await emailAttachment(db, Number(params.emailId), Number(params.index));
  if (!a) throw data(null, { status: 404 });
  const safeName = a.filename.replace(/[^A-Za-z0-9._-]/g, "_");
  return new Response(new Uint8Array(a.content), {
    headers: { "Content-Type": a.contentType, "Content-Disposition": `attachment; filename="${safeName}"`, "Cache-Control": "no-store" },
  });
}
