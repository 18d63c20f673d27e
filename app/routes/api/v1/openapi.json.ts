// GET /api/v1/openapi.json: the public API's OpenAPI 3.1 document (public: it describes, it holds no data).
import type { Route } from "./+types/openapi.json";
import { apiJson } from "~/lib/api.server";
import { getDeps } from "~/lib/context.server";
import { openApiDocument } from "~/lib/public-api/openapi";

let cached: { url: string; body: Record<string, unknown> } | null = null;

export function loader({ context }: Route.LoaderArgs) {
  const { config } = getDeps(context);
  if (cached?.url !== config.publicUrl) cached = { url: config.publicUrl, body: openApiDocument(config.publicUrl) };
  return apiJson(cached.body, { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
}
