// The Shopify adapter against a local fake of the GraphQL Admin API (tests/support/fake-shopify.ts): verify and
// the reasons a shop refuses (401, 402, 403, ACCESS_DENIED, no shop there, a bad domain), listing code discounts,
// adding codes (at most 250 a call) and polling the bulk creation until done, codes the shop refused, and the
// cost-based rate limit: the adapter waits for the bucket before a call, backs off on THROTTLED and gives up
// with a retryable error past its limit.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FAKE_DISCOUNT, FAKE_SHOP, FAKE_TOKEN, startFakeShopify, type FakeShopify } from "../support/fake-shopify";
import { ShopifyShopProvider } from "~/providers/shop/shopify.server";
import { ShopProviderError } from "~/providers/shop/types";

let fake: FakeShopify;
const slept: number[] = [];

function adapter(options: Partial<ConstructorParameters<typeof ShopifyShopProvider>[0]> = {}) {
  return new ShopifyShopProvider({
    apiBase: fake.url,
    pollIntervalMs: 500,
    sleep: (ms) => {
      slept.push(ms);
      fake.advance(ms);
      return Promise.resolve();
    },
    ...options,
  });
}
const creds = { shopDomain: FAKE_SHOP, accessToken: FAKE_TOKEN };

async function failure(p: Promise<unknown>): Promise<ShopProviderError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ShopProviderError) return e;
    throw e;
  }
  throw new Error("expected a ShopProviderError");
}

beforeAll(async () => {
  fake = await startFakeShopify();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.calls.length = 0;
  slept.length = 0;
  fake.pollsUntilDone = 1;
  fake.bucket = { maximumAvailable: 1000, restoreRate: 50, currentlyAvailable: 1000 };
});

describe("the Shopify adapter", () => {
  it("verifies a shop and lists its code discounts", async () => {
    const a = adapter();
    expect(await a.verify(creds)).toEqual({ shopName: "Fake Shop" });
    expect(await a.listDiscounts(creds)).toEqual([{ id: FAKE_DISCOUNT, title: "Spring 10%", status: "ACTIVE" }]);
  });

  it("says why a shop refuses, and whether trying again can help", async () => {
    const a = adapter();
    expect(await failure(a.verify({ ...creds, accessToken: "shpat_wrong" }))).toMatchObject({ reason: "auth", retryable: false, httpStatus: 401 });
    expect(await failure(a.verify({ ...creds, accessToken: "shpat_frozen" }))).toMatchObject({ reason: "payment", retryable: false, httpStatus: 402 });
    expect(await failure(a.verify({ ...creds, accessToken: "shpat_forbidden" }))).toMatchObject({ reason: "scopes", retryable: false, httpStatus: 403 });
    expect(await failure(a.listDiscounts({ ...creds, accessToken: "shpat_denied" }))).toMatchObject({ reason: "scopes", retryable: false });
    expect(await failure(a.verify({ ...creds, shopDomain: "not a shop" }))).toMatchObject({ reason: "bad-domain", retryable: false });
    fake.failNext(503);
    expect(await failure(a.verify(creds))).toMatchObject({ reason: "network", retryable: true, httpStatus: 503 });
    // Nothing listening there at all.
    const nowhere = new ShopifyShopProvider({ apiBase: "http://127.0.0.1:9", timeoutMs: 2000 });
    expect(await failure(nowhere.verify(creds))).toMatchObject({ reason: "network", retryable: true });
  });

  it("adds codes with one bulk call, polls the creation until done and reports codes the shop refused", async () => {
    fake.pollsUntilDone = 3;
    fake.codes.add("TAKEN-00001");
    const codes = ["AAAAA-00001", "TAKEN-00001", "AAAAA-00002"];
    const r = await adapter().addCodes(creds, FAKE_DISCOUNT, codes);
    expect(r).toEqual({ created: ["AAAAA-00001", "AAAAA-00002"], failed: [{ code: "TAKEN-00001", reason: "TAKEN" }] });
    expect(fake.calls.map((c) => c.operation)).toEqual(["bulkAdd", "bulkCreation", "bulkCreation", "bulkCreation", "bulkCreation"]);
    // Polls are spaced by the poll interval.
    expect(slept.filter((ms) => ms === 500)).toHaveLength(3);
  });

  it("refuses more than 250 codes in one call and an unknown discount", async () => {
    const many = Array.from({ length: 251 }, (_, i) => `MANY-${String(i).padStart(5, "0")}`);
    expect(await failure(adapter().addCodes(creds, FAKE_DISCOUNT, many))).toMatchObject({ retryable: false });
    expect(fake.calls).toHaveLength(0);
    expect(await failure(adapter().addCodes(creds, "gid://shopify/DiscountCodeNode/1", ["X"]))).toMatchObject({ reason: "not-found", retryable: false });
  });

  it("backs off on THROTTLED until the bucket has refilled, then goes on", async () => {
    fake.bucket = { maximumAvailable: 20, restoreRate: 10, currentlyAvailable: 5 };
    const r = await adapter().addCodes(creds, FAKE_DISCOUNT, ["THROT-00001"]);
    expect(r.created).toEqual(["THROT-00001"]);
    const throttled = fake.calls.filter((c) => c.throttled);
    expect(throttled.length).toBeGreaterThanOrEqual(1);
    // It waited for the 5 missing points at 10 a second (500 ms) rather than hammering the shop.
    expect(slept[0]).toBe(500);
    expect(fake.calls.filter((c) => c.operation === "bulkAdd" && !c.throttled)).toHaveLength(1);
  });

  it("waits for the bucket before a call when the last answer said it was low", async () => {
    fake.bucket = { maximumAvailable: 30, restoreRate: 10, currentlyAvailable: 30 };
    const a = adapter({ pollIntervalMs: 0 });
    await a.addCodes(creds, FAKE_DISCOUNT, ["WAIT-000001"]); // 10 + 12 + 12 points: 0 left
    fake.calls.length = 0;
    slept.length = 0;
    await a.addCodes(creds, FAKE_DISCOUNT, ["WAIT-000002"]);
    // The first call of the second batch waited instead of being throttled.
    expect(fake.calls.some((c) => c.throttled)).toBe(false);
    expect(slept.some((ms) => ms >= 500)).toBe(true);
  });

  it("gives up with a retryable error when throttled beyond its limit", async () => {
    fake.bucket = { maximumAvailable: 20, restoreRate: 1, currentlyAvailable: 0 };
    const e = await failure(adapter({ maxThrottleWaitMs: 3000 }).addCodes(creds, FAKE_DISCOUNT, ["LIMIT-00001"]));
    expect(e).toMatchObject({ reason: "throttled", retryable: true });
    expect(slept.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
  });
});
