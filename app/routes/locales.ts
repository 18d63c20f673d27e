// The browser's translations for one language (entry.client fetches it before hydrating).
import type { Route } from "./+types/locales";
import { isLocale } from "~/lib/i18n";
import { resources } from "~/lib/i18n-resources.server";
import { sha256 } from "~/lib/crypto.server";

const cache = new Map<string, { body: string; etag: string }>();

export async function loader({ params, request }: Route.LoaderArgs) {
  if (!isLocale(params.lng)) return new Response("Not found", { status: 404 });
  let entry = cache.get(params.lng);
  if (!entry) {
    const body = JSON.stringify(resources[params.lng]);
    entry = { body, etag: `"${sha256(body).slice(0, 16)}"` };
    cache.set(params.lng, entry);
  }
  const headers = { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-cache", ETag: entry.etag };
  if (request.headers.get("If-None-Match") === entry.etag) return new Response(null, { status: 304, headers });
  return new Response(entry.body, { headers });
}
