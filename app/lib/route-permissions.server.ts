// Route-level permissions for signed-in pages: each route module may declare in its `handle` the
// permission it needs (see app/domain/accounts/permissions.ts). Middleware is not told which routes
// matched, only the matched pattern ("/memberinfo/:id"), so the handles are looked up by pattern in
// the app's own server build, once per build.
import { data, type MiddlewareFunction, type ServerBuild } from "react-router";
import { can, permissionsFor, type PermissionHandle } from "~/domain/accounts/permissions";
import { requireUser } from "./auth.server";

type Routes = ServerBuild["routes"];

const tables = new WeakMap<object, Map<string, PermissionHandle[]>>();

const normal = (pattern: string) => pattern.split("/").filter(Boolean).join("/");

/** Full pattern of every route (its ancestors' paths joined) → the handles of the routes with that pattern. */
export function handlesByPattern(routes: Routes): Map<string, PermissionHandle[]> {
  const cached = tables.get(routes);
  if (cached) return cached;
  const table = new Map<string, PermissionHandle[]>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const parts: string[] = [];
    for (let r: (typeof route) | undefined = route; r; r = r.parentId ? routes[r.parentId] : undefined) if (r.path) parts.unshift(r.path);
    const key = normal(parts.join("/"));
    const handle = (route.module as { handle?: PermissionHandle }).handle;
    if (!handle) continue;
    table.set(key, [...(table.get(key) ?? []), handle]);
  }
  tables.set(routes, table);
  return table;
}

async function buildRoutes(): Promise<Routes> {
  const build = await import("virtual:react-router/server-build");
  return build.routes;
}

/**
 * Refuses a page the signed-in user's role may not use: FB001 with status 403, shown by the error
 * boundary as a translated "permission denied" page. Runs after the user is loaded.
 */
export const requireRoutePermission: MiddlewareFunction<Response> = async ({ request, context, pattern }, next) => {
  const user = requireUser(context);
  const handles = handlesByPattern(await buildRoutes()).get(normal(pattern)) ?? [];
  for (const permission of permissionsFor(handles, request.method.toUpperCase())) {
    if (!can(user, permission)) throw data({ code: "FB001" }, { status: 403 });
  }
  return next();
};
