import type { Database } from "#db/index";
import type { Config } from "~/lib/config.server";
import { SimulatorPaymentProvider } from "./simulator.server";
import { StripePaymentProvider } from "./stripe.server";
import type { PaymentProvider } from "./types";

/** Picks the payment adapter named by configuration. */
export function createPaymentProvider(config: Pick<Config, "billing" | "publicUrl">, db: Database, now: () => Date): PaymentProvider {
  switch (config.billing.provider) {
    case "simulator":
      return new SimulatorPaymentProvider(db, now);
    case "stripe":
      return new StripePaymentProvider(db, { ...config.billing.stripe!, publicUrl: config.publicUrl }, now);
  }
}
