// What the signed-in shell shows: the user's name, the unread count for Messages, the navigation
// entries this user may see and which linked screens exist. A screen exists when the app's own
// server build has a route at its path, so nothing links to a page that is not there yet.
import type { RouterContextProvider, ServerBuild } from "react-router";
import { can } from "~/domain/accounts/permissions";
import type { SessionUser } from "~/domain/accounts/sessions.server";
import { unreadTotal } from "~/domain/conversations/conversations.server";
import { getDeps } from "./context.server";
import { oncePerRequest } from "./request-memo.server";
import { CHECKED_SCREENS, NAV_ITEMS, type ShellData } from "./nav";

type Routes = ServerBuild["routes"];

const patternsByBuild = new WeakMap<object, Set<string>>();

/** The full path of every route in the build ("/memberinfo/:id"), its layouts' paths joined. */
export function routePaths(routes: Routes): Set<string> {
  const cached = patternsByBuild.get(routes);
  if (cached) return cached;
  const paths = new Set<string>();
  for (const route of Object.values(routes)) {
    if (!route || (route.path === undefined && !route.index)) continue;
    const parts: string[] = [];
    for (let r: typeof route | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    paths.add(`/${parts.join("/").split("/").filter(Boolean).join("/")}`);
  }
  patternsByBuild.set(routes, paths);
  return paths;
}

async function buildRoutes(): Promise<Routes> {
  const build = await import("virtual:react-router/server-build");
  return build.routes;
}

/** The subset of `paths` the app has a route for (exact paths; the catch-all does not count). */
export async function existingScreens(paths: readonly string[]): Promise<string[]> {
  const known = routePaths(await buildRoutes());
  return paths.filter((p) => known.has(p));
}

export async function loadShell(context: Readonly<RouterContextProvider>, user: SessionUser): Promise<ShellData> {
  const { db, now } = getDeps(context);
  const [unread, screens] = await Promise.all([
    oncePerRequest(context, "unreadTotal", () => unreadTotal(db, user.businessId, now())),
    existingScreens(CHECKED_SCREENS),
  ]);
  const items = NAV_ITEMS.filter((i) => screens.includes(i.to) && (!i.permission || can(user, i.permission))).map((i) => i.id);
  return { name: user.name, companyName: user.companyName, unread, items, screens };
}
