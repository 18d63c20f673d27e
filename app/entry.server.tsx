import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { contentSecurityPolicy, nonceContext } from "~/lib/csp.server";
import { getI18n } from "~/lib/i18n.server";
import { compressPage } from "~/lib/page-compression.server";
import { NonceContext } from "~/lib/nonce";

export const streamTimeout = 5000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  return new Promise((resolve, reject) => {
    // No page defers data behind a Suspense boundary, so the document is complete moments after its
    // shell: it is rendered in full and sent as one body. Streaming it in React's small pieces cost a
    // web-stream hop and a zlib call per piece for nothing the browser could use sooner.
    const nonce = loadContext.get(nonceContext);
    let shellRendered = false;
    // Cleared once the page is sent: a pending timer would keep the whole render in memory for seconds.
    const timer = setTimeout(() => abort(), streamTimeout + 1000);
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <I18nextProvider i18n={getI18n(loadContext)}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nextProvider>
      </NonceContext.Provider>,
      {
        nonce,
        onShellReady() {
          shellRendered = true;
        },
        onAllReady() {
          const body = new PassThrough();
          const chunks: Buffer[] = [];
          body.on("data", (chunk: Buffer) => chunks.push(chunk));
          body.on("error", reject);
          body.on("end", () => {
            clearTimeout(timer);
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            responseHeaders.set("X-Content-Type-Options", "nosniff");
            responseHeaders.set("Referrer-Policy", "same-origin");
            responseHeaders.set("X-Frame-Options", "DENY");
            // Not under Vite's development server, whose hot reload relies on inline scripts of its own.
            if (!import.meta.env.DEV) responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
            // Compressed here in one call (see page-compression.server.ts); the development server's
            // middleware stack is left as it is.
            let page = Buffer.concat(chunks);
            if (!import.meta.env.DEV) {
              const compressed = compressPage(page, request.headers.get("Accept-Encoding"), responseHeaders.get("Cache-Control"), request.method);
              responseHeaders.append("Vary", "Accept-Encoding");
              if (compressed.encoding) {
                responseHeaders.set("Content-Encoding", compressed.encoding);
                page = compressed.body;
              }
            }
            resolve(new Response(page, { headers: responseHeaders, status: responseStatusCode }));
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          // A failure after the shell is rendered on the client instead; the status is the page's own.
          if (shellRendered) console.error(error);
          else responseStatusCode = 500;
        },
      },
    );
  });
}
