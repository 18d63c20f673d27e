// The embedded email outbox: an explicit, visible stand-in for a mail server. An email "sent" through it stays
// in the emails table, marked as delivered to the outbox, and a person reads it at /outbox (served where the
// SMS simulator is). Nothing leaves the machine.
import type { EmailProvider, OutboundEmail } from "./types";

export class OutboxEmailProvider implements EmailProvider {
  readonly name = "outbox";
  async send(email: OutboundEmail): Promise<{ providerId: string }> {
    return { providerId: `outbox-${email.reference}` };
  }
}
