// POST /simulator/api/inbound {from, to, body} -> 201 {sid}: a virtual phone texts a business number.
// from must be a valid E.164 number, to a number the simulator handed out, body 1..1600 characters;
// anything else is 400 BR025. 404 unless SMS_PROVIDER=simulator.
import type { Route } from "./+types/inbound";
import { getDeps } from "~/lib/context.server";
import { AppError, envelope } from "~/lib/errors";
import { receiveInbound, requireSimulator } from "~/domain/simulator/simulator.server";

/** Far above 1600 characters of text, far below anything that could hurt. */
const MAX_BODY_BYTES = 32 * 1024;

function badRequest(field?: string) {
  return Response.json(envelope("BR025", null, [{ responseCode: "BR025", ...(field ? { data: { field } } : {}) }]), { status: 400 });
}

export async function loader({ context }: Route.LoaderArgs) {
  requireSimulator(getDeps(context).config, true);
  return Response.json(envelope("UA002"), { status: 405, headers: { Allow: "POST" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  const { db, config, now } = getDeps(context);
  requireSimulator(config, true);
  if (request.method !== "POST") return Response.json(envelope("UA002"), { status: 405, headers: { Allow: "POST" } });
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return badRequest("body");
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return badRequest();
  }
  if (!payload || typeof payload !== "object" || Array.isArray(payload)) return badRequest();
  const { from, to, body } = payload as Record<string, unknown>;
  try {
    const { sid } = await receiveInbound(db, { from, to, body }, now());
    return Response.json({ sid }, { status: 201 });
  } catch (error) {
    if (error instanceof AppError && error.code === "BR025") return badRequest(error.field);
    throw error;
  }
}
