// What every loader and action can reach through the router context: the app's dependencies,
// and (behind authentication) the signed-in user.
import { createContext, type RouterContextProvider } from "react-router";
import type { Database } from "#db/index";
import type { Config } from "./config.server";
import type { SmsProvider } from "~/providers/sms/types";
import type { PaymentProvider } from "~/providers/payments/types";

export interface AppDeps {
  db: Database;
  config: Config;
  sms: SmsProvider;
  payments: PaymentProvider;
  now: () => Date;
}

export const depsContext = createContext<AppDeps>();

export function getDeps(context: Readonly<RouterContextProvider>): AppDeps {
  return context.get(depsContext);
}
