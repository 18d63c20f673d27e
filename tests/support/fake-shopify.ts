// A local HTTP server that answers like Shopify's GraphQL Admin API (POST /admin/api/{version}/graphql.json), for
// the Shopify adapter's tests. It implements what the adapter calls: shop { name }, codeDiscountNodes,
// discountRedeemCodeBulkAdd (at most 250 codes; a code already in the shop is refused in the results) and
// discountRedeemCodeBulkCreation (not done for the first `pollsUntilDone` polls). It checks the
// X-Shopify-Access-Token header, and keeps a leaky bucket like Shopify's cost-based rate limit on a clock of its
// own (advanced by the adapter's injected sleep): a call costing more than is available answers THROTTLED with
// extensions.cost.throttleStatus. Every answer carries that status. Tokens for failures: shpat_frozen (402),
// shpat_forbidden (403), shpat_denied (ACCESS_DENIED in the GraphQL errors).
import http from "node:http";
import type { AddressInfo } from "node:net";

export const FAKE_SHOP = "fake-shop.myshopify.com";
export const FAKE_TOKEN = "shpat_fake0123456789";
export const FAKE_DISCOUNT = "gid://shopify/DiscountCodeNode/777";

export interface FakeCall {
  operation: "shop" | "discounts" | "bulkAdd" | "bulkCreation" | "unknown";
  throttled: boolean;
  codes?: number;
  at: number;
}

export interface FakeShopify {
  /** Give as the adapter's apiBase: http://127.0.0.1:port */
  readonly url: string;
  readonly calls: FakeCall[];
  /** Every code the shop holds. */
  readonly codes: Set<string>;
  /** Polls of a bulk creation answered "not done" before it is done. */
  pollsUntilDone: number;
  /** The bucket: size, points restored per second, and what is in it now. */
  bucket: { maximumAvailable: number; restoreRate: number; currentlyAvailable: number };
  /** Moves the fake's clock on (what the adapter's sleep does in tests). */
  advance(ms: number): void;
  /** Answers the next `times` requests with this HTTP status (e.g. 503). */
  failNext(status: number, times?: number): void;
  close(): Promise<void>;
}

const COST = { shop: 1, discounts: 12, bulkAdd: 10, bulkCreation: 12, unknown: 1 } as const;

