// Webhook deliveries over HTTP(S) with Node's own client. No redirect is ever followed (a 3xx is an answer
// like any other). Where private addresses are not allowed, every connection goes through
// request-filtering-agent, which checks the address the host name resolved to at the moment of connecting,
// so a name that later resolves to 127.0.0.1, 10.x, 169.254.x (cloud metadata) or fc00::/7 is refused too.
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";
import { WebhookTransportError, type WebhookRequest, type WebhookResponse, type WebhookTransport } from "./types";

/** The most of a response body read (and thrown away): receivers are asked for a status code only. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export class HttpWebhookTransport implements WebhookTransport {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;

  constructor(options: { allowPrivate: boolean }) {
    const filter = { allowPrivateIPAddress: options.allowPrivate, allowMetaIPAddress: options.allowPrivate };
    this.httpAgent = new RequestFilteringHttpAgent({ keepAlive: false, ...filter });
    this.httpsAgent = new RequestFilteringHttpsAgent({ keepAlive: false, ...filter });
  }

  post(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    return new Promise((resolve, reject) => {
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        reject(new WebhookTransportError("invalid URL", { durationMs: 0, blocked: true }));
        return;
      }
      const secure = url.protocol === "https:";
      const client = secure ? https : http;
      const body = Buffer.from(request.body, "utf8");
      const req = client.request(
        url,
        {
          method: "POST",
          agent: secure ? this.httpsAgent : this.httpAgent,
          headers: { ...request.headers, "content-length": String(body.length) },
          timeout: request.timeoutMs,
        },
        (res) => {
          let read = 0;
          res.on("data", (chunk: Buffer) => {
            read += chunk.length;
            if (read > MAX_RESPONSE_BYTES) res.destroy();
          });
          const done = () => {
            const retryAfter = res.headers["retry-after"];
            resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === "string" ? retryAfter : null, durationMs: elapsed() });
          };
          res.on("end", done);
          res.on("close", done);
          res.on("error", done);
        },
      );
      // The whole exchange has one deadline, however slowly the other side trickles.
      const deadline = setTimeout(() => req.destroy(new Error(`timed out after ${request.timeoutMs} ms`)), request.timeoutMs);
      req.on("timeout", () => req.destroy(new Error(`timed out after ${request.timeoutMs} ms`)));
      req.on("error", (error) => {
        clearTimeout(deadline);
        const message = error instanceof Error ? error.message : String(error);
        // request-filtering-agent says "DNS lookup … is not allowed" when the address is private or reserved.
        reject(new WebhookTransportError(message.slice(0, 300), { durationMs: elapsed(), blocked: /not allowed/i.test(message) }));
      });
      req.on("close", () => clearTimeout(deadline));
      req.end(body);
    });
  }
}
