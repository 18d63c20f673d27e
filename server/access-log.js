// A one-line access log for the requests worth a look: those answered with a server error (5xx) and
// those slower than a threshold (ACCESS_LOG_SLOW_MS). Plain JavaScript: server.js uses it before any build.

/** Path segments that look like a secret (a member's private link, an admin access token) are not written out. */
const SECRETISH = /^(?=[A-Za-z0-9_-]*[0-9])(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{16,}$/;

/** The request's path without its query string, secret-looking segments replaced, printable and short. */
export function loggablePath(url) {
  const path = String(url ?? "").split("?")[0].split("#")[0];
  const shown = path
    .split("/")
    .map((segment) => (SECRETISH.test(segment) ? "***" : segment))
    .join("/")
    .replace(/[^\x21-\x7e]/g, "?");
  return shown.length > 200 ? `${shown.slice(0, 200)}...` : shown;
}

/**
 * Returns a function to call first thing for each request: when the response is done it writes
 * `<time> <method> <path> <status> <ms>ms` if the status is 500 or more or it took slowMs or longer
 * (slowMs 0 logs every request).
 */
export function accessLog({ slowMs, write = (line) => console.log(line), clock = () => performance.now(), date = () => new Date() }) {
  return (req, res) => {
    const started = clock();
    res.once("close", () => {
      const ms = Math.round(clock() - started);
      const status = res.writableFinished ? res.statusCode : "aborted";
      if ((typeof status === "number" && status >= 500) || ms >= slowMs) {
        write(`${date().toISOString()} ${String(req.method).slice(0, 10)} ${loggablePath(req.url)} ${status} ${ms}ms`);
      }
    });
  };
}
