// Every unknown /webhooks/ path, for every method: a plain 404 (never the HTML page, which needs the
// language context webhooks do without).
export function loader() {
  return new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

export const action = loader;
