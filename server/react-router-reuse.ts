// A build-time change to React Router for the production server bundle (decision record 011).
//
// React Router rebuilds, for every page it renders, things that only depend on the build: the server
// routes handed to the static router (one object and component wrapper per route of the app), the
// static router's data routes made from them, and the inline manifest of the routes a page may reach
// (found by matching the page's parent paths against every route, then written out as JSON). On the
// signed-in home page that was about a tenth of the server's CPU, with the route matching (each path
// tried against every branch, twice a request) and a copy of the request for each loader. This plugin
// makes React Router keep each of them once made: the routes by the build's manifest, the data routes by
// those routes, the inline manifest by the page's path and matched routes, which branch a path matches
// (bounded maps); and it hands a loader the request itself when the copy would be the same request.
//
// It applies to the server bundle only, where React Router is bundled (`ssr.noExternal` in
// vite.config.ts) so that the app and `@react-router/express` share the one patched copy. Each change
// names the exact code it replaces; if React Router's code differs (a new version), the build stops
// with a message saying so rather than building without the change.
import type { Plugin } from "vite";

interface Patch {
  /** What the file must contain (once) for the patch to apply. */
  find: string;
  replace: string;
  /** Code added at the end of the module (function declarations; they see the module's own names). */
  append: string;
}

const PATCHES: Record<string, Patch[]> = {
  // lib/dom/ssr/server.tsx: ServerRouter
  ServerRouter: [
    {
      find: "  let routes = createServerRoutes(\n    manifest.routes,",
      replace: "  let routes = __keptServerRoutes(\n    manifest.routes,",
      append: `
var __serverRoutesKept = new WeakMap();
function __keptServerRoutes(manifestRoutes, routeModules, future, isSpaMode) {
  let kept = __serverRoutesKept.get(manifestRoutes);
  if (kept && kept.future === future && kept.isSpaMode === isSpaMode && __sameModules(kept.routeModules, routeModules)) return kept.routes;
  let routes = createServerRoutes(manifestRoutes, routeModules, future, isSpaMode);
  __serverRoutesKept.set(manifestRoutes, { routeModules, future, isSpaMode, routes });
  return routes;
}
// The route modules come in a new object for each request, holding the same module for each route.
function __sameModules(a, b) {
  if (a === b) return true;
  let keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (let key of keys) if (a[key] !== b[key]) return false;
  return true;
}
`,
    },
  ],
  // lib/server-runtime/data.ts: every loader and action is handed a copy of the request without the
  // `index` and `_routes` search parameters, a new URL and a new Request each time (three loaders on a
  // page: six Requests). A request without a query string and without a body has nothing to strip, and
  // its copy would be the same request: it is handed over as it is.
  stripIndexParam: [
    {
      find: "function stripIndexParam(request) {\n  let url = new URL(request.url);",
      replace: "function stripIndexParam(request) {\n  if (__nothingToStrip(request)) return request;\n  let url = new URL(request.url);",
      append: "",
    },
    {
      find: "function stripRoutesParam(request) {\n  let url = new URL(request.url);",
      replace: "function stripRoutesParam(request) {\n  if (__nothingToStrip(request)) return request;\n  let url = new URL(request.url);",
      append: `
function __nothingToStrip(request) {
  return request.body === null && !request.url.includes("?");
}
`,
    },
  ],
  // lib/dom/server.tsx (createStaticRouter) and lib/dom/ssr/components.tsx (Scripts)
  createStaticRouter: [
    {
      find: "function createStaticRouter(routes, context, opts = {}) {\n  let manifest = {};\n  let dataRoutes = convertRoutesToDataRoutes(\n    routes,\n    mapRouteProperties,\n    void 0,\n    manifest\n  );",
      replace: "function createStaticRouter(routes, context, opts = {}) {\n  let { manifest, dataRoutes } = __keptStaticDataRoutes(routes);",
      append: `
var __staticDataRoutesKept = new WeakMap();
function __keptStaticDataRoutes(routes) {
  let kept = __staticDataRoutesKept.get(routes);
  if (!kept) {
    let manifest = {};
    let dataRoutes = convertRoutesToDataRoutes(routes, mapRouteProperties, void 0, manifest);
    kept = { manifest, dataRoutes };
    __staticDataRoutesKept.set(routes, kept);
  }
  return kept;
}
`,
    },
    {
      // lib/router/utils.ts: matchRoutesImpl. Which branch (of about eighty) first matches a path is
      // remembered per path, so the next request for that path matches that branch only: the same
      // result, made afresh, without trying every branch ranked above it.
      find: "  let branches = precomputedBranches ?? flattenAndRankRoutes(routes);\n  let matches = null;\n  let decoded = decodePath(pathname);\n  for (let i = 0; matches == null && i < branches.length; ++i) {\n    matches = matchRouteBranch(\n      branches[i],\n      decoded,\n      allowPartial\n    );\n  }\n  return matches;",
      replace: "  if (precomputedBranches) return __firstMatchingBranch(precomputedBranches, decodePath(pathname), allowPartial);\n  let branches = flattenAndRankRoutes(routes);\n  let matches = null;\n  let decoded = decodePath(pathname);\n  for (let i = 0; matches == null && i < branches.length; ++i) {\n    matches = matchRouteBranch(\n      branches[i],\n      decoded,\n      allowPartial\n    );\n  }\n  return matches;",
      append: `
var __firstBranchKept = new WeakMap();
function __firstMatchingBranch(branches, decoded, allowPartial) {
  let byPath = __firstBranchKept.get(branches);
  if (!byPath) __firstBranchKept.set(branches, (byPath = new Map()));
  let key = (allowPartial ? "p" : "e") + decoded;
  let known = byPath.get(key);
  if (known !== void 0) return known < 0 ? null : matchRouteBranch(branches[known], decoded, allowPartial);
  let matches = null;
  let i = 0;
  for (; matches == null && i < branches.length; ++i) matches = matchRouteBranch(branches[i], decoded, allowPartial);
  if (byPath.size >= 1000) byPath.clear();
  byPath.set(key, matches == null ? -1 : i - 1);
  return matches;
}
`,
    },
    {
      find: "`window.__reactRouterManifest = ${JSON.stringify(\n        getPartialManifest(manifest, router),\n        null,\n        2\n      )};`",
      replace: "`window.__reactRouterManifest = ${__keptPartialManifestJson(manifest, router)};`",
      append: `
var __partialManifestsKept = new WeakMap();
function __keptPartialManifestJson(manifest, router) {
  let byPage = __partialManifestsKept.get(manifest);
  if (!byPage) __partialManifestsKept.set(manifest, (byPage = new Map()));
  let key = router.state.location.pathname + "\\u0000" + router.state.matches.map((m) => m.route.id).join("\\u0000");
  let json = byPage.get(key);
  if (json === void 0) {
    json = JSON.stringify(getPartialManifest(manifest, router), null, 2);
    if (byPage.size >= 500) byPage.clear();
    byPage.set(key, json);
  }
  return json;
}
`,
    },
  ],
};

