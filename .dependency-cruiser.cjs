// Dependency direction (`npm run depcheck`): dependencies point one way, routes → domain → db, and
// domain → provider interfaces. Every rule below is an error; the check fails on any of them.
// Path aliases (~ = app, #db = db, #migrations = migrations) are resolved through tsconfig.json.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycles",
      severity: "error",
      comment: "Import cycles make load order matter and tie modules together: break the cycle.",
      from: {},
      to: { circular: true },
    },
    {
      name: "domain-not-to-ui",
      severity: "error",
      comment: "Domain services hold the business rules and know nothing of routes or components.",
      from: { path: "^app/domain/" },
      to: { path: "^app/(routes|components)/" },
    },
    {
      name: "lib-not-to-routes",
      severity: "error",
      comment: "Shared helpers in app/lib serve the routes; they must not depend on one.",
      from: { path: "^app/lib/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "server-not-to-routes",
      severity: "error",
      comment:
        "The Express server receives the React Router build through the virtual:react-router/server-build " +
        "module (resolved by Vite, not a file in app/routes); it must not import route modules directly.",
      from: { path: "^server/" },
      to: { path: "^app/routes/" },
    },
    {
      name: "db-not-to-app",
      severity: "error",
      comment: "db/ (the Kysely factory, types, migrator, seed) sits below the app and must not import it.",
      from: { path: "^db/" },
      to: { path: "^app/" },
    },
    {
      name: "migrations-frozen",
      severity: "error",
      comment: "Migrations are frozen: they may not import the app, nor db/ beyond its type declarations.",
      from: { path: "^migrations/" },
      to: { path: "^(app/|db/(?!types\\.ts$))" },
    },
    {
      name: "providers-not-to-domain-or-routes",
      severity: "error",
      comment: "Providers (the SMS simulator, Twilio) sit behind small interfaces and know nothing of the domain or routes.",
      from: { path: "^app/providers/" },
      to: { path: "^app/(domain|routes)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|build|\\.react-router|test-results|playwright-report|data)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".mts", ".js", ".mjs", ".cjs", ".json", ".d.ts"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
