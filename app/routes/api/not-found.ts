// Every unknown /api/ path, for every method: the error envelope NF001 with 404 (never the HTML page).
import { apiError } from "~/lib/api.server";

export function loader() {
  return apiError("NF001", null, 404);
}

export function action() {
  return apiError("NF001", null, 404);
}
