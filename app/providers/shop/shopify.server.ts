// The Shopify adapter: the GraphQL Admin API through Shopify's official client (@shopify/admin-api-client).
//
// - verify: `shop { name }` with the domain and Admin API access token (401: token refused; 402: shop frozen;
//   403 or ACCESS_DENIED: the token lacks read_discounts/write_discounts; 404 or no answer: not a shop).
// - listDiscounts: codeDiscountNodes (the shop's code discounts).
// - addCodes: discountRedeemCodeBulkAdd (at most 250 codes a call), then discountRedeemCodeBulkCreation polled
//   until `done`, then its per-code results (a code the shop refused, e.g. already taken, is reported, not kept).
// - The cost-based rate limit: every answer carries extensions.cost.throttleStatus (currentlyAvailable,
//   restoreRate). Before a call we wait until the bucket holds what the call is expected to cost; a THROTTLED
//   answer waits for the bucket to refill and tries again, up to `maxThrottleWaitMs` in all, then gives up with a
//   retryable error (the caller tries again later).
// `apiBase` (tests) sends the requests to another origin, such as a local fake of the endpoint.
import { createAdminApiClient } from "@shopify/admin-api-client";
import { MAX_CODES_PER_CALL, SHOP_DOMAIN, ShopProviderError, type AddCodesResult, type ShopCredentials, type ShopDiscount, type ShopProvider } from "./types";

