// Starts Textcircle. Production (`npm start`): serves the built app from build/. Development
// (`npm run dev`): Vite middleware with hot reload. Plain JavaScript so Node runs it without a build.
import http from "node:http";
import compression from "compression";
import express from "express";
import { accessLog } from "./server/access-log.js";

const production = process.env.NODE_ENV === "production";

async function main() {
  const server = express();
  server.disable("x-powered-by");
  // HTML, CSS and JS are compressed. The JSON API and webhooks answer small bodies where zlib's per-response
  // set-up cost more than it saved (it was the largest CPU cost of a polling request).
  server.use(compression({ filter: (req, res) => !/^\/(api|webhooks|simulator\/api)\//.test(req.path) && compression.filter(req, res) }));
  let started;
  if (production) {
    server.use("/assets", express.static("build/client/assets", { immutable: true, maxAge: "1y", index: false }));
    // Other public files (favicon…): only paths that look like files reach the disk, so pages and the API
    // do not pay a stat() per request.
    const publicFiles = express.static("build/client", { maxAge: "1h", index: false });
    server.use((req, res, next) => (/\.[a-z0-9]+$/i.test(req.path) ? publicFiles(req, res, next) : next()));
    const mod = await import("./build/server/index.js");
    started = await mod.createApp();
    server.use(started.app);
  } else {
    const vite = await import("vite").then((v) => v.createServer({ server: { middlewareMode: true } }));
    server.use(vite.middlewares);
    const mod = await vite.ssrLoadModule("./server/app.ts");
    started = await mod.createApp();
    server.use(started.app);
  }
  // Provider webhooks are answered before Express (no middleware they need, and thousands a second at peak).
  // HOST (validated by the app's configuration) defaults to loopback: other machines reach the app only
  // when the operator says so, e.g. HOST=0.0.0.0 behind a proxy.
  const { host, port } = started.config;
  const logRequest = accessLog({ slowMs: started.config.accessLogSlowMs });
  const listener = http
    .createServer((req, res) => {
      logRequest(req, res);
      if (!started.handleWebhook(req, res)) server(req, res);
    })
    .listen(port, host, () => {
      const shown = host.includes(":") ? `[${host}]` : host;
      console.log(`Textcircle is running at http://${host === "127.0.0.1" ? "localhost" : shown}:${listener.address().port} (listening on ${shown})`);
    });
  const stop = () => {
    listener.close(() => started.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
