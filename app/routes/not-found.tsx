// The catch-all page-not-found screen, answered with a real 404. A signed-in visitor sees it inside
// the app shell, with the navigation, like every other signed-in page.
import { data } from "react-router";
import type { Route } from "./+types/not-found";
import { AppShell } from "~/components/app-shell";
import { NotFoundContent } from "~/components/error-page";
import { getSessionUser } from "~/lib/auth.server";
import { loadShell } from "~/lib/shell.server";

export const handle = { titleKey: "notFound.title" };

// Unknown /api/ paths never get here: routes/api/not-found.ts answers them with the JSON envelope.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await getSessionUser(request, context);
  return data({ shell: user ? await loadShell(context, user) : null }, { status: 404 });
}

export async function action(args: Route.ActionArgs) {
  return loader(args);
}

export default function NotFound({ loaderData }: Route.ComponentProps) {
  const shell = loaderData?.shell ?? null;
  if (shell) {
    return (
      <AppShell shell={shell}>
        <NotFoundContent />
      </AppShell>
    );
  }
  return (
    <main id="main" className="page page--narrow">
      <NotFoundContent />
    </main>
  );
}
