// Sign out: a POST ends the session. From the admin-access banner it also closes the window.
import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { endWebSession } from "~/lib/auth.server";

export async function action({ request, context }: Route.ActionArgs) {
  const cookie = await endWebSession(context, request);
  const admin = new URL(request.url).searchParams.get("admin") === "1";
  return redirect(admin ? "/login?adminClosed=1" : "/login", { headers: { "Set-Cookie": cookie } });
}

export async function loader() {
  return redirect("/");
}
