// The OpenAPI document of the public API: every /api/v1 route of app/routes.ts is in it with exactly the methods
// the route serves, every operation in it is served, and every example in it validates against the zod schema
// that checks real requests (and real answers' shapes).
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import { z } from "zod";
import routes from "~/routes";
import { openApiDocument } from "~/lib/public-api/openapi";
import { OPERATIONS, type Operation } from "~/lib/public-api/operations";

function flatten(entries: RouteConfigEntry[], parent = ""): Array<{ path: string; file: string }> {
  return entries.flatMap((e) => {
    const path = e.path ? `${parent}/${e.path}` : parent;
    const own = e.children?.length ? [] : [{ path: path || "/", file: e.file }];
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

const doc = openApiDocument("https://app.example.test") as { openapi: string; paths: Record<string, Record<string, { operationId: string; "x-scope": string; requestBody?: { content: Record<string, { schema: unknown; example?: unknown }> } }>> };
const ops = Object.values(OPERATIONS) as Operation[];

describe("the public API's OpenAPI document", () => {
  it("is OpenAPI 3.1 and lists every /api/v1 route of the app with the methods and scopes it serves", async () => {
    expect(doc.openapi).toBe("3.1.0");
    const v1 = flatten(routes).filter((r) => r.path.startsWith("/api/v1/") && r.path !== "/api/v1/openapi.json");
    expect(v1.length).toBeGreaterThanOrEqual(10);
    const served = new Set<string>();
    for (const r of v1) {
      const openApiPath = r.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const mod = (await import(/* @vite-ignore */ `../../app/${r.file}`)) as { loader?: { scopes?: Record<string, string> } };
      const scopes = mod.loader?.scopes;
      expect(scopes, r.path).toBeDefined();
      const item = doc.paths[openApiPath];
      expect(item, `${openApiPath} is missing from the document`).toBeDefined();
      expect(Object.keys(item).map((m) => m.toUpperCase()).sort(), openApiPath).toEqual(Object.keys(scopes!).sort());
      for (const [method, scope] of Object.entries(scopes!)) {
        expect(item[method.toLowerCase()]["x-scope"], `${method} ${openApiPath}`).toBe(scope);
        served.add(`${method} ${openApiPath}`);
      }
    }
    // And nothing in the document that the app does not serve.
    const documented = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(documented.sort()).toEqual([...served].sort());
    expect(new Set(ops.map((o) => o.id)).size).toBe(ops.length);
  });

  it("has examples that validate against the schemas the requests are checked with", () => {
    for (const op of ops) {
      const where = `${op.method} ${op.path}`;
      if (op.params) expect(op.params.safeParse(op.examples.params ?? {}).success, `${where} params`).toBe(true);
      if (op.query) expect(op.query.safeParse(op.examples.query ?? {}).success, `${where} query`).toBe(true);
      if (op.body) {
        const parsed = op.body.safeParse(op.examples.body);
        expect(parsed.success, `${where} body: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
        // The document carries the same example beside the schema generated from the same zod object.
        const content = doc.paths[op.path][op.method.toLowerCase()].requestBody!.content["application/json"];
        expect(content.example).toEqual(op.examples.body);
        expect(content.schema).toEqual(JSON.parse(JSON.stringify(z.toJSONSchema(op.body, { target: "draft-2020-12", io: "input", unrepresentable: "any" }), (k, v: unknown) => (k === "$schema" ? undefined : v))));
      }
      if (op.response) {
        const parsed = op.response.safeParse(op.examples.response);
        expect(parsed.success, `${where} response: ${parsed.success ? "" : JSON.stringify(parsed.error.issues)}`).toBe(true);
      } else expect(op.status).toBe(204);
    }
  });

  it("refuses what the schemas refuse: unknown fields and wrong types", () => {
    expect(OPERATIONS.addMember.body.safeParse({ ...(OPERATIONS.addMember.examples.body as object), colour: "red" }).success).toBe(false);
    expect(OPERATIONS.sendMessage.body.safeParse({ text: 12 }).success).toBe(false);
    expect(OPERATIONS.createGroupMessage.body.safeParse({ contactGroupId: "1", text: "x" }).success).toBe(false);
    expect(OPERATIONS.listMembers.query.safeParse({ limit: "101" }).success).toBe(false);
  });
});
