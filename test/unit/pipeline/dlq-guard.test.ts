/**
 * The dead-letter guard judges only a full window, trips once when the share of dead letters in the
 * last `window` records passes the bound, and stays tripped.
 */
import { describe, expect, it } from 'vitest';
import { DeadLetterGuard } from '../../../src/pipeline/dlq-guard.js';

describe('DeadLetterGuard', () => {
  it('does not judge before the window is full', () => {
    const guard = new DeadLetterGuard(10, 0.5);
    expect(guard.record(0, 9)).toBe(false);
    expect(guard.tripped).toBe(false);
    expect(guard.share()).toBe(1);
  });

  it('trips when the share in a full window passes the bound, and reports it once', () => {
    const guard = new DeadLetterGuard(10, 0.5);
    expect(guard.record(4, 6)).toBe(true);
    expect(guard.tripped).toBe(true);
    expect(guard.record(0, 10)).toBe(false);
    expect(guard.tripped).toBe(true);
  });

  it('does not trip at exactly the bound', () => {
    const guard = new DeadLetterGuard(10, 0.5);
    expect(guard.record(5, 5)).toBe(false);
    expect(guard.share()).toBe(0.5);
  });

  it('forgets records older than the window', () => {
    const guard = new DeadLetterGuard(4, 0.5);
    guard.record(1, 2); // 3 of 4 slots: 2 dead
    guard.record(1, 0); // full: 2 dead of 4, not above the bound
    expect(guard.tripped).toBe(false);
    guard.record(4, 0); // the dead ones slide out
    expect(guard.share()).toBe(0);
    expect(guard.record(1, 3)).toBe(true); // 3 of the last 4 dead
  });

  it('counts good records before bad ones within one call', () => {
    const guard = new DeadLetterGuard(3, 0.5);
    guard.record(3, 0);
    guard.record(1, 1); // window now: good, good, bad
    expect(guard.share()).toBeCloseTo(1 / 3);
  });
});
