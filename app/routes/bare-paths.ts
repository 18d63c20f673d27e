// Paths from the route list that name no record on their own (/contactgroup, /smartgroup, /groupmessage):
// rather than a 404 they open the screen the record would belong to.
import { redirect } from "react-router";
import type { Route } from "./+types/bare-paths";

/** Where each bare path leads: the groups list (which holds the new-group form), or every group message. */
export const BARE_PATHS: Readonly<Record<string, string>> = {
  "/contactgroup": "/groups",
  "/smartgroup": "/groups",
  "/groupmessage": "/allgroupmessages",
};

export function loader({ request }: Route.LoaderArgs) {
  const path = new URL(request.url).pathname.replace(/\/+$/, "");
  return redirect(BARE_PATHS[path] ?? "/");
}