/** Which of React Router's files holds each group of patches: the one that defines the function. */
const HOLDERS: Record<string, RegExp> = {
  ServerRouter: /\nfunction ServerRouter\(\{/,
  stripIndexParam: /\nfunction stripIndexParam\(request\) \{/,
  createStaticRouter: /\nfunction createStaticRouter\(routes, context, opts = \{\}\) \{/,
};

export function reactRouterReuse(): Plugin {
  const applied = new Set<string>();
  return {
    name: "textcircle:react-router-reuse",
    apply: "build",
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/]/.test(id)) return null;
      let out = code;
      for (const [group, holder] of Object.entries(HOLDERS)) {
        if (!holder.test(out)) continue;
        for (const patch of PATCHES[group]) {
          const at = out.indexOf(patch.find);
          if (at < 0 || out.indexOf(patch.find, at + 1) >= 0) {
            throw new Error(`react-router-reuse: React Router's code is not what this patch expects (${group}, in ${id}). Check the patch against the installed version, or remove it.`);
          }
          out = out.slice(0, at) + patch.replace + out.slice(at + patch.find.length) + patch.append;
        }
        applied.add(group);
      }
      return out === code ? null : { code: out, map: null };
    },
    buildEnd(error) {
      if (error) return;
      const missing = Object.keys(HOLDERS).filter((g) => !applied.has(g));
      if (missing.length) this.error(`react-router-reuse: React Router's ${missing.join(", ")} was not in the server bundle, so it was not patched.`);
    },
  };
}
