// Layout for every page behind login: the session check, the onboarding and terms gates,
// and the app shell (top bar, main navigation), which also frames this section's error pages.
import { useEffect } from "react";
import { data, Outlet, redirect, useLocation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/_app";
import { requireUser, requireUserMiddleware } from "~/lib/auth.server";
import { requireRoutePermission } from "~/lib/route-permissions.server";
import { getDeps } from "~/lib/context.server";
import { csrfContext } from "~/lib/csrf.server";
import { loadShell } from "~/lib/shell.server";
import { getAccountStatus } from "~/domain/accounts/status.server";
import { touchUser } from "~/domain/accounts/sessions.server";
import { AppShell, refusalShell } from "~/components/app-shell";
import { ErrorContent } from "~/components/error-page";
import { useAdminBannerClose } from "~/components/admin-banner";

/** Pages an account that has not finished onboarding (or must accept new terms) may still see. */
const ONBOARDING_PATHS = ["/welcome", "/termsupdated"];

export const middleware: Route.MiddlewareFunction[] = [
  requireUserMiddleware,
  async ({ request, context }, next) => {
    const user = requireUser(context);
    const { db, now } = getDeps(context);
    const path = new URL(request.url).pathname;
    const status = await getAccountStatus(db, user, now());
    if (!ONBOARDING_PATHS.some((p) => path.startsWith(p))) {
      if (status.onboarding !== "COMPLETE") throw redirect("/welcome");
      if (status.acceptTermsAndConditions) throw redirect("/termsupdated");
    }
    await touchUser(db, user, now());
    return next();
  },
  // A route's handle may require a permission: a role without it gets the FB001 page (403), inside the shell.
  withShellOnRefusal,
];

/**
 * Runs the route-permission check; a refusal carries the shell's data and the form token (for Sign out),
 * since no loader runs after a middleware refuses, and the error page should still show the navigation.
 */
async function withShellOnRefusal(...[args, next]: Parameters<Route.MiddlewareFunction>) {
  try {
    return await requireRoutePermission(args, next);
  } catch (error) {
    if (isThrownData(error)) {
      const shell = await loadShell(args.context, requireUser(args.context));
      throw data({ ...error.data, shell, csrf: args.context.get(csrfContext) }, error.init ?? undefined);
    }
    throw error;
  }
}

/** A value thrown with data(body, init): its body and status. */
function isThrownData(error: unknown): error is { data: Record<string, unknown>; init: ResponseInit | null } {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

/** Signed-in pages hold a business's data: never stored by shared caches or the back/forward cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { shell: await loadShell(context, user) };
}

/** The unread count on Messages stays current: the layout's data is read again on every page change. */
export function shouldRevalidate() {
  return true;
}

export default function AppLayout({ loaderData }: Route.ComponentProps) {
  const location = useLocation();
  useAdminBannerClose();
  useEffect(() => {
    // Usage tracking: 'view:<page title>' on each page view (only ever sent when signed in).
    const title = document.title.split(" · ")[0];
    void fetch("/api/track", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: `view:${title}` }) }).catch(() => undefined);
  }, [location.pathname]);
  return (
    <AppShell shell={loaderData.shell}>
      <Outlet />
    </AppShell>
  );
}

/** Errors on signed-in pages (permission denied, a missing record…) keep the shell around them. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaded = useRouteLoaderData<typeof loader>("routes/_app");
  const refused = refusalShell(error);
  return (
    <AppShell shell={loaded?.shell ?? refused?.shell ?? null} csrf={refused?.csrf}>
      <ErrorContent error={error} />
    </AppShell>
  );
}
