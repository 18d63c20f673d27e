// /ops/logout: ends the operator's console session (POST with the form token); a GET goes to the console.
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endOperatorSession } from "~/lib/ops-auth.server";

export function loader() {
  return redirect("/ops");
}

export async function action({ request, context }: Route.ActionArgs) {
  return redirect("/ops/login", { headers: { "Set-Cookie": await endOperatorSession(context, request) } });
}
