// What every loader and action can reach through the router context: the app's dependencies,
// and (behind authentication) the signed-in user.
import { createContext, type RouterContextProvider } from "react-router";
import type { Database } from "#db/index";
import type { Config } from "./config.server";
import type { SmsProvider } from "~/providers/sms/types";
import type { PaymentProvider } from "~/providers/payments/types";
import type { ShopProvider } from "~/providers/shop/types";
import { createShopProvider } from "~/providers/shop/index.server";

export interface AppDeps {
  db: Database;
  config: Config;
  sms: SmsProvider;
  payments: PaymentProvider;
  /** The shop adapter for discount codes (made from config.shop when absent). */
  shop?: ShopProvider;
  now: () => Date;
}

export const depsContext = createContext<AppDeps>();

export function getDeps(context: Readonly<RouterContextProvider>): AppDeps {
  return context.get(depsContext);
}

/** The shop adapter: the one in the dependencies, or the one configuration names. */
export function getShop(deps: AppDeps): ShopProvider {
  return deps.shop ?? createShopProvider({ provider: deps.config.shop.provider, shopify: deps.config.shop.shopify }, deps.db, deps.now);
}
