// `npm start`: build the app if the build is missing or stale, then serve it in production mode.
// The server runs in this process, so a signal sent to it reaches the server's own shutdown (server.js).
import { ensureBuild } from "./ensure-build.mjs";

ensureBuild();
process.env.NODE_ENV = "production";

// npm runs this script through `sh -c`. When npm itself is sent SIGTERM the shell dies without passing
// the signal on, and this process would be left behind holding the port. Losing the parent counts as SIGTERM.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  process.kill(process.pid, "SIGTERM");
}, 250);
watch.unref();

await import("../server.js");
