// Layout of the operator console (/ops): the operator's session check (see lib/ops-auth.server.ts), and the
// console's own shell: its navigation with the unread chats, the operator's name and sign-out. Pages of the
// console are never stored by caches.
import { useTranslation } from "react-i18next";
import { data, Link, NavLink, Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/_layout";
import { CsrfField } from "~/components/form";
import { ErrorContent } from "~/components/error-page";
import { getDeps } from "~/lib/context.server";
import { operatorContext, opsMiddleware } from "~/lib/ops-auth.server";
import { unreadChats } from "~/domain/support/inbox.server";
import opsStyles from "~/styles/ops.css?url";
import { chatCss } from "~/components/support-chat";

export const middleware: Route.MiddlewareFunction[] = [opsMiddleware];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: opsStyles },
  { rel: "stylesheet", href: chatCss },
];

export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" });

export async function loader({ context }: Route.LoaderArgs) {
  const operator = context.get(operatorContext);
  if (!operator) return data({ operator: null, unread: 0 });
  const { db } = getDeps(context);
  return data({ operator: { name: operator.name, email: operator.email, mustChangePassword: operator.mustChangePassword }, unread: await unreadChats(db) });
}

export function shouldRevalidate() {
  return true;
}

const NAV = [
  { to: "/ops", key: "businesses", end: true },
  { to: "/ops/support", key: "support", end: false },
  { to: "/ops/replies", key: "replies", end: false },
  { to: "/ops/pipeline", key: "pipeline", end: false },
  { to: "/ops/analytics", key: "analytics", end: false },
  { to: "/ops/audit", key: "audit", end: false },
] as const;

function OpsShell({ operator, unread, children }: { operator: { name: string; email: string; mustChangePassword: boolean } | null; unread: number; children: React.ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="ops">
      <header className="ops-top">
        <div className="ops-top__inner">
          <Link to="/ops" className="ops-top__logo">
            {t("ops.brand")}
          </Link>
          {operator && !operator.mustChangePassword ? (
            <nav aria-label={t("ops.nav.label")} className="ops-nav">
              <ul>
                {NAV.map((n) => (
                  <li key={n.to}>
                    <NavLink to={n.to} end={n.end}>
                      {t(`ops.nav.${n.key}`)}
                      {n.key === "support" && unread > 0 ? <span className="ops-nav__badge">{t("ops.nav.unread", { count: unread })}</span> : null}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          {operator ? (
            <form method="post" action="/ops/logout" className="ops-top__signout">
              <CsrfField />
              <span className="muted">{operator.name}</span>{" "}
              <button type="submit" className="linklike">
                {t("ops.signOut")}
              </button>
            </form>
          ) : null}
        </div>
      </header>
      <main id="main" className="page ops-page">
        {children}
      </main>
    </div>
  );
}

export default function OpsLayout({ loaderData }: Route.ComponentProps) {
  return (
    <OpsShell operator={loaderData.operator} unread={loaderData.unread}>
      <Outlet />
    </OpsShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const loaded = useRouteLoaderData<typeof loader>("routes/ops/_layout");
  // A refusal by the console's middleware (a business session: 404) shows no trace of the console.
  if (!loaded?.operator) {
    return (
      <main id="main" className="page page--narrow">
        <ErrorContent error={error} />
      </main>
    );
  }
  return (
    <OpsShell operator={loaded.operator} unread={loaded.unread}>
      <ErrorContent error={error} />
    </OpsShell>
  );
}