export interface ShopifyOptions {
  apiVersion?: string;
  /** Another origin for every request (a local fake in tests): http://127.0.0.1:1234. */
  apiBase?: string;
  /** Time allowed for one HTTP request. */
  timeoutMs?: number;
  /** Between two polls of a bulk creation. */
  pollIntervalMs?: number;
  /** Polls before a bulk creation that is not done counts as a (retryable) failure. */
  maxPolls?: number;
  /** Time spent waiting for the rate limit in one operation before giving up. */
  maxThrottleWaitMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

interface ThrottleStatus {
  maximumAvailable: number;
  currentlyAvailable: number;
  restoreRate: number;
}

interface GqlError {
  message?: string;
  extensions?: { code?: string };
}

interface ClientAnswer<T> {
  data?: T;
  errors?: { networkStatusCode?: number; message?: string; graphQLErrors?: GqlError[] };
  extensions?: { cost?: { requestedQueryCost?: number; actualQueryCost?: number | null; throttleStatus?: ThrottleStatus } };
}

const SHOP_QUERY = `query ShopName { shop { name } }`;

const DISCOUNTS_QUERY = `query CodeDiscounts {
  codeDiscountNodes(first: 50) {
    nodes {
      id
      codeDiscount {
        __typename
        ... on DiscountCodeBasic { title status }
        ... on DiscountCodeBxgy { title status }
        ... on DiscountCodeFreeShipping { title status }
        ... on DiscountCodeApp { title status }
      }
    }
  }
}`;

const BULK_ADD = `mutation AddCodes($discountId: ID!, $codes: [DiscountRedeemCodeInput!]!) {
  discountRedeemCodeBulkAdd(discountId: $discountId, codes: $codes) {
    bulkCreation { id }
    userErrors { code field message }
  }
}`;

const BULK_CREATION = `query BulkCreation($id: ID!) {
  discountRedeemCodeBulkCreation(id: $id) {
    id
    done
    codesCount
    importedCount
    failedCount
    codes(first: 250) { nodes { code errors { code message } } }
  }
}`;

/** What each operation is expected to cost (points of the bucket), before its answer says. */
const EXPECTED_COST = { shop: 1, discounts: 12, bulkAdd: 10, bulkCreation: 12 } as const;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class ShopifyShopProvider implements ShopProvider {
  readonly name = "shopify";
  private readonly apiVersion: string;
  private readonly sleep: (ms: number) => Promise<void>;
  /** The last throttle status seen per shop. */
  private readonly buckets = new Map<string, { status: ThrottleStatus; at: number }>();

  constructor(private readonly options: ShopifyOptions = {}) {
    this.apiVersion = options.apiVersion ?? "2025-10";
    this.sleep = options.sleep ?? defaultSleep;
  }

  private client(c: ShopCredentials) {
    if (!SHOP_DOMAIN.test(c.shopDomain)) throw new ShopProviderError("not a shop domain", { retryable: false, reason: "bad-domain" });
    const base = this.options.apiBase?.replace(/\/+$/, "");
    const timeoutMs = this.options.timeoutMs ?? 10_000;
    return createAdminApiClient({
      storeDomain: c.shopDomain,
      apiVersion: this.apiVersion,
      accessToken: c.accessToken,
      userAgentPrefix: "Textcircle",
      retries: 0,
      logger: () => undefined,
      customFetchApi: (url: string, init?: RequestInit) =>
        fetch(base ? url.replace(/^https:\/\/[^/]+/, base) : url, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    });
  }

  /** Waits until the shop's bucket should hold `cost` points (from the last status it reported). */
  private async waitForBucket(shop: string, cost: number): Promise<number> {
    const seen = this.buckets.get(shop);
    if (!seen || seen.status.restoreRate <= 0) return 0;
    const elapsed = (Date.now() - seen.at) / 1000;
    const available = Math.min(seen.status.maximumAvailable, seen.status.currentlyAvailable + elapsed * seen.status.restoreRate);
    if (available >= cost) return 0;
    const ms = Math.ceil(((cost - available) / seen.status.restoreRate) * 1000);
    await this.sleep(ms);
    return ms;
  }

  /** One GraphQL call with the rate limit respected; throws ShopProviderError for every failure. */
  private async call<T>(c: ShopCredentials, operation: string, variables: Record<string, unknown> | undefined, expectedCost: number): Promise<T> {
    const client = this.client(c);
    let waited = 0;
    const maxWait = this.options.maxThrottleWaitMs ?? 60_000;
    for (;;) {
      waited += await this.waitForBucket(c.shopDomain, expectedCost);
      let answer: ClientAnswer<T>;
      try {
        answer = (await client.request<T>(operation, variables ? { variables } : undefined)) as ClientAnswer<T>;
      } catch (error) {
        throw new ShopProviderError(`shop unreachable: ${(error as Error).message}`, { retryable: true, reason: "network" });
      }
      const cost = answer.extensions?.cost;
      if (cost?.throttleStatus) this.buckets.set(c.shopDomain, { status: cost.throttleStatus, at: Date.now() });
      const errors = answer.errors;
      if (!errors) {
        if (answer.data === undefined) throw new ShopProviderError("no data", { retryable: true, reason: "bad-response" });
        return answer.data;
      }
      const status = errors.networkStatusCode;
      const codes = (errors.graphQLErrors ?? []).map((e) => e.extensions?.code ?? "");
      if (codes.includes("THROTTLED") || status === 429) {
        const t = cost?.throttleStatus;
        const needed = cost?.requestedQueryCost ?? expectedCost;
        const ms = t && t.restoreRate > 0 ? Math.max(50, Math.ceil(((needed - t.currentlyAvailable) / t.restoreRate) * 1000)) : 1000;
        if (waited + ms > maxWait) throw new ShopProviderError("throttled", { retryable: true, reason: "throttled", httpStatus: status });
        await this.sleep(ms);
        waited += ms;
        continue;
      }
      if (codes.includes("ACCESS_DENIED")) throw new ShopProviderError("access denied", { retryable: false, reason: "scopes", httpStatus: status });
      if (status === 401) throw new ShopProviderError("token refused", { retryable: false, reason: "auth", httpStatus: status });
      if (status === 402 || status === 423) throw new ShopProviderError("shop unavailable", { retryable: false, reason: "payment", httpStatus: status });
      if (status === 403) throw new ShopProviderError("access denied", { retryable: false, reason: "scopes", httpStatus: status });
      if (status === 404) throw new ShopProviderError("no such shop", { retryable: false, reason: "bad-domain", httpStatus: status });
      if (status === undefined || status >= 500) throw new ShopProviderError(errors.message ?? "shop unreachable", { retryable: true, reason: "network", httpStatus: status });
      if (status === 200 && answer.data !== undefined && !errors.graphQLErrors?.length) return answer.data;
      throw new ShopProviderError(errors.message ?? "refused", { retryable: false, reason: "rejected", httpStatus: status });
    }
  }

  async verify(credentials: ShopCredentials): Promise<{ shopName: string }> {
    const data = await this.call<{ shop?: { name?: string } }>(credentials, SHOP_QUERY, undefined, EXPECTED_COST.shop);
    if (!data.shop?.name) throw new ShopProviderError("no shop in the answer", { retryable: true, reason: "bad-response" });
    return { shopName: data.shop.name };
  }

  async listDiscounts(credentials: ShopCredentials): Promise<ShopDiscount[]> {
    type Answer = { codeDiscountNodes?: { nodes?: { id: string; codeDiscount?: { title?: string; status?: string } | null }[] } };
    const data = await this.call<Answer>(credentials, DISCOUNTS_QUERY, undefined, EXPECTED_COST.discounts);
    const nodes = data.codeDiscountNodes?.nodes;
    if (!Array.isArray(nodes)) throw new ShopProviderError("no discounts in the answer", { retryable: true, reason: "bad-response" });
    return nodes
      .filter((n) => typeof n.id === "string" && n.codeDiscount?.title)
      .map((n) => ({ id: n.id, title: n.codeDiscount!.title!, status: n.codeDiscount!.status ?? "ACTIVE" }));
  }

  async addCodes(credentials: ShopCredentials, discountId: string, codes: readonly string[]): Promise<AddCodesResult> {
    if (codes.length > MAX_CODES_PER_CALL) throw new ShopProviderError("too many codes in one call", { retryable: false, reason: "rejected" });
    if (!codes.length) return { created: [], failed: [] };
    type AddAnswer = { discountRedeemCodeBulkAdd?: { bulkCreation?: { id: string } | null; userErrors?: { code?: string | null; message?: string }[] } };
    const added = await this.call<AddAnswer>(credentials, BULK_ADD, { discountId, codes: codes.map((code) => ({ code })) }, EXPECTED_COST.bulkAdd);
    const payload = added.discountRedeemCodeBulkAdd;
    const userErrors = payload?.userErrors ?? [];
    if (userErrors.length) {
      const notFound = userErrors.some((e) => e.code === "INVALID" || /not (be )?found|does not exist/i.test(e.message ?? ""));
      throw new ShopProviderError(userErrors.map((e) => e.message).join("; "), { retryable: false, reason: notFound ? "not-found" : "rejected" });
    }
    const id = payload?.bulkCreation?.id;
    if (!id) throw new ShopProviderError("no bulk creation in the answer", { retryable: true, reason: "bad-response" });

    type Creation = {
      discountRedeemCodeBulkCreation?: {
        done: boolean;
        codes?: { nodes?: { code: string; errors?: { code?: string | null; message?: string }[] }[] };
      } | null;
    };
    const maxPolls = this.options.maxPolls ?? 60;
    for (let poll = 0; poll < maxPolls; poll++) {
      if (poll > 0) await this.sleep(this.options.pollIntervalMs ?? 1000);
      const answer = await this.call<Creation>(credentials, BULK_CREATION, { id }, EXPECTED_COST.bulkCreation);
      const creation = answer.discountRedeemCodeBulkCreation;
      if (!creation) throw new ShopProviderError("bulk creation vanished", { retryable: true, reason: "bad-response" });
      if (!creation.done) continue;
      const results = creation.codes?.nodes ?? [];
      const refused = new Map<string, string>();
      for (const r of results) if (r.errors?.length) refused.set(r.code, r.errors[0].code ?? r.errors[0].message ?? "REFUSED");
      return {
        created: codes.filter((c) => !refused.has(c)),
        failed: [...refused].map(([code, reason]) => ({ code, reason })),
      };
    }
    throw new ShopProviderError("bulk creation not done in time", { retryable: true, reason: "network" });
  }
}
