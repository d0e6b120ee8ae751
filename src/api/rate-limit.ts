/**
 * Per-tenant rate limiting: one token bucket per tenant, holding at most one minute's allowance
 * (`ratePerMinute` tokens) and refilled continuously at ratePerMinute / 60 tokens a second. Each
 * request takes one token; an empty bucket answers how long until the next token (Retry-After).
 * In memory and per process: N API replicas allow N times the rate.
 */

export type RateDecision =
  | { readonly allowed: true; readonly remaining: number }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
  ratePerMinute: number;
}

export class TokenBucketLimiter {
  private readonly buckets = new Map<string, Bucket>();

  /** `now` returns milliseconds; injectable for tests. */
  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Takes one token from `key`'s bucket, whose capacity and refill are set by ratePerMinute. */
  take(key: string, ratePerMinute: number): RateDecision {
    const now = this.now();
    const capacity = ratePerMinute;
    const perMs = ratePerMinute / 60_000;
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, updatedAt: now, ratePerMinute };
      this.buckets.set(key, bucket);
    } else {
      // A changed limit (tenants file reloaded) applies at once; tokens above the new capacity go.
      bucket.ratePerMinute = ratePerMinute;
      bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, now - bucket.updatedAt) * perMs);
      bucket.updatedAt = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, remaining: Math.floor(bucket.tokens) };
    }
    const waitMs = (1 - bucket.tokens) / perMs;
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  /** Number of buckets held (one per tenant seen). */
  get size(): number {
    return this.buckets.size;
  }
}
