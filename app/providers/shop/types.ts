// The shop provider interface: an online shop whose code discounts can be given unique redeem codes.
// Adapters: the built-in shop simulator (default, shown at /shopsimulator) and Shopify's GraphQL Admin API.
// Like the SMS and payment providers, an adapter throws ShopProviderError, which says whether a retry can help
// and why the shop refused (the reason is shown to the person, BR038).

/** What identifies a connected shop: its domain (xxx.myshopify.com) and an Admin API access token. */
export interface ShopCredentials {
  shopDomain: string;
  accessToken: string;
}

/** A code discount of the shop (the kind that can hold many redeem codes). */
export interface ShopDiscount {
  /** The shop's own id (a Shopify GID such as gid://shopify/DiscountCodeNode/123). */
  id: string;
  title: string;
  /** ACTIVE, SCHEDULED or EXPIRED. */
  status: string;
}

/** The outcome of adding codes: those the shop now holds, and those it refused (with its reason). */
export interface AddCodesResult {
  created: string[];
  failed: { code: string; reason: string }[];
}

/** Why the shop could not be used, independent of the provider. */
export type ShopFailureReason =
  | "bad-domain" // not a shop domain (xxx.myshopify.com), or no shop answers there
  | "auth" // the access token was refused (HTTP 401)
  | "scopes" // the token lacks the discount scopes (HTTP 403, ACCESS_DENIED)
  | "payment" // the shop is frozen or unpaid (HTTP 402)
  | "not-found" // the discount no longer exists
  | "throttled" // the shop's rate limit was still exhausted after waiting
  | "network" // the shop could not be reached, or answered 5xx
  | "bad-response" // an answer that could not be understood
  | "rejected"; // any other refusal

export class ShopProviderError extends Error {
  readonly retryable: boolean;
  readonly reason: ShopFailureReason;
  readonly httpStatus: number | undefined;
  constructor(message: string, options: { retryable: boolean; reason: ShopFailureReason; httpStatus?: number }) {
    super(message);
    this.name = "ShopProviderError";
    this.retryable = options.retryable;
    this.reason = options.reason;
    this.httpStatus = options.httpStatus;
  }
}

/** The most codes one call may add (Shopify's limit for discountRedeemCodeBulkAdd). */
export const MAX_CODES_PER_CALL = 250;

export interface ShopProvider {
  readonly name: "simulator" | "shopify";
  /** Checks the domain and token with a real call; answers the shop's name. Throws ShopProviderError. */
  verify(credentials: ShopCredentials): Promise<{ shopName: string }>;
  /** The shop's code discounts (the first 50). */
  listDiscounts(credentials: ShopCredentials): Promise<ShopDiscount[]>;
  /** Adds up to MAX_CODES_PER_CALL codes to a discount and waits until the shop has made them. */
  addCodes(credentials: ShopCredentials, discountId: string, codes: readonly string[]): Promise<AddCodesResult>;
}

/** A shop domain as Shopify names shops: letters, digits and hyphens, then .myshopify.com. */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,59}\.myshopify\.com$/;
