// Per-key token buckets held in this process's memory: the public API's rate limit.
//
// A bucket holds up to `burst` tokens and refills at `ratePerSecond`; each request takes one. Checking costs a
// map lookup and some arithmetic, no I/O, so a client hammering one key is refused without touching the database
// and cannot slow anyone else's calls. Buckets idle long enough to be full again are dropped, so the map stays
// as small as the set of keys in use. With several web processes each holds its own buckets (see decision 014).
export interface BucketPolicy {
  ratePerSecond: number;
  burst: number;
}

export interface BucketAnswer {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again (the RateLimit header's `t`). */
  resetSeconds: number;
  /** Seconds until one token is there (Retry-After when refused). */
  retryAfterSeconds: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const SWEEP_EVERY = 10_000;

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>();
  private takes = 0;

  constructor(readonly policy: BucketPolicy) {}

  take(key: string, nowMs: number): BucketAnswer {
    const { ratePerSecond: rate, burst } = this.policy;
    if (++this.takes % SWEEP_EVERY === 0) this.sweep(nowMs);
    const b = this.buckets.get(key) ?? { tokens: burst, at: nowMs };
    b.tokens = Math.min(burst, b.tokens + (Math.max(0, nowMs - b.at) / 1000) * rate);
    b.at = nowMs;
    const allowed = b.tokens >= 1;
    if (allowed) b.tokens -= 1;
    this.buckets.set(key, b);
    return {
      allowed,
      remaining: Math.floor(b.tokens),
      resetSeconds: Math.ceil((burst - b.tokens) / rate),
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((1 - b.tokens) / rate)),
    };
  }

  /** Drops buckets that have refilled completely (they behave exactly like a missing one). */
  sweep(nowMs: number): void {
    const { ratePerSecond: rate, burst } = this.policy;
    for (const [k, b] of this.buckets) if (b.tokens + ((nowMs - b.at) / 1000) * rate >= burst) this.buckets.delete(k);
  }

  get size(): number {
    return this.buckets.size;
  }
}
