// The exposure and session settings are validated like every other variable.
import { describe, expect, it } from "vitest";
import { ConfigError, isLoopback, loadConfig } from "~/lib/config.server";

const base = { DATABASE_URL: "/tmp/tc-config-test.db", SESSION_SECRET: "s".repeat(40) };

describe("HOST, SIMULATOR_PUBLIC and SESSION_IDLE_HOURS", () => {
  it("listens on loopback and serves the simulator by default", () => {
    const c = loadConfig(base);
    expect(c.host).toBe("127.0.0.1");
    expect(c.simulatorServed).toBe(true);
    expect(c.sessionIdleMinutes).toBe(12 * 60);
  });

  it("does not serve the simulator on a non-loopback address unless SIMULATOR_PUBLIC=true", () => {
    expect(loadConfig({ ...base, HOST: "0.0.0.0" }).simulatorServed).toBe(false);
    expect(loadConfig({ ...base, HOST: "::" }).simulatorServed).toBe(false);
    expect(loadConfig({ ...base, HOST: "192.0.2.7" }).simulatorServed).toBe(false);
    expect(loadConfig({ ...base, HOST: "0.0.0.0", SIMULATOR_PUBLIC: "true" }).simulatorServed).toBe(true);
    expect(loadConfig({ ...base, HOST: "::1" }).simulatorServed).toBe(true);
    expect(loadConfig({ ...base, HOST: "localhost" }).simulatorServed).toBe(true);
  });

  it.each([
    ["HOST", "my host"],
    ["HOST", "http://0.0.0.0"],
    ["HOST", "a/b"],
    ["SIMULATOR_PUBLIC", "maybe"],
    ["SESSION_IDLE_HOURS", "0"],
    ["SESSION_IDLE_HOURS", "forever"],
  ])("refuses %s=%j, naming the variable", (name, value) => {
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, [name]: value })).toThrow(name);
  });

  it.each([
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["::1", true],
    ["[::1]", true],
    ["localhost", true],
    ["0.0.0.0", false],
    ["::", false],
    ["10.0.0.1", false],
    ["example.com", false],
  ])("knows whether %s is loopback", (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});
