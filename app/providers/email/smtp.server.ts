// SMTP through nodemailer (EMAIL_PROVIDER=smtp, SMTP_URL such as smtps://user:pass@smtp.example.com:465).
// A refusal with a 5xx reply code is permanent; anything else (4xx, a connection that failed) may be retried.
import nodemailer, { type Transporter } from "nodemailer";
import { EmailProviderError, type EmailProvider, type OutboundEmail } from "./types";

export class SmtpEmailProvider implements EmailProvider {
  readonly name = "smtp";
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }

  async send(email: OutboundEmail): Promise<{ providerId: string }> {
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: email.to,
        subject: email.subject,
        text: email.text,
        html: email.html ?? undefined,
        attachments: email.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content })),
        headers: { "X-Textcircle-Reference": email.reference },
      });
      return { providerId: String(info.messageId ?? email.reference) };
    } catch (error) {
      const code = (error as { responseCode?: number }).responseCode;
      throw new EmailProviderError(error instanceof Error ? error.message : String(error), { retryable: !(code && code >= 500 && code < 600) });
    }
  }
}
