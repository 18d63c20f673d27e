// The built-in shop simulator: an explicit, visible stand-in for an online shop. Every shop domain of the form
// xxx.myshopify.com answers with the same three code discounts; every code it is asked to create is recorded
// (shown at /shopsimulator, where a code can be marked redeemed). Like the payment simulator's test cards, a few
// domains and tokens fail on purpose, so each reason a real shop can refuse a connection can be tried:
//   token not starting with shpat_, or shpat_invalid  → the token is refused (HTTP 401)
//   token shpat_noscopes                               → the token lacks the discount scopes (HTTP 403)
//   frozen.myshopify.com                               → the shop is frozen (HTTP 402)
//   unreachable.myshopify.com                          → the shop cannot be reached
import type { Database } from "#db/index";
import { MAX_CODES_PER_CALL, SHOP_DOMAIN, ShopProviderError, type AddCodesResult, type ShopCredentials, type ShopDiscount, type ShopProvider } from "./types";

export const SIMULATED_DISCOUNTS: readonly ShopDiscount[] = [
  { id: "gid://shopify/DiscountCodeNode/1001", title: "10% off your next order", status: "ACTIVE" },
  { id: "gid://shopify/DiscountCodeNode/1002", title: "Free delivery", status: "ACTIVE" },
  { id: "gid://shopify/DiscountCodeNode/1003", title: "£5 off orders over £30", status: "ACTIVE" },
];

export const SIMULATOR_TEST_SHOPS = {
  invalidToken: "shpat_invalid",
  noScopesToken: "shpat_noscopes",
  frozenDomain: "frozen.myshopify.com",
  unreachableDomain: "unreachable.myshopify.com",
} as const;

function shopNameOf(domain: string): string {
  const slug = domain.replace(/\.myshopify\.com$/, "");
  return slug
    .split("-")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

export class SimulatorShopProvider implements ShopProvider {
  readonly name = "simulator";
  constructor(
    private readonly db: Database,
    private readonly now: () => Date,
  ) {}

  private check(c: ShopCredentials): void {
    if (!SHOP_DOMAIN.test(c.shopDomain)) throw new ShopProviderError("not a shop domain", { retryable: false, reason: "bad-domain" });
    if (c.shopDomain === SIMULATOR_TEST_SHOPS.unreachableDomain) throw new ShopProviderError("shop unreachable", { retryable: true, reason: "network" });
    if (c.shopDomain === SIMULATOR_TEST_SHOPS.frozenDomain) throw new ShopProviderError("shop frozen", { retryable: false, reason: "payment", httpStatus: 402 });
    if (!c.accessToken.startsWith("shpat_") || c.accessToken === SIMULATOR_TEST_SHOPS.invalidToken) {
      throw new ShopProviderError("token refused", { retryable: false, reason: "auth", httpStatus: 401 });
    }
    if (c.accessToken === SIMULATOR_TEST_SHOPS.noScopesToken) throw new ShopProviderError("missing scopes", { retryable: false, reason: "scopes", httpStatus: 403 });
  }

  verify(credentials: ShopCredentials): Promise<{ shopName: string }> {
    this.check(credentials);
    return Promise.resolve({ shopName: shopNameOf(credentials.shopDomain) });
  }

  listDiscounts(credentials: ShopCredentials): Promise<ShopDiscount[]> {
    this.check(credentials);
    return Promise.resolve([...SIMULATED_DISCOUNTS]);
  }

  async addCodes(credentials: ShopCredentials, discountId: string, codes: readonly string[]): Promise<AddCodesResult> {
    this.check(credentials);
    if (codes.length > MAX_CODES_PER_CALL) throw new ShopProviderError("too many codes in one call", { retryable: false, reason: "rejected" });
    if (!SIMULATED_DISCOUNTS.some((d) => d.id === discountId)) throw new ShopProviderError("no such discount", { retryable: false, reason: "not-found" });
    const at = this.now().toISOString();
    const created: string[] = [];
    const failed: AddCodesResult["failed"] = [];
    for (const code of codes) {
      const r = await this.db
        .insertInto("sim_shop_codes")
        .values({ shop_domain: credentials.shopDomain, discount_id: discountId, code, created_at: at, redeemed_at: null })
        .onConflict((oc) => oc.columns(["shop_domain", "code"]).doNothing())
        .returning("id")
        .executeTakeFirst();
      if (r) created.push(code);
      else failed.push({ code, reason: "TAKEN" });
    }
    return { created, failed };
  }
}

/** The simulator page: every code the simulated shops hold, newest first, a page at a time. */
export async function listSimulatedCodes(db: Database, options: { page: number; pageSize: number }) {
  const total = Number((await db.selectFrom("sim_shop_codes").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
  const rows = await db
    .selectFrom("sim_shop_codes")
    .selectAll()
    .orderBy("id", "desc")
    .limit(options.pageSize)
    .offset((options.page - 1) * options.pageSize)
    .execute();
  return { total, rows: rows.map((r) => ({ ...r, id: Number(r.id), discountTitle: SIMULATED_DISCOUNTS.find((d) => d.id === r.discount_id)?.title ?? r.discount_id })) };
}

/** Marks a simulated code redeemed (as if a customer had used it at the checkout). */
export async function redeemSimulatedCode(db: Database, id: number, now: Date): Promise<boolean> {
  const r = await db.updateTable("sim_shop_codes").set({ redeemed_at: now.toISOString() }).where("id", "=", id).where("redeemed_at", "is", null).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}
