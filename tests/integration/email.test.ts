import net from "node:net";
import { describe, expect, it } from "vitest";
import { queueEmail, sendDueEmails } from "~/domain/email/email.server";
import { OutboxEmailProvider } from "~/providers/email/outbox.server";
import { SmtpEmailProvider } from "~/providers/email/smtp.server";
import { EmailProviderError, type EmailProvider } from "~/providers/email/types";
import { DIALECTS, useTestDb } from "../support/db";
import { createBusiness } from "../support/factories";

const email = (businessId: number) => ({ businessId, to: "owner@example.test", subject: "Your invoice", text: "Thank you", kind: "invoice", attachments: [{ filename: "INV-000001.pdf", contentType: "application/pdf", content: Buffer.from("%PDF-1.4 test") }] });

describe.each(DIALECTS)("email outbox (%s)", (dialect) => {
  const t = useTestDb(dialect);
  const now = new Date(Date.UTC(2027, 4, 1, 9));
  const rows = (id: number) => t.db.selectFrom("emails").selectAll().where("business_id", "=", id).orderBy("id").execute();

  it("queues in the caller's transaction: a rolled-back transaction leaves no email", async () => {
    const id = await createBusiness(t.db);
    await t.db
      .transaction()
      .execute(async (trx) => {
        await queueEmail(trx, email(id), now);
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await rows(id)).toEqual([]);
  });

  it("sends through the outbox once, keeping the attachment", async () => {
    const id = await createBusiness(t.db);
    await queueEmail(t.db, email(id), now);
    let sent = 0;
    const provider: EmailProvider = { name: "outbox", send: async (m) => (sent++, new OutboxEmailProvider().send(m)) };
    while ((await sendDueEmails(t.db, provider, now)) > 0);
    expect(await sendDueEmails(t.db, provider, now)).toBe(0);
    expect(sent).toBe(1);
    const [row] = await rows(id);
    expect(row).toMatchObject({ status: "SENT", provider: "outbox", attempts: 1 });
    expect(JSON.parse(row.attachments!)[0]).toMatchObject({ filename: "INV-000001.pdf" });
  });

  it("retries a retryable failure later and gives up on a permanent one", async () => {
    const id = await createBusiness(t.db);
    await queueEmail(t.db, email(id), now);
    await queueEmail(t.db, { ...email(id), to: "nobody@example.test" }, now);
    const provider: EmailProvider = {
      name: "smtp",
      send: async (m) => {
        if (m.to.startsWith("nobody")) throw new EmailProviderError("550 no such user", { retryable: false });
        throw new EmailProviderError("421 try later", { retryable: true });
      },
    };
    await sendDueEmails(t.db, provider, now);
    const [retry, failed] = await rows(id);
    expect(retry).toMatchObject({ status: "QUEUED", attempts: 1, error: "421 try later" });
    expect(retry.next_attempt_at > now.toISOString()).toBe(true);
    expect(failed).toMatchObject({ status: "FAILED", error: "550 no such user" });
    expect(await sendDueEmails(t.db, provider, now)).toBe(0); // not due yet
    await sendDueEmails(t.db, new OutboxEmailProvider(), new Date(now.getTime() + 3600_000));
    expect((await rows(id))[0]).toMatchObject({ status: "SENT", attempts: 2 });
  });

  it("takes back an email whose sender died mid-send once its lease runs out", async () => {
    const id = await createBusiness(t.db);
    await queueEmail(t.db, email(id), now);
    await t.db.updateTable("emails").set({ status: "SENDING", lease_until: new Date(now.getTime() - 1000).toISOString() }).where("business_id", "=", id).execute();
    expect(await sendDueEmails(t.db, new OutboxEmailProvider(), now)).toBe(1);
    expect((await rows(id))[0].status).toBe("SENT");
  });
});

describe("SMTP adapter against a local SMTP server", () => {
  it("delivers the message with its attachment, and a 5xx refusal is permanent", async () => {
    const received: string[] = [];
    const server = net.createServer((socket) => {
      let inData = false;
      let buffer = "";
      socket.write("220 fake.test ESMTP\r\n");
      socket.on("data", (chunk) => {
        buffer += chunk.toString("latin1");
        let i: number;
        while ((i = buffer.indexOf("\r\n")) >= 0) {
          const line = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          if (inData) {
            if (line === ".") {
              inData = false;
              socket.write("250 2.0.0 queued as ABC123\r\n");
            } else received.push(line);
            continue;
          }
          const cmd = line.toUpperCase();
          if (cmd.startsWith("EHLO") || cmd.startsWith("HELO")) socket.write("250-fake.test\r\n250 OK\r\n");
          else if (cmd.startsWith("MAIL FROM")) socket.write("250 OK\r\n");
          else if (cmd.startsWith("RCPT TO")) socket.write(cmd.includes("NOBODY") ? "550 5.1.1 no such user\r\n" : "250 OK\r\n");
          else if (cmd === "DATA") {
            inData = true;
            socket.write("354 go ahead\r\n");
          } else if (cmd === "QUIT") socket.end("221 bye\r\n");
          else socket.write("250 OK\r\n");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      const smtp = new SmtpEmailProvider(`smtp://127.0.0.1:${port}/?ignoreTLS=true`, "Textcircle <billing@textcircle.test>");
      const out = await smtp.send({ to: "owner@example.test", subject: "Your invoice", text: "Thank you", attachments: [{ filename: "INV-000001.pdf", contentType: "application/pdf", content: Buffer.from("%PDF") }], reference: "email-1" });
      expect(out.providerId).toBeTruthy();
      const message = received.join("\n");
      expect(message).toContain("Subject: Your invoice");
      expect(message).toContain('filename=INV-000001.pdf');
      const refused = await smtp.send({ to: "nobody@example.test", subject: "x", text: "x", reference: "email-2" }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(EmailProviderError);
      expect((refused as EmailProviderError).retryable).toBe(false);
    } finally {
      server.close();
    }
  });
});
