// The email provider interface. Adapters: the embedded outbox (default: every email is kept and shown at
// /outbox) and SMTP through nodemailer. Errors say whether trying again can help.

export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutboundEmail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  attachments?: EmailAttachment[];
  /** Our own reference for it (the emails row), kept where the provider can. */
  reference: string;
}

export interface EmailProvider {
  readonly name: string;
  send(email: OutboundEmail): Promise<{ providerId: string }>;
}

export class EmailProviderError extends Error {
  readonly retryable: boolean;
  constructor(message: string, options: { retryable: boolean }) {
    super(message);
    this.name = "EmailProviderError";
    this.retryable = options.retryable;
  }
}
