// Every unknown /simulator/api/ path, for every method: the JSON 404 envelope NF001 (never the HTML page).
import { envelope } from "~/lib/errors";

export function loader() {
  return Response.json(envelope("NF001"), { status: 404, headers: { "Cache-Control": "no-store" } });
}

export const action = loader;
