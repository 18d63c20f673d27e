import type { Database } from "#db/index";
import type { Config } from "~/lib/config.server";
import { SimulatorSmsProvider } from "./simulator.server";
import { TwilioSmsProvider } from "./twilio.server";
import type { SmsProvider } from "./types";

/** Picks the SMS adapter named by configuration. */
export function createSmsProvider(config: Config, db: Database, now: () => Date): SmsProvider {
  switch (config.smsProvider) {
    case "simulator":
      return new SimulatorSmsProvider(db, now);
    case "twilio":
      // loadConfig guarantees the account SID, auth token and PUBLIC_URL when SMS_PROVIDER=twilio.
      if (!config.twilio) throw new Error("SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN");
      return new TwilioSmsProvider({
        accountSid: config.twilio.accountSid,
        authToken: config.twilio.authToken,
        apiBase: config.twilio.apiBase,
        publicUrl: config.publicUrl,
      });
  }
}
