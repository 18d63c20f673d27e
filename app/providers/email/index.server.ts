import type { Config } from "~/lib/config.server";
import { OutboxEmailProvider } from "./outbox.server";
import { SmtpEmailProvider } from "./smtp.server";
import type { EmailProvider } from "./types";

/** Picks the email adapter named by configuration. */
export function createEmailProvider(config: Pick<Config, "email">): EmailProvider {
  switch (config.email.provider) {
    case "outbox":
      return new OutboxEmailProvider();
    case "smtp":
      return new SmtpEmailProvider(config.email.smtpUrl!, config.email.from);
  }
}
