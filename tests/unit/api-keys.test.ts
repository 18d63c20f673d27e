// API key shape and the in-memory token buckets behind the public API's rate limit.
import { describe, expect, it } from "vitest";
import { API_KEY_LENGTH, checksumOf, generateApiKey, hashApiKey, isWellFormedApiKey } from "~/domain/apikeys/format.server";
import { hasScope } from "~/domain/apikeys/keys.server";
import { TokenBuckets } from "~/lib/token-bucket.server";

describe("API key format", () => {
  it("is tc_live_, 32 random base62 characters and a 6-character CRC32 checksum", () => {
    const keys = Array.from({ length: 200 }, generateApiKey);
    for (const k of keys) {
      expect(k).toMatch(/^tc_live_[0-9A-Za-z]{38}$/);
      expect(k).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(k)).toBe(true);
      expect(k.slice(-6)).toBe(checksumOf(k.slice(0, -6)));
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("rejects any single-character typo, a swap, a truncation and other prefixes without a lookup", () => {
    const k = generateApiKey();
    for (let i = 8; i < k.length; i++) {
      const c = k[i] === "x" ? "y" : "x";
      expect(isWellFormedApiKey(k.slice(0, i) + c + k.slice(i + 1)), `position ${i}`).toBe(false);
    }
    const swapped = k.slice(0, 10) + k[11] + k[10] + k.slice(12);
    if (swapped !== k) expect(isWellFormedApiKey(swapped)).toBe(false);
    expect(isWellFormedApiKey(k.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`tc_test_${k.slice(8)}`)).toBe(false);
    expect(isWellFormedApiKey(`${k} `)).toBe(false);
    expect(isWellFormedApiKey("")).toBe(false);
  });

  it("hashes to a stable SHA-256", () => {
    const k = generateApiKey();
    expect(hashApiKey(k)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(k)).toBe(hashApiKey(k));
    expect(hashApiKey(k)).not.toBe(hashApiKey(generateApiKey()));
  });

  it("maps permissions to scopes as the spec says", () => {
    const p = (memberPermission: "NONE" | "READ" | "WRITE", messagingPermission: "NONE" | "READ" | "WRITE") => ({ memberPermission, messagingPermission });
    expect(hasScope(p("READ", "NONE"), "members:read")).toBe(true);
    expect(hasScope(p("READ", "NONE"), "members:write")).toBe(false);
    expect(hasScope(p("WRITE", "NONE"), "members:read")).toBe(true);
    expect(hasScope(p("WRITE", "NONE"), "messages:read")).toBe(false);
    expect(hasScope(p("NONE", "READ"), "messages:read")).toBe(true);
    expect(hasScope(p("NONE", "READ"), "messages:write")).toBe(false);
    expect(hasScope(p("NONE", "WRITE"), "messages:read")).toBe(true);
    expect(hasScope(p("NONE", "WRITE"), "members:read")).toBe(false);
  });
});

describe("token buckets", () => {
  it("allows a burst, then one request per 1/rate seconds, per key", () => {
    const b = new TokenBuckets({ ratePerSecond: 10, burst: 3 });
    const t0 = 1_000_000;
    expect([1, 2, 3, 4].map(() => b.take("a", t0).allowed)).toEqual([true, true, true, false]);
    const refused = b.take("a", t0);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(b.take("b", t0).allowed).toBe(true); // another key has its own bucket
    expect(b.take("a", t0 + 50).allowed).toBe(false);
    expect(b.take("a", t0 + 100).allowed).toBe(true);
    expect(b.take("a", t0 + 100).allowed).toBe(false);
    const full = b.take("a", t0 + 10_000);
    expect(full).toMatchObject({ allowed: true, remaining: 2 });
  });

  it("forgets buckets that have refilled, so idle keys cost no memory", () => {
    const b = new TokenBuckets({ ratePerSecond: 1, burst: 2 });
    for (let i = 0; i < 100; i++) b.take(`k${i}`, 0);
    expect(b.size).toBe(100);
    b.sweep(500);
    expect(b.size).toBe(100);
    b.sweep(1000);
    expect(b.size).toBe(0);
  });
});
