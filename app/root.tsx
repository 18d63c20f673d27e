import "~/lib/zod-browser";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import {
  data,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
  useRouteError,
  useRouteLoaderData,
  isRouteErrorResponse,
} from "react-router";
import { getToast, toastMiddleware } from "remix-toast/middleware";
import type { Route } from "./+types/root";
import { Toaster } from "~/components/toaster";
import { AppShell, refusalShell } from "~/components/app-shell";
import { ErrorContent } from "~/components/error-page";
import { getSessionUser, userContext } from "~/lib/auth.server";
import { getDeps } from "~/lib/context.server";
import { csrfContext, csrfMiddleware } from "~/lib/csrf.server";
import { getLocale, i18nextMiddleware, localeCookie } from "~/lib/i18n.server";
import { toastSessionStorage } from "~/lib/toast.server";
import { isLocale } from "~/lib/i18n";
import { OfflineBanner } from "~/components/offline-banner";
import { useNonce } from "~/lib/nonce";
import stylesheet from "~/styles/app.css?url";

/** JSON API, webhooks and the simulator's JSON need neither translations nor toasts: skip that work for them. */
const MACHINE_PATHS = /^\/(api|webhooks)(\/|$)|^\/simulator\/api\//;
function forPagesOnly(mw: Route.MiddlewareFunction): Route.MiddlewareFunction {
  return (args, next) => (MACHINE_PATHS.test(new URL(args.request.url).pathname) ? next() : mw(args, next));
}

/** Choosing a language with ?lng= (the language links) keeps it for the next visits too. */
const rememberLanguage: Route.MiddlewareFunction = async ({ request, context }, next) => {
  const lng = new URL(request.url).searchParams.get("lng");
  const response = await next();
  if (isLocale(lng)) response.headers.append("Set-Cookie", await localeCookie.serialize(lng, { secure: getDeps(context).config.production }));
  return response;
};

export const middleware: Route.MiddlewareFunction[] = [
  forPagesOnly(rememberLanguage),
  forPagesOnly(i18nextMiddleware),
  forPagesOnly(toastMiddleware({ customSession: toastSessionStorage }) as Route.MiddlewareFunction),
  csrfMiddleware(),
];

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  // Signed-in pages already loaded the user in their layout middleware; public pages look it up here.
  const url = new URL(request.url);
  // The operator console never shows a business's session (not even the admin-access banner).
  const inConsole = /^\/ops(\/|$)/.test(url.pathname);
  const user = inConsole ? null : (context.get(userContext) ?? (await getSessionUser(request, context)));
  const host = url.hostname;
  return data({
    locale: getLocale(context),
    csrf: context.get(csrfContext),
    toast: getToast(context),
    beta: host.startsWith("beta"),
    appVersion: getDeps(context).config.appVersion,
    user: user ? { name: user.name, companyName: user.companyName, adminAccess: user.adminAccess } : null,
  });
}

export type RootData = Awaited<ReturnType<typeof loader>>["data"];

export function useRootData(): RootData | undefined {
  return useRouteLoaderData<typeof loader>("root");
}

interface RouteHandle {
  titleKey?: string;
  descriptionKey?: string;
  /** false: the page works without JavaScript and is sent without any (no scripts, no modulepreload links). */
  scripts?: boolean;
}

/** Each page's title and description come from its route's handle, or the defaults. */
function PageMeta() {
  const { t } = useTranslation();
  const matches = useMatches();
  const error = useRouteError();
  let handle: RouteHandle = {};
  for (const m of matches) {
    const h = m.handle as RouteHandle | undefined;
    if (h?.titleKey) handle = h;
  }
  // A page that is not found is titled so, never with the name of the page that was asked for.
  if (isRouteErrorResponse(error) && error.status === 404) handle = { titleKey: "notFound.title" };
  const title = handle.titleKey ? `${t(handle.titleKey)} · Textcircle` : t("meta.default.title");
  const description = t(handle.descriptionKey ?? "meta.default.description");
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
    </>
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const nonce = useNonce();
  const { t, i18n } = useTranslation();
  const withScripts = !useMatches().some((m) => (m.handle as RouteHandle | undefined)?.scripts === false);
  const lang = root?.locale ?? i18n.language ?? "en-GB";
  useEffect(() => {
    if (root?.locale && i18n.language !== root.locale) void i18n.changeLanguage(root.locale);
  }, [root?.locale, i18n]);
  return (
    <html lang={lang} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f5c5c" />
        <PageMeta />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main">{t("common.skipToContent")}</a>
        {root?.beta ? <div className="beta-ribbon" role="note">{t("common.betaRibbon")}</div> : null}
        {root?.user?.adminAccess ? (
          <form method="post" action="/logout?admin=1" className="admin-banner" data-admin-banner>
            <input type="hidden" name="_csrf" value={root.csrf} />
            <button type="submit">
              {t("common.adminAccessBanner", { name: root.user.name, company: root.user.companyName })}
            </button>
          </form>
        ) : null}
        <Toaster toast={root?.toast ?? null} />
        <OfflineBanner>{children}</OfflineBanner>
        {withScripts ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  // Signed-in pages have their own boundary inside the app shell (routes/_app.tsx), but a refusal by the
  // signed-in layout's middleware on a full page load lands here: it brings the shell's data along.
  const refused = refusalShell(error);
  if (refused) {
    return (
      <AppShell shell={refused.shell} csrf={refused.csrf}>
        <ErrorContent error={error} />
      </AppShell>
    );
  }
  return (
    <main id="main" className="page page--narrow">
      <ErrorContent error={error} />
    </main>
  );
}