export async function startFakeShopify(): Promise<FakeShopify> {
  let clock = 0;
  let lastRefill = 0;
  let nextId = 1;
  const faults: number[] = [];
  const creations = new Map<string, { codes: { code: string; error: string | null }[]; polls: number }>();
  const state = {
    calls: [] as FakeCall[],
    codes: new Set<string>(),
    pollsUntilDone: 1,
    bucket: { maximumAvailable: 1000, restoreRate: 50, currentlyAvailable: 1000 },
  };
  const refill = () => {
    const b = state.bucket;
    b.currentlyAvailable = Math.min(b.maximumAvailable, b.currentlyAvailable + ((clock - lastRefill) / 1000) * b.restoreRate);
    lastRefill = clock;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { "Content-Type": "application/json" });
        res.end(JSON.stringify(body));
      };
      if (req.method !== "POST" || !/^\/admin\/api\/[^/]+\/graphql\.json$/.test(req.url ?? "")) return send(404, { errors: "Not Found" });
      const fault = faults.shift();
      if (fault) return send(fault, { errors: "Service unavailable" });
      const token = req.headers["x-shopify-access-token"];
      if (token === "shpat_frozen") return send(402, { errors: "Unavailable Shop" });
      if (token === "shpat_forbidden") return send(403, { errors: "Forbidden" });
      if (token !== FAKE_TOKEN && token !== "shpat_denied") return send(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" });
      let body: { query?: string; variables?: Record<string, unknown> };
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        return send(400, { errors: "bad json" });
      }
      const q = body.query ?? "";
      const operation: FakeCall["operation"] = q.includes("discountRedeemCodeBulkAdd(")
        ? "bulkAdd"
        : q.includes("discountRedeemCodeBulkCreation(")
          ? "bulkCreation"
          : q.includes("codeDiscountNodes")
            ? "discounts"
            : q.includes("shop {")
              ? "shop"
              : "unknown";
      refill();
      const cost = COST[operation];
      const throttleStatus = () => ({ ...state.bucket, currentlyAvailable: Math.floor(state.bucket.currentlyAvailable) });
      if (state.bucket.currentlyAvailable < cost) {
        state.calls.push({ operation, throttled: true, at: clock });
        return send(200, { errors: [{ message: "Throttled", extensions: { code: "THROTTLED" } }], extensions: { cost: { requestedQueryCost: cost, actualQueryCost: null, throttleStatus: throttleStatus() } } });
      }
      state.bucket.currentlyAvailable -= cost;
      const extensions = { cost: { requestedQueryCost: cost, actualQueryCost: cost, throttleStatus: throttleStatus() } };
      if (token === "shpat_denied") {
        state.calls.push({ operation, throttled: false, at: clock });
        return send(200, { errors: [{ message: "Access denied for codeDiscountNodes field.", extensions: { code: "ACCESS_DENIED" } }], extensions });
      }
      const vars = body.variables ?? {};
      switch (operation) {
        case "shop":
          state.calls.push({ operation, throttled: false, at: clock });
          return send(200, { data: { shop: { name: "Fake Shop" } }, extensions });
        case "discounts":
          state.calls.push({ operation, throttled: false, at: clock });
          return send(200, { data: { codeDiscountNodes: { nodes: [{ id: FAKE_DISCOUNT, codeDiscount: { __typename: "DiscountCodeBasic", title: "Spring 10%", status: "ACTIVE" } }] } }, extensions });
        case "bulkAdd": {
          const codes = (vars.codes as { code: string }[] | undefined) ?? [];
          state.calls.push({ operation, throttled: false, codes: codes.length, at: clock });
          if (vars.discountId !== FAKE_DISCOUNT) return send(200, { data: { discountRedeemCodeBulkAdd: { bulkCreation: null, userErrors: [{ code: "INVALID", field: ["discountId"], message: "Discount not found" }] } }, extensions });
          if (codes.length > 250) return send(200, { data: { discountRedeemCodeBulkAdd: { bulkCreation: null, userErrors: [{ code: "TOO_MANY_ARGUMENTS", field: ["codes"], message: "Too many codes" }] } }, extensions });
          const results = codes.map(({ code }) => {
            if (state.codes.has(code)) return { code, error: "TAKEN" };
            state.codes.add(code);
            return { code, error: null };
          });
          const id = `gid://shopify/DiscountRedeemCodeBulkCreation/${nextId++}`;
          creations.set(id, { codes: results, polls: 0 });
          return send(200, { data: { discountRedeemCodeBulkAdd: { bulkCreation: { id }, userErrors: [] } }, extensions });
        }
        case "bulkCreation": {
          state.calls.push({ operation, throttled: false, at: clock });
          const c = creations.get(String(vars.id));
          if (!c) return send(200, { data: { discountRedeemCodeBulkCreation: null }, extensions });
          c.polls++;
          const done = c.polls > state.pollsUntilDone;
          const failed = c.codes.filter((x) => x.error).length;
          return send(200, {
            data: {
              discountRedeemCodeBulkCreation: {
                id: vars.id,
                done,
                codesCount: c.codes.length,
                importedCount: done ? c.codes.length - failed : 0,
                failedCount: done ? failed : 0,
                codes: { nodes: done ? c.codes.map((x) => ({ code: x.code, errors: x.error ? [{ code: x.error, message: "Code has already been taken" }] : [] })) : [] },
              },
            },
            extensions,
          });
        }
        default:
          state.calls.push({ operation, throttled: false, at: clock });
          return send(200, { errors: [{ message: "unknown operation" }], extensions });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return state.calls;
    },
    get codes() {
      return state.codes;
    },
    get pollsUntilDone() {
      return state.pollsUntilDone;
    },
    set pollsUntilDone(n: number) {
      state.pollsUntilDone = n;
    },
    get bucket() {
      return state.bucket;
    },
    set bucket(b) {
      state.bucket = b;
      lastRefill = clock;
    },
    advance(ms: number) {
      clock += ms;
    },
    failNext(status: number, times = 1) {
      for (let i = 0; i < times; i++) faults.push(status);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
