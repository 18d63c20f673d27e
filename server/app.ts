// The Express application: built by Vite into build/server/index.js and started by server.js.
// It validates configuration, opens and migrates the database, seeds the demo business on an empty
// simulator install, then serves React Router with the app's dependencies in the router context.
import express from "express";
import { createRequestHandler } from "@react-router/express";
import { RouterContextProvider } from "react-router";
import { createDb, pgSchemaOf } from "#db/index";
import { migrateToLatest } from "#db/migrator";
import { seedDemo } from "#db/seed";
import { isLoopback, loadConfig, TERMS_VERSION, type Config } from "~/lib/config.server";
import { hashPassword } from "~/lib/crypto.server";
import { depsContext, type AppDeps } from "~/lib/context.server";
import { newNonce, nonceContext } from "~/lib/csp.server";
import { configureToastCookie } from "~/lib/toast.server";
import { hasBadPath, isMachinePath, methodNotAllowedAnswer, notFoundAnswer, pickLocale, ROUTER_METHODS } from "~/lib/early-answers.server";
import { takeRateLimit } from "~/lib/public-api/rate-limit.server";
import { createSmsProvider } from "~/providers/sms/index.server";
import { createPaymentProvider } from "~/providers/payments/index.server";
import { createShopProvider } from "~/providers/shop/index.server";
import { OutboundWorker } from "~/domain/messaging/worker.server";
import { workerRounds } from "~/domain/jobs/index.server";
import type { IncomingMessage, ServerResponse } from "node:http";
import { handleSmsWebhook, handleStatusWebhook, handleStripeWebhook } from "./webhooks";
import { MAX_WEBHOOK_BYTES, type RawWebhook, type WebhookAnswer } from "~/lib/webhook.server";

/** Bodies up to 2 MB (a 1 MB hostile form post still gets a proper validation answer). */
const MAX_BODY_BYTES = 2 * 1024 * 1024;
const IMPORT_MAX_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;

/**
 * Calls `send` once the request's body has been read to its end (up to MAX_BODY_BYTES, then at once), so a client
 * still sending a large body hears the answer instead of a broken pipe.
 */
function answerAfterBody(req: IncomingMessage, send: () => void): void {
  if (req.complete || req.readableEnded) return send();
  let seen = 0;
  let sent = false;
  const finish = () => {
    if (sent) return;
    sent = true;
    req.off("data", onData);
    send();
  };
  const onData = (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > MAX_BODY_BYTES) finish();
  };
  req.on("data", onData);
  req.once("end", finish);
  req.once("error", finish);
}

export interface Started {
  app: express.Express;
  /**
   * Answers the provider webhooks straight from Node's request, before Express: true when it took the
   * request. server.js calls it first; everything else goes to `app`.
   */
  handleWebhook(req: IncomingMessage, res: ServerResponse): boolean;
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
  const deps: AppDeps = { db, config, sms: createSmsProvider(config, db, now), payments: createPaymentProvider(config, db, now), shop: createShopProvider(config.shop, db, now), now };
  if (config.seedDemo && config.smsProvider === "simulator") {
    const seeded = await seedDemo(db, now(), { hashPassword, termsVersion: TERMS_VERSION });
    if (seeded) {
      console.log(`Demo business ready: sign in at ${config.publicUrl}/login as ${seeded.email} with password ${seeded.password}`);
    }
  }

  if (config.smsProvider === "simulator" && !config.simulatorServed) {
    console.warn(
      `Warning: the SMS simulator (/simulator and /simulator/api) is not served because HOST=${config.host} is reachable from other machines. Set SIMULATOR_PUBLIC=true to serve it anyway.`,
    );
  } else if (config.simulatorServed && !isLoopback(config.host)) {
    console.warn(`Warning: SIMULATOR_PUBLIC=true: anyone who can reach HOST=${config.host} can read every simulated text (sign-up PINs included).`);
  }

  if (config.production && !config.billing.supplierConfigured) {
    console.warn("Warning: invoices and credit notes name the demonstration supplier. Set SUPPLIER_NAME, SUPPLIER_ADDRESS and SUPPLIER_VAT_NUMBER to your company's.");
  }

