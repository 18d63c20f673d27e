import type { Database } from "#db/index";
import { SimulatorShopProvider } from "./simulator.server";
import { ShopifyShopProvider, type ShopifyOptions } from "./shopify.server";
import type { ShopProvider } from "./types";

export interface ShopSettings {
  /** Which adapter connects shops: the shop simulator (default) or Shopify's Admin API. */
  provider: "simulator" | "shopify";
  shopify?: ShopifyOptions;
}

/** Picks the shop adapter named by configuration. */
export function createShopProvider(settings: ShopSettings, db: Database, now: () => Date): ShopProvider {
  switch (settings.provider) {
    case "shopify":
      return new ShopifyShopProvider(settings.shopify);
    case "simulator":
      return new SimulatorShopProvider(db, now);
  }
}
