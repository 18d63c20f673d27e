// Child process for the HTTP suites: serves the built app on an ephemeral port and prints it.
import http from "node:http";
const mod = await import(new URL("../../build/server/index.js", import.meta.url).href);
const started = await mod.createApp(process.env);
// As server.js does: provider webhooks first, then the Express app.
const server = http.createServer((req, res) => {
  if (!started.handleWebhook(req, res)) started.app(req, res);
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`PORT=${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => started.close().finally(() => process.exit(0))));
