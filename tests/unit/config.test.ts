import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "~/lib/config.server";

const base = { DATABASE_URL: "/tmp/tc-config-test.db", SESSION_SECRET: "s".repeat(40) };

describe("configuration", () => {
  it("has working defaults", () => {
    const c = loadConfig(base);
    expect(c.port).toBe(3000);
    expect(c.smsProvider).toBe("simulator");
    expect(c.seedDemo).toBe(true);
    expect(c.publicUrl).toBe("http://localhost:3000");
    expect(c.appVersion).toBe("v2.8.2");
  });

  it("names every bad variable in one clear message", () => {
    expect(() => loadConfig({ ...base, PORT: "eighty", SMS_PROVIDER: "carrier-pigeon" })).toThrow(ConfigError);
    try {
      loadConfig({ ...base, PORT: "eighty", SMS_PROVIDER: "carrier-pigeon" });
    } catch (e) {
      expect((e as Error).message).toContain("PORT");
      expect((e as Error).message).toContain("SMS_PROVIDER");
    }
  });

  it("requires Twilio credentials and a public URL with the Twilio provider", () => {
    expect(() => loadConfig({ ...base, SMS_PROVIDER: "twilio" })).toThrow(/TWILIO_ACCOUNT_SID[\s\S]*TWILIO_AUTH_TOKEN[\s\S]*PUBLIC_URL[\s\S]*SMS_SYSTEM_SENDER/);
    expect(() => loadConfig({ ...base, SMS_SYSTEM_SENDER: "07700 900000" })).toThrow(/SMS_SYSTEM_SENDER/);
    expect(loadConfig({ ...base, SMS_SYSTEM_SENDER: `MG${"b".repeat(32)}` }).systemSender).toBe(`MG${"b".repeat(32)}`);
    expect(loadConfig(base).systemSender).toBe("+447700900000");
  });

  it("never seeds the demo with a real provider unless asked", () => {
    const c = loadConfig({ ...base, SMS_PROVIDER: "twilio", TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`, TWILIO_AUTH_TOKEN: "t".repeat(32), PUBLIC_URL: "https://x.test", SMS_SYSTEM_SENDER: "+447700900001" });
    expect(c.seedDemo).toBe(false);
  });
});
