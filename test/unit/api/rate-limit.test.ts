// Guarantee: the per-tenant token bucket allows a minute's worth of requests at once, then one every
// 60/rate seconds, tells how long to wait (Retry-After, whole seconds, at least 1), and keeps tenants
// apart.
import { describe, expect, it } from 'vitest';
import { TokenBucketLimiter } from '../../../src/api/rate-limit.js';

function limiter() {
  const clock = { now: 0 };
  return { clock, limiter: new TokenBucketLimiter(() => clock.now) };
}

describe('TokenBucketLimiter', () => {
  it('allows a full bucket, then refuses with the wait for one token', () => {
    const { limiter: l } = limiter();
    for (let i = 0; i < 60; i++) expect(l.take('a', 60).allowed).toBe(true);
    expect(l.take('a', 60)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('refills continuously at rate / 60 per second', () => {
    const { clock, limiter: l } = limiter();
    for (let i = 0; i < 6; i++) l.take('a', 6);
    expect(l.take('a', 6)).toEqual({ allowed: false, retryAfterSeconds: 10 });
    clock.now = 5_000;
    expect(l.take('a', 6)).toEqual({ allowed: false, retryAfterSeconds: 5 });
    clock.now = 10_000;
    expect(l.take('a', 6)).toMatchObject({ allowed: true });
    expect(l.take('a', 6).allowed).toBe(false);
  });

  it('never holds more than one minute of tokens', () => {
    const { clock, limiter: l } = limiter();
    l.take('a', 2);
    clock.now = 3_600_000;
    expect(l.take('a', 2)).toEqual({ allowed: true, remaining: 1 });
    expect(l.take('a', 2)).toEqual({ allowed: true, remaining: 0 });
    expect(l.take('a', 2).allowed).toBe(false);
  });

  it('keeps one bucket per key', () => {
    const { limiter: l } = limiter();
    expect(l.take('a', 1).allowed).toBe(true);
    expect(l.take('a', 1)).toEqual({ allowed: false, retryAfterSeconds: 60 });
    expect(l.take('b', 1).allowed).toBe(true);
    expect(l.size).toBe(2);
  });

  it('applies a lowered rate at once', () => {
    const { limiter: l } = limiter();
    l.take('a', 100);
    expect(l.take('a', 2)).toEqual({ allowed: true, remaining: 1 });
    expect(l.take('a', 2)).toEqual({ allowed: true, remaining: 0 });
    expect(l.take('a', 2).allowed).toBe(false);
  });
});
