/**
 * Record sizes are an upper bound of what the broker counts against `max.message.bytes`: a record
 * judged to fit does fit, and every byte of key, value and headers (UTF-8, not UTF-16) counts.
 */
import { describe, expect, it } from 'vitest';
import {
  BATCH_OVERHEAD_BYTES,
  bytesOf,
  fitsAlone,
  headerBytes,
  recordBytes,
} from '../../../src/kafka/record-size.js';

describe('record sizes', () => {
  it('counts strings in UTF-8 bytes, buffers by length, nothing for null', () => {
    expect(bytesOf('abc')).toBe(3);
    expect(bytesOf('مرحبا')).toBe(10);
    expect(bytesOf(Buffer.alloc(7))).toBe(7);
    expect(bytesOf(null)).toBe(0);
    expect(bytesOf(undefined)).toBe(0);
  });

  it('counts every value of a repeated header with its name', () => {
    const one = headerBytes({ a: 'xy' });
    expect(headerBytes({ a: ['xy', 'xy'] })).toBe(2 * one);
    expect(headerBytes(undefined)).toBe(0);
  });

  it('grows byte for byte with the key, the value and the headers', () => {
    const base = recordBytes({ key: 'k', value: 'v' });
    expect(recordBytes({ key: 'kk', value: 'v' })).toBe(base + 1);
    expect(recordBytes({ key: 'k', value: Buffer.alloc(101) })).toBe(base + 100);
    expect(recordBytes({ key: 'k', value: 'v', headers: { h: 'x' } })).toBe(base + headerBytes({ h: 'x' }));
  });

  it('fits a record alone exactly up to the limit, batch header included', () => {
    const message = { key: 'k', value: Buffer.alloc(1000) };
    const exact = BATCH_OVERHEAD_BYTES + recordBytes(message);
    expect(fitsAlone(message, exact)).toBe(true);
    expect(fitsAlone(message, exact - 1)).toBe(false);
  });
});
