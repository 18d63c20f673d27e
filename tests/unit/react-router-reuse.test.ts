import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { reactRouterReuse } from "../../server/react-router-reuse";

type Transform = (code: string, id: string) => { code: string } | null;

const dist = path.resolve("node_modules/react-router/dist/development");
const run = (code: string, id: string) => (reactRouterReuse().transform as unknown as Transform).call({}, code, id);

describe("the build-time React Router patch", () => {
  it("applies to the installed React Router: the routes, data routes, route matches and inline manifest are kept", () => {
    const out = fs
      .readdirSync(dist)
      .filter((f) => f.endsWith(".mjs") && !f.includes("react-server"))
      .map((f) => run(fs.readFileSync(path.join(dist, f), "utf8"), path.join(dist, f))?.code ?? "")
      .join("\n");
    expect(out).toContain("let routes = __keptServerRoutes(");
    expect(out).toContain("function stripIndexParam(request) {\n  if (__nothingToStrip(request)) return request;");
    expect(out).toContain("function stripRoutesParam(request) {\n  if (__nothingToStrip(request)) return request;");
    expect(out).toContain("let { manifest, dataRoutes } = __keptStaticDataRoutes(routes);");
    expect(out).toContain("if (precomputedBranches) return __firstMatchingBranch(");
    expect(out).toContain("window.__reactRouterManifest = ${__keptPartialManifestJson(manifest, router)};");
  });

  it("stops the build when React Router's code is not what it expects", () => {
    const id = path.join(dist, "chunk-changed.mjs");
    expect(() => run("\nfunction ServerRouter({ context }) {\n  let routes = makeRoutes(context);\n}\n", id)).toThrow(/not what this patch expects/);
  });

  it("leaves every other module alone", () => {
    expect(run("\nfunction ServerRouter({", "/app/routes/home.tsx")).toBeNull();
  });
});
