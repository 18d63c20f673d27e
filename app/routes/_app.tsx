// Layout for every page behind login: the session check, the onboarding and terms gates,
// and the top bar.
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { LocaleSwitch } from "~/components/locale-switch";
import { NavLink, Outlet, redirect, useLocation } from "react-router";
import type { Route } from "./+types/_app";
import { requireUser, requireUserMiddleware } from "~/lib/auth.server";
import { requireRoutePermission } from "~/lib/route-permissions.server";
import { getDeps } from "~/lib/context.server";
import { getAccountStatus } from "~/domain/accounts/status.server";
import { touchUser } from "~/domain/accounts/sessions.server";
import { Icon } from "~/components/ui";
import { CsrfField } from "~/components/form";
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
  // A route's handle may require a permission: a role without it gets the FB001 page (403).
  requireRoutePermission,
];

/** Signed-in pages hold a business's data: never stored by shared caches or the back/forward cache. */
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { name: user.name, companyName: user.companyName };
}

export default function AppLayout() {
  const { t } = useTranslation();
  const location = useLocation();
  useAdminBannerClose();
  useEffect(() => {
    // Usage tracking: 'view:<page title>' on each page view (only ever sent when signed in).
    const title = document.title.split(" · ")[0];
    void fetch("/api/track", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ action: `view:${title}` }) }).catch(() => undefined);
  }, [location.pathname]);
  return (
    <>
      <header className="topbar">
        <nav className="topbar__inner" aria-label={t("nav.main")}>
          <NavLink to="/" className="topbar__logo" end>
            Textcircle
          </NavLink>
          <NavLink to="/joinus">
            <Icon name="qr" />
            <span>{t("nav.joinUs")}</span>
          </NavLink>
          <NavLink to="/myaccount">
            <Icon name="user" />
            <span>{t("nav.myAccount")}</span>
          </NavLink>
          <form method="post" action="/logout" className="topbar__signout">
            <CsrfField />
            <button type="submit" className="linklike">
              {t("common.signOut")}
            </button>
          </form>
        </nav>
      </header>
      <main id="main" className="page">
        <Outlet />
      </main>
      <footer className="app-footer">
        <LocaleSwitch />
      </footer>
    </>
  );
}
