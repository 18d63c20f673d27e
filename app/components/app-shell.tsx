// The signed-in shell: the top bar (logo, sign out), the main navigation and the footer. One <nav>
// serves every width: a row in the top bar on a desktop, a bar fixed to the bottom of the screen on
// a phone. "More" is a <details> menu, so it opens without JavaScript; with JavaScript it also closes
// on a page change, an outside click or Escape. The entries come from the one list in lib/nav.ts.
import { useEffect, useRef, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { isRouteErrorResponse, Link, useLocation, useRouteLoaderData } from "react-router";
import { LocaleSwitch } from "~/components/locale-switch";
import { Icon } from "~/components/ui";
import { isCurrent, NAV_ITEMS, type LINKED_SCREENS, type NavItem, type ShellData } from "~/lib/nav";

/**
 * Whether a screen that other work may not have built yet exists, so a page links to it only then.
 * Reads the signed-in layout's data; false outside it.
 */
export function useHasScreen(): (path: (typeof LINKED_SCREENS)[number]) => boolean {
  const data = useRouteLoaderData("routes/_app") as { shell?: ShellData } | undefined;
  const screens = data?.shell?.screens ?? [];
  return (path) => screens.includes(path);
}

function EntryLabel({ item, unread }: { item: NavItem; unread: number }) {
  const { t } = useTranslation();
  return (
    <>
      <span className="shell-nav__icon">
        <Icon name={item.icon} />
        {item.badge === "unread" && unread > 0 ? (
          <span className="shell-nav__badge" aria-hidden="true">
            {unread > 99 ? "99+" : unread}
          </span>
        ) : null}
      </span>
      <span className="shell-nav__label">{t(`nav.items.${item.id}`)}</span>
      {item.badge === "unread" && unread > 0 ? <span className="visually-hidden">{t("nav.unread", { count: unread })}</span> : null}
    </>
  );
}

function MoreMenu({ items, pathname }: { items: NavItem[]; pathname: string }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDetailsElement>(null);
  const current = items.some((i) => isCurrent(i, pathname));
  // A new page closes the menu (without JavaScript every page arrives with it closed anyway).
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [pathname]);
  useEffect(() => {
    const onPointer = (event: PointerEvent) => {
      const menu = ref.current;
      if (menu?.open && event.target instanceof Node && !menu.contains(event.target)) menu.open = false;
    };
    const onKey = (event: KeyboardEvent) => {
      const menu = ref.current;
      if (event.key !== "Escape" || !menu?.open) return;
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, []);
  return (
    <details className="shell-more" ref={ref}>
      <summary className="shell-nav__link" data-current={current || undefined}>
        <span className="shell-nav__icon">
          <Icon name="more" />
        </span>
        <span className="shell-nav__label">{t("nav.more")}</span>
      </summary>
      <ul className="shell-more__menu">
        {items.map((item) => (
          <li key={item.id}>
            <Link to={item.to} className="shell-more__link" aria-current={isCurrent(item, pathname) ? "page" : undefined}>
              <Icon name={item.icon} />
              <span>{t(`nav.items.${item.id}`)}</span>
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The main navigation for a signed-in user. */
export function MainNav({ shell }: { shell: ShellData }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const visible = NAV_ITEMS.filter((i) => shell.items.includes(i.id));
  const bar = visible.filter((i) => i.place === "bar");
  const more = visible.filter((i) => i.place === "more");
  return (
    <nav className="shell-nav" aria-label={t("nav.main")}>
      <ul className="shell-nav__list">
        {bar.map((item) => (
          <li key={item.id}>
            <Link to={item.to} className="shell-nav__link" aria-current={isCurrent(item, pathname) ? "page" : undefined} data-nav={item.id}>
              <EntryLabel item={item} unread={shell.unread} />
            </Link>
          </li>
        ))}
        {more.length ? (
          <li>
            <MoreMenu items={more} pathname={pathname} />
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/**
 * The shell data a refused page carries (see routes/_app.tsx): on a full page load a middleware's
 * refusal is shown by the root error boundary, before any loader ran.
 */
export function refusalShell(error: unknown): { shell: ShellData; csrf?: string } | undefined {
  if (!isRouteErrorResponse(error)) return undefined;
  const body = error.data as { shell?: ShellData; csrf?: string } | null | undefined;
  return body?.shell ? { shell: body.shell, csrf: body.csrf } : undefined;
}

/**
 * Every signed-in page, its error pages and its 404 sit in this shell. Without shell data (an error
 * before the layout could load it) the top bar still offers home and sign out.
 */
export function AppShell({ shell, csrf, children }: { shell: ShellData | null; csrf?: string; children: ReactNode }) {
  const { t } = useTranslation();
  // The form token from the root loader (read here rather than through components/form, which imports root).
  const rootCsrf = (useRouteLoaderData("root") as { csrf?: string } | undefined)?.csrf;
  return (
    <div className={`shell${shell ? " shell--nav" : ""}`}>
      <header className="shell-top">
        <div className="shell-top__inner">
          <Link to="/" className="shell-top__logo">
            Textcircle
          </Link>
          {shell ? <MainNav shell={shell} /> : null}
          <form method="post" action="/logout" className="shell-top__signout">
            <input type="hidden" name="_csrf" value={csrf ?? rootCsrf ?? ""} />
            <button type="submit" className="linklike">
              {t("common.signOut")}
            </button>
          </form>
        </div>
      </header>
      <main id="main" className="page">
        {children}
      </main>
      <footer className="app-footer">
        <LocaleSwitch />
      </footer>
    </div>
  );
}
