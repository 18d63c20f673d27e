// GET /simulator/api/phones/{e164}/messages: the texts a virtual phone received (TO_PHONE), oldest
// first, as [{from, to, body, sentAt}]. For tests and tools. 404 unless SMS_PROVIDER=simulator.
import type { Route } from "./+types/phone-messages";
import { getDeps } from "~/lib/context.server";
import { envelope } from "~/lib/errors";
import { parseE164, requireSimulator, textsReceivedBy } from "~/domain/simulator/simulator.server";

export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, config } = getDeps(context);
  requireSimulator(config, true);
  const phone = parseE164(params.e164);
  if (!phone) return Response.json(envelope("BR025", null, [{ responseCode: "BR025", data: { field: "phone" } }]), { status: 400 });
  return Response.json(await textsReceivedBy(db, phone), { headers: { "Cache-Control": "no-store" } });
}

export async function action({ context }: Route.ActionArgs) {
  requireSimulator(getDeps(context).config, true);
  return Response.json(envelope("UA002"), { status: 405, headers: { Allow: "GET" } });
}