  configureToastCookie({ secret: config.sessionSecret, secure: config.production });

  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", "loopback");
  app.use((req, res, next) => {
    // Every response carries the app version so the browser can detect a stale bundle.
    res.setHeader("X-App-Version", config.appVersion);
    // No answer is ever to be sniffed as another content type.
    res.setHeader("X-Content-Type-Options", "nosniff");
    // Requests no route can take are answered here, never with a 500 from deeper down: a method React
    // Router does not serve (405 with Allow), a path with control characters or broken encoding (404).
    const rawPath = (req.originalUrl ?? req.url).split("?")[0];
    const badPath = hasBadPath(rawPath);
    if (badPath || !ROUTER_METHODS.has(req.method) || (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST" && !isMachinePath(rawPath))) {
      const lng = pickLocale(typeof req.query.lng === "string" ? req.query.lng : null, req.headers.cookie, req.headers["accept-language"]);
      const a = badPath ? notFoundAnswer(rawPath, lng) : methodNotAllowedAnswer(rawPath, lng);
      answerAfterBody(req, () => {
        res.status(a.status).set(a.headers);
        res.end(req.method === "HEAD" ? undefined : a.body);
      });
      return;
    }
    // The client address for rate limits; never trust one the client sent itself.
    req.headers["x-client-ip"] = req.ip ?? req.socket.remoteAddress ?? "unknown";
    // Refuse oversized bodies before anything reads them.
    const length = Number(req.headers["content-length"] ?? 0);
    // The member CSV import takes files up to 10 MB; a bigger one goes back to the form with a clear error.
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
  // Provider webhooks are machine-to-machine and high-volume: also served here (for an embedder that
  // only mounts `app`), but server.js hands them to handleWebhook before Express sees them.
  app.post(Object.keys(WEBHOOKS), (req, res) => {
    handleWebhook(req, res);
  });
  // The public API's per-key rate limit, answered here before React Router: a refused request costs a hash and a
  // map lookup, so a flood on one key does no routing or database work (decision 014).
  app.use("/api/v1/", (req, res, next) => {
    const limit = takeRateLimit(req.headers.authorization, config.apiRateLimit);
    if (!limit) return next();
    res.set(limit.headers);
    if (!limit.refused) return next();
    const refused = limit.refused;
    answerAfterBody(req, () => {
      res.status(429).set(refused.headers).json(refused.body);
    });
  });
  app.use(
    createRequestHandler({
      // In production hand React Router the build itself: given a function, it re-derives its route
      // tables (flatten, rank, compile every path) on every request, which was most of an API request's
      // CPU time. In development the function keeps hot reload working.
      build: config.production ? await import("virtual:react-router/server-build") : () => import("virtual:react-router/server-build"),
      getLoadContext() {
        const context = new RouterContextProvider();
        context.set(depsContext, deps);
        context.set(nonceContext, newNonce());
        return context;
      },
    }),
  );
  // The durable outbound pipeline's worker runs inside the web process unless RUN_WORKER=false.
  const worker = config.runWorker ? new OutboundWorker(deps, { rounds: workerRounds(deps) }) : null;
  worker?.start();
  const handleWebhook = (req: IncomingMessage, res: ServerResponse): boolean => {
    const q = req.url?.indexOf("?") ?? -1;
    const pathname = q < 0 ? req.url : req.url?.slice(0, q);
    const handler = pathname ? WEBHOOKS[pathname] : undefined;
    if (!handler || req.method !== "POST") return false;
    void readNodeWebhook(req, res)
      .then((raw) => handler(raw, deps))
      .catch((error: unknown) => {
        console.error("webhook failed:", error);
        return { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" }, body: "Internal error" } satisfies WebhookAnswer;
      })
      .then((a) => {
        res.writeHead(a.status, { ...a.headers, "X-App-Version": config.appVersion });
        res.end(a.body ?? undefined);
      });
    return true;
  };
  return {
    app,
    handleWebhook,
    deps,
    config,
    async close() {
      await worker?.stop();
      await db.destroy();
    },
  };
}

const WEBHOOKS: Record<string, (raw: RawWebhook, deps: AppDeps) => Promise<WebhookAnswer>> = {
  "/webhooks/twilio/sms": handleSmsWebhook,
  "/webhooks/twilio/status": handleStatusWebhook,
  "/webhooks/stripe": handleStripeWebhook,
};

/**
 * A webhook off Node's request. The body is kept up to the routes' 64 kB limit. A longer body (by its
 * Content-Length or as it streams in) is read on and thrown away up to MAX_BODY_BYTES, so the client hears
 * the route's 413 after it has finished sending rather than a reset; past that the answer goes at once and
 * the connection is closed after it.
 */
function readNodeWebhook(req: IncomingMessage, res: ServerResponse): Promise<RawWebhook> {
  return new Promise((resolve, reject) => {
    const header = (name: string) => {
      const v = req.headers[name];
      return v === undefined ? null : Array.isArray(v) ? v.join(", ") : v;
    };
    const raw = (body: Uint8Array | null): RawWebhook => ({
      method: req.method ?? "GET",
      contentType: header("content-type"),
      contentLength: header("content-length"),
      signature: header("x-twilio-signature"),
      stripeSignature: header("stripe-signature"),
      pathAndQuery: req.url ?? "/",
      body,
    });
    const giveUp = () => {
      res.shouldKeepAlive = false;
      resolve(raw(null));
    };
    if (Number(req.headers["content-length"] ?? 0) > MAX_BODY_BYTES) return giveUp();
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer) => {
      size += c.length;
      if (size <= MAX_WEBHOOK_BYTES) chunks.push(c);
      else if (size > MAX_BODY_BYTES) {
        req.off("data", onData);
        req.resume();
        giveUp();
      }
    };
    req.on("data", onData);
    req.on("error", reject);
    req.on("end", () => {
      if (size <= MAX_BODY_BYTES) resolve(raw(size > MAX_WEBHOOK_BYTES ? null : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    });
  });
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
  const workerDeps = { db, config, sms: createSmsProvider(config, db, now), payments: createPaymentProvider(config, db, now), shop: createShopProvider(config.shop, db, now), now };
  const worker = new OutboundWorker(workerDeps, { rounds: workerRounds(workerDeps) });
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
