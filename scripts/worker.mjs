// `npm run worker`: runs the outbound/inbound pipeline worker alone, from the built bundle
// (build/server/index.js; built first if missing or stale). Several may run at once on PostgreSQL.
// SIGTERM/SIGINT finish the batch in hand, then exit.
import { ensureBuild } from "./ensure-build.mjs";

// Signals are handled from the very first moment: a stop requested while the bundle is still loading
// is honoured as soon as the worker exists (never the default "die at once" action).
let worker = null;
let stopping = false;
const stop = (signal) => {
  if (stopping) return;
  stopping = true;
  console.log(`Worker ${worker?.workerId ?? "(starting)"} stopping (${signal})`);
  setTimeout(() => process.exit(1), 15000).unref();
  if (!worker) return; // the start-up below sees `stopping` and stops at once
  worker.stop().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
};
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));

if (process.env.WORKER_SKIP_BUILD !== "1") ensureBuild({ quiet: true });
const mod = await import(new URL("../build/server/index.js", import.meta.url).href);
worker = await mod.runWorker(process.env);
console.log(`Worker ${worker.workerId} started`);
if (stopping) {
  stopping = false;
  stop("early signal");
}
