// The access log: one line for a server error or a slow request, nothing for the rest; no query strings
// or secret-looking path segments in it; ACCESS_LOG_SLOW_MS validated at start-up.
import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { accessLog, loggablePath } from "../../server/access-log.js";
import { loadConfig } from "~/lib/config.server";

function run(slowMs: number, request: { method: string; url: string }, response: { status: number; ms: number; finished?: boolean }) {
  const lines: string[] = [];
  let t = 1000;
  const log = accessLog({ slowMs, write: (l: string) => lines.push(l), clock: () => t, date: () => new Date("2026-11-21T14:05:00Z") });
  const res = Object.assign(new EventEmitter(), { statusCode: response.status, writableFinished: response.finished ?? true });
  log(request, res);
  t += response.ms;
  res.emit("close");
  return lines;
}

describe("access log", () => {
  it("writes one line for a 5xx and for a slow request, and nothing for a quick success", () => {
    expect(run(1000, { method: "POST", url: "/groups?q=x" }, { status: 500, ms: 12 })).toEqual(["2026-11-21T14:05:00.000Z POST /groups 500 12ms"]);
    expect(run(1000, { method: "GET", url: "/home" }, { status: 200, ms: 1000 })).toEqual(["2026-11-21T14:05:00.000Z GET /home 200 1000ms"]);
    expect(run(1000, { method: "GET", url: "/home" }, { status: 200, ms: 999 })).toEqual([]);
    expect(run(1000, { method: "GET", url: "/missing" }, { status: 404, ms: 3 })).toEqual([]);
    expect(run(0, { method: "GET", url: "/home" }, { status: 200, ms: 0 })).toHaveLength(1);
    expect(run(1000, { method: "GET", url: "/feed" }, { status: 200, ms: 4000, finished: false })).toEqual(["2026-11-21T14:05:00.000Z GET /feed aborted 4000ms"]);
  });

  it("keeps secrets out: no query string, no token-like path segment, nothing unprintable", () => {
    expect(loggablePath("/login?password=hunter2&token=abc")).toBe("/login");
    expect(loggablePath("/myinfo/Zk3p9QmW7xY2aB4cD6eF")).toBe("/myinfo/***");
    expect(loggablePath("/adminaccess/0123456789abcdef0123")).toBe("/adminaccess/***");
    expect(loggablePath("/contactgroup/12345")).toBe("/contactgroup/12345");
    expect(loggablePath("/a\u001b[31mb")).toBe("/a?[31mb");
    expect(loggablePath(`/${"x".repeat(500)}`)).toHaveLength(203);
  });

  it("reads ACCESS_LOG_SLOW_MS (1000 by default) and refuses a bad value naming it", () => {
    expect(loadConfig({}).accessLogSlowMs).toBe(1000);
    expect(loadConfig({ ACCESS_LOG_SLOW_MS: "250" }).accessLogSlowMs).toBe(250);
    expect(() => loadConfig({ ACCESS_LOG_SLOW_MS: "soon" })).toThrow(/ACCESS_LOG_SLOW_MS/);
    expect(() => loadConfig({ ACCESS_LOG_SLOW_MS: "-1" })).toThrow(/ACCESS_LOG_SLOW_MS/);
  });
});
