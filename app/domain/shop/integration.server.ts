// The shop integration of a business (§3 Shop integration; BR038): one connected shop, its access token sealed
// at rest and never shown again (only its last four characters), and the code discount the codes are drawn from.
// Connecting verifies the domain and token with a real call to the shop; any refusal is BR038 with its reason.
// Every query is scoped to the business. Only the Administrator reaches these (integrations:manage).
import type { Kysely } from "kysely";
import type { DB } from "#db/types";
import { AppError } from "~/lib/errors";
import { openSecret, sealSecret } from "~/lib/crypto.server";
import { SHOP_DOMAIN, ShopProviderError, type ShopCredentials, type ShopDiscount, type ShopFailureReason, type ShopProvider } from "~/providers/shop/types";

type Db = Kysely<DB>;

/** The purpose the access token is sealed under (crypto.server sealSecret). */
const TOKEN_PURPOSE = "shop-access-token";

/** The BR038 context (errors.BR038_<context>) for each reason a shop can refuse. */
const REASON_CONTEXT: Record<ShopFailureReason, string> = {
  "bad-domain": "badDomain",
  auth: "auth",
  scopes: "scopes",
  payment: "payment",
  "not-found": "notFound",
  throttled: "throttled",
  network: "network",
  "bad-response": "badResponse",
  rejected: "rejected",
};

/** BR038 with the shop's reason, for an error a shop adapter threw; other errors are returned unchanged. */
export function shopError(error: unknown, field?: string): unknown {
  if (error instanceof ShopProviderError) return new AppError("BR038", { context: REASON_CONTEXT[error.reason] }, { field });
  return error;
}

/** The i18n context of a stored failure reason (shop_code_requests.error_reason). */
export function reasonContext(reason: string | null): string {
  return (REASON_CONTEXT as Record<string, string>)[reason ?? ""] ?? reason ?? "rejected";
}

export interface ShopIntegration {
  provider: "simulator" | "shopify";
  shopDomain: string;
  shopName: string;
  tokenLast4: string;
  discountId: string | null;
  discountTitle: string | null;
  connectedAt: string;
}

/** The business's connected shop, or null. Never includes the token. */
export async function getShopIntegration(db: Db, businessId: number): Promise<ShopIntegration | null> {
  const r = await db.selectFrom("shop_integrations").selectAll().where("business_id", "=", businessId).executeTakeFirst();
  if (!r) return null;
  return {
    provider: r.provider,
    shopDomain: r.shop_domain,
    shopName: r.shop_name,
    tokenLast4: r.token_last4,
    discountId: r.discount_id,
    discountTitle: r.discount_title,
    connectedAt: r.connected_at,
  };
}

/** The business's shop with its token opened, for calls to the shop; null when none is connected. */
export async function shopCredentials(db: Db, businessId: number, secret: string): Promise<(ShopCredentials & { discountId: string | null }) | null> {
  const r = await db.selectFrom("shop_integrations").select(["shop_domain", "token_enc", "discount_id"]).where("business_id", "=", businessId).executeTakeFirst();
  if (!r) return null;
  const token = openSecret(r.token_enc, secret, TOKEN_PURPOSE);
  if (token === null) return null;
  return { shopDomain: r.shop_domain, accessToken: token, discountId: r.discount_id };
}

/** A shop domain as typed: "my-shop", "my-shop.myshopify.com" or its https:// address, lower-cased. */
export function normaliseShopDomain(input: string): string {
  let d = input.trim().toLowerCase();
  d = d.replace(/^https?:\/\//, "").replace(/\/.*$/, "");
  if (d && !d.includes(".")) d = `${d}.myshopify.com`;
  return d;
}

/**
 * Connects a shop (or replaces the connected one): checks the domain's form, verifies the token with the shop,
 * then stores the token sealed. BR038 (with the reason) when the shop refuses; nothing is stored then.
 */
export async function connectShop(
  db: Db,
  shop: ShopProvider,
  input: { businessId: number; userId: number; shopDomain: string; accessToken: string; secret: string },
  now: Date,
): Promise<ShopIntegration> {
  const shopDomain = normaliseShopDomain(input.shopDomain);
  if (!SHOP_DOMAIN.test(shopDomain)) throw new AppError("BR038", { context: "badDomain" }, { field: "shopDomain" });
  const accessToken = input.accessToken.trim();
  let shopName: string;
  try {
    shopName = (await shop.verify({ shopDomain, accessToken })).shopName;
  } catch (error) {
    throw shopError(error);
  }
  const at = now.toISOString();
  const values = {
    provider: shop.name,
    shop_domain: shopDomain,
    shop_name: shopName.slice(0, 200),
    token_enc: sealSecret(accessToken, input.secret, TOKEN_PURPOSE),
    token_last4: accessToken.slice(-4),
    discount_id: null,
    discount_title: null,
    connected_by: input.userId,
    updated_at: at,
  };
  await db
    .insertInto("shop_integrations")
    .values({ ...values, business_id: input.businessId, connected_at: at })
    .onConflict((oc) => oc.column("business_id").doUpdateSet({ ...values, connected_at: at }))
    .execute();
  return (await getShopIntegration(db, input.businessId))!;
}

/** The connected shop's code discounts. BR038 when none is connected or the shop refuses. */
export async function listShopDiscounts(db: Db, shop: ShopProvider, businessId: number, secret: string): Promise<ShopDiscount[]> {
  const creds = await shopCredentials(db, businessId, secret);
  if (!creds) throw new AppError("BR038", { context: "noShop" });
  try {
    return await shop.listDiscounts(creds);
  } catch (error) {
    throw shopError(error);
  }
}

/** Chooses the discount codes are drawn from (one of the shop's own, checked with the shop). */
export async function chooseDiscount(db: Db, shop: ShopProvider, input: { businessId: number; discountId: string; secret: string }, now: Date): Promise<void> {
  const discounts = await listShopDiscounts(db, shop, input.businessId, input.secret);
  const chosen = discounts.find((d) => d.id === input.discountId);
  if (!chosen) throw new AppError("BR038", { context: "notFound" }, { field: "discountId" });
  await db
    .updateTable("shop_integrations")
    .set({ discount_id: chosen.id, discount_title: chosen.title.slice(0, 200), updated_at: now.toISOString() })
    .where("business_id", "=", input.businessId)
    .execute();
}

/**
 * Disconnects the shop: its token is forgotten. Codes already given to members stay on record; codes made but
 * never given are dropped, and sends still waiting for codes fail with "no shop".
 */
export async function disconnectShop(db: Db, businessId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("shop_integrations").where("business_id", "=", businessId).execute();
    await trx.deleteFrom("shop_codes").where("business_id", "=", businessId).where("message_id", "is", null).execute();
    await trx
      .updateTable("shop_code_requests")
      .set({ status: "FAILED", error_reason: "noShop", updated_at: now.toISOString(), lease_until: null })
      .where("business_id", "=", businessId)
      .where("status", "in", ["PENDING", "MAKING"])
      .execute();
  });
}

/** The integration merge tags the business's editors offer: {{shopify.code}} once a discount is chosen. */
export async function integrationMergeTags(db: Db, businessId: number): Promise<string[]> {
  const r = await db.selectFrom("shop_integrations").select("discount_id").where("business_id", "=", businessId).executeTakeFirst();
  return r?.discount_id ? ["shopify.code"] : [];
}
