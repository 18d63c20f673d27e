// What the webhooks page and the delivery round share: the events a business can subscribe to, the delivery
// states, and the retry schedule.

/** The events an endpoint can subscribe to. */
export const EVENT_TYPES = ["message.received", "member.opted_out", "message.status"] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** Sent only by the page's "Send a test event" button, to the one endpoint it was pressed for. */
export const TEST_EVENT = "webhook.test";

export const DELIVERY_STATES = ["PENDING", "SENDING", "SUCCEEDED", "FAILED"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The delivery states reported by message.status. */
export type MessageState = "sent" | "delivered" | "failed" | "undelivered";

/** Attempts at one delivery before it is marked failed. */
export const MAX_ATTEMPTS = 8;
/** Deliveries in a row that failed for good before an endpoint is switched off. */
export const AUTO_DISABLE_AFTER = 5;
/** How long one attempt may take, connection and answer together. */
export const TIMEOUT_MS = 10_000;
/** How long the previous secret keeps signing beside the new one after a roll. */
export const ROLL_OVERLAP_HOURS = 24;
/** Endpoints per business. */
export const MAX_ENDPOINTS = 10;

/**
 * The wait before attempt n + 1 after attempt n failed: 30 s × 4^(n−1), at most 12 hours, ±20 % jitter so that
 * endpoints coming back together are not all tried at the same second. The eight attempts span about 23 hours.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(12 * 3_600_000, 30_000 * 4 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + random() * 0.4));
}

/**
 * The wait a Retry-After header asks for (delta seconds or an HTTP date), between 1 second and 24 hours;
 * null when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | null | undefined, now: Date): number | null {
  if (!header) return null;
  const value = header.trim();
  let ms: number;
  if (/^\d+$/.test(value)) ms = Number(value) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = at - now.getTime();
  }
  return Math.min(24 * 3_600_000, Math.max(1000, ms));
}

/** Whether an HTTP answer is worth trying again: 408, 429 and every 5xx. Other 4xx (and 3xx: redirects are not followed) are final. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}
