import { describe, expect, it } from 'vitest';
import { coordinatorPartition, javaHashCode } from '../../support/cluster.js';

describe('finding a coordinator the way Kafka places it', () => {
  it('hashes like java.lang.String.hashCode', () => {
    expect(javaHashCode('')).toBe(0);
    expect(javaHashCode('hello')).toBe(99162322);
    // Wraps at 32 bits: this one is Integer.MIN_VALUE in Java.
    expect(javaHashCode('polygenelubricants')).toBe(-2147483648);
    // UTF-16 code units, as Java sees them.
    expect(javaHashCode('é')).toBe(233);
  });

  it('uses Utils.abs (masking the sign bit), not Math.abs, before the modulo', () => {
    expect(coordinatorPartition('polygenelubricants', 50)).toBe(0);
    expect(coordinatorPartition('hello', 50)).toBe(99162322 % 50);
    const negative = 'tx-enrich-group-raw-3';
    const h = javaHashCode(negative);
    expect(coordinatorPartition(negative, 50)).toBe((h & 0x7fffffff) % 50);
  });
});
