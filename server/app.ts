// The Express application: built by Vite into build/server/index.js and started by server.js.
// It validates configuration, opens and migrates the database, seeds the demo business on an empty
// simulator install, then serves React Router with the app's dependencies in the router context.
import express from "express";
import { createRequestHandler } from "@react-router/express";
import { RouterContextProvider } from "react-router";
import { setToastCookieOptions } from "remix-toast";
import { createDb, pgSchemaOf } from "#db/index";
import { migrateToLatest } from "#db/migrator";
import { seedDemo } from "#db/seed";
import { loadConfig, type Config } from "~/lib/config.server";
import { depsContext, type AppDeps } from "~/lib/context.server";
import { createSmsProvider } from "~/providers/sms/index.server";
import { OutboundWorker } from "~/domain/messaging/worker.server";
import * as twilioSmsWebhook from "~/routes/webhooks/twilio.sms";
import * as twilioStatusWebhook from "~/routes/webhooks/twilio.status";

/** Bodies up to 2 MB (a 1 MB hostile form post still gets a proper validation answer). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const IMPORT_MAX_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;
/** Webhook bodies are read up to just past the routes' own 64 kB limit. */
const WEBHOOK_READ_LIMIT = 64 * 1024 + 1;

export interface Started {
  app: express.Express;
  deps: AppDeps;
  config: Config;
  close(): Promise<void>;
}

/** Builds the app from an environment (process.env by default; tests pass their own). */
export async function createApp(env: Record<string, string | undefined> = process.env): Promise<Started> {
  const config = loadConfig(env);
  const db = createDb(config.databaseUrl);
  await migrateToLatest(db, { schema: pgSchemaOf(config.databaseUrl) });
  const now = () => new Date();
  const deps: AppDeps = { db, config, sms: createSmsProvider(config, db, now), now };
  if (config.seedDemo && config.smsProvider === "simulator") {
    const seeded = await seedDemo(db, now());
    if (seeded) {
      console.log(`Demo business ready: sign in at ${config.publicUrl}/login as ${seeded.email} with password ${seeded.password}`);
    }
  }

  setToastCookieOptions({ secrets: [config.sessionSecret], secure: config.production, sameSite: "lax", httpOnly: true });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  app.use((req, res, next) => {
    // §7: every response carries the app version so the browser can detect a stale bundle.
    res.setHeader("X-App-Version", config.appVersion);
    // The client address for rate limits; never trust one the client sent itself.
    req.headers["x-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    // Refuse oversized bodies before anything reads them.
    const length = Number(req.headers["content-length"] ?? 0);
    // The member CSV import takes files up to 10 MB (task H); a bigger one goes back to the form with a clear error.
    if (req.path === "/mycommunity/import" && req.method === "POST") {
      if (length > IMPORT_MAX_BODY_BYTES) {
        res.redirect(303, "/mycommunity/import?error=tooBig");
        return;
      }
      next();
      return;
    }
    if (length > MAX_BODY_BYTES) {
      res.status(413);
      if (req.path.startsWith("/api/")) res.json({ responseCode: "BR025", data: null, errorStatuses: [{ responseCode: "BR025" }] });
      else res.type("text/plain").send("Request too large");
      return;
    }
    next();
  });
  // Provider webhooks are machine-to-machine and high-volume: the same route modules, called directly,
  // without the page middleware (i18n, toasts, CSRF) a browser request needs.
  const webhooks: Array<[string, { action: (args: never) => Promise<Response> }]> = [
    ["/webhooks/twilio/sms", twilioSmsWebhook],
    ["/webhooks/twilio/status", twilioStatusWebhook],
  ];
  for (const [pathname, mod] of webhooks) {
    app.post(pathname, (req, res, next) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on("data", (c: Buffer) => {
        // Enough for the route to see the body is too big; the rest is not kept.
        if (size <= WEBHOOK_READ_LIMIT) chunks.push(c);
        size += c.length;
      });
      req.on("error", next);
      req.on("end", () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(req.headers)) {
          if (typeof v === "string") headers.set(k, v);
          else if (Array.isArray(v)) for (const item of v) headers.append(k, item);
        }
        const request = new Request(`http://${req.headers.host ?? "localhost"}${req.originalUrl}`, { method: "POST", headers, body: Buffer.concat(chunks) });
        const context = new RouterContextProvider();
        context.set(depsContext, deps);
        mod
          .action({ request, context, params: {} } as never)
          .then(async (response) => {
            res.status(response.status);
            response.headers.forEach((value, key) => res.setHeader(key, value));
            res.end(Buffer.from(await response.arrayBuffer()));
          })
          .catch(next);
      });
    });
  }
  app.use(
    createRequestHandler({
      // In production hand React Router the build itself: given a function, it re-derives its route
      // tables (flatten, rank, compile every path) on every request, which was most of an API request's
      // CPU time. In development the function keeps hot reload working.
      build: config.production ? await import("virtual:react-router/server-build") : () => import("virtual:react-router/server-build"),
      getLoadContext() {
        const context = new RouterContextProvider();
        context.set(depsContext, deps);
        return context;
      },
    }),
  );
  // The durable outbound pipeline's worker runs inside the web process unless RUN_WORKER=false.
  const worker = config.runWorker ? new OutboundWorker(deps) : null;
  worker?.start();
  return {
    app,
    deps,
    config,
    async close() {
      await worker?.stop();
      await db.destroy();
    },
  };
}

/**
 * `npm run worker`: a worker process on its own (no HTTP). Returns a stop function; SIGTERM/SIGINT
 * finish the batch in hand, then exit.
 */
export async function runWorker(env: Record<string, string | undefined> = process.env): Promise<{ workerId: string; stop(): Promise<void> }> {
  const config = loadConfig(env);
  const db = createDb(config.databaseUrl);
  await migrateToLatest(db, { schema: pgSchemaOf(config.databaseUrl) });
  const now = () => new Date();
  const worker = new OutboundWorker({ db, config, sms: createSmsProvider(config, db, now), now });
  worker.start();
  let stopped: Promise<void> | null = null;
  return {
    workerId: worker.id,
    stop() {
      stopped ??= worker.stop().then(() => db.destroy());
      return stopped;
    },
  };
}

/** `npm run db:migrate`: brings the configured database up to date and exits. */
export async function migrateOnly(env: Record<string, string | undefined> = process.env): Promise<string[]> {
  const config = loadConfig(env);
  const db = createDb(config.databaseUrl);
  try {
    return await migrateToLatest(db, { schema: pgSchemaOf(config.databaseUrl) });
  } finally {
    await db.destroy();
  }
}
