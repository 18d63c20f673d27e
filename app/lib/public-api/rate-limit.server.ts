// The public API's per-key rate limit, checked by the Express app before React Router sees the request (see
// server/app.ts): a refusal costs a SHA-256 of the presented key and a map lookup, no routing, no database.
// Only a well-formed key (prefix and checksum right) gets a bucket; anything else goes on to the API's own 401.
import { envelope } from "~/lib/errors";
import { TokenBuckets, type BucketPolicy } from "~/lib/token-bucket.server";
import { hashApiKey, isWellFormedApiKey } from "~/domain/apikeys/format.server";

export const DEFAULT_RATE_LIMIT: BucketPolicy = { ratePerSecond: 10, burst: 10 };

/** One set of buckets per policy (a process has one configuration). */
const bucketSets = new Map<string, TokenBuckets>();
function bucketsFor(policy: BucketPolicy): TokenBuckets {
  const key = `${policy.ratePerSecond}/${policy.burst}`;
  let set = bucketSets.get(key);
  if (!set) bucketSets.set(key, (set = new TokenBuckets(policy)));
  return set;
}

export interface RateLimitAnswer {
  /** RateLimit and RateLimit-Policy, for every answer to this request. */
  headers: Record<string, string>;
  /** Set when the request is refused: the 429 answer's extra headers and body. */
  refused: { headers: Record<string, string>; body: unknown } | null;
}

/** Takes one request from the key's bucket; null when the Authorization header holds no well-formed key. */
export function takeRateLimit(authorization: string | undefined, policy: BucketPolicy = DEFAULT_RATE_LIMIT, nowMs = Date.now()): RateLimitAnswer | null {
  const secret = /^Bearer\s+(\S+)$/i.exec(authorization ?? "")?.[1] ?? "";
  if (!isWellFormedApiKey(secret)) return null;
  const a = bucketsFor(policy).take(hashApiKey(secret), nowMs);
  const window = Math.max(1, Math.ceil(policy.burst / policy.ratePerSecond));
  const headers = {
    "RateLimit-Policy": `"default";q=${policy.burst};w=${window}`,
    RateLimit: `"default";r=${a.remaining};t=${a.resetSeconds}`,
  };
  if (a.allowed) return { headers, refused: null };
  return {
    headers,
    refused: {
      headers: { "Retry-After": String(a.retryAfterSeconds), "Cache-Control": "no-store" },
      body: envelope("RL001", { retryAfter: a.retryAfterSeconds }),
    },
  };
}
