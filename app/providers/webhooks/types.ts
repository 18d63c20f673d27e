// The webhook transport: posts one signed JSON body to a business's endpoint and says what came back.
// The default adapter is plain HTTP(S) from Node (http.server.ts); tests may pass their own.

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

export interface WebhookResponse {
  status: number;
  /** The Retry-After header, as sent (seconds or an HTTP date), when there was one. */
  retryAfter: string | null;
  durationMs: number;
}

/** The request never got an HTTP answer: refused, reset, timed out, or the address was not allowed. */
export class WebhookTransportError extends Error {
  readonly durationMs: number;
  /** True when the address itself is refused (a private address in production): trying again cannot help. */
  readonly blocked: boolean;
  constructor(message: string, options: { durationMs: number; blocked?: boolean }) {
    super(message);
    this.name = "WebhookTransportError";
    this.durationMs = options.durationMs;
    this.blocked = options.blocked ?? false;
  }
}

export interface WebhookTransport {
  post(request: WebhookRequest): Promise<WebhookResponse>;
}
