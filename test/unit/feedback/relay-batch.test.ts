import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MAX_MESSAGE_BYTES,
  fitsAlone,
  recordBytes,
  takeWhileFits,
  toHeaders,
} from '../../../src/feedback/relay-batch.js';

describe('relay batches', () => {
  it('counts a record high: key, value, headers and their lengths', () => {
    const bytes = recordBytes({ key: 'ab', value: Buffer.alloc(100), headers: { 'x-outbox-id': '12' } });
    expect(bytes).toBeGreaterThanOrEqual(2 + 100 + 'x-outbox-id'.length + 2);
    expect(bytes).toBeLessThan(2 + 100 + 13 + 60);
  });

  it('refuses alone a record the topic can never take, as the broker would (H4)', () => {
    expect(
      fitsAlone(recordBytes({ key: null, value: Buffer.alloc(1_048_576) }), DEFAULT_MAX_MESSAGE_BYTES),
    ).toBe(false);
    expect(
      fitsAlone(recordBytes({ key: null, value: Buffer.alloc(1_000_000) }), DEFAULT_MAX_MESSAGE_BYTES),
    ).toBe(true);
  });

  it('keeps each topic of a transaction under its limit, and always takes at least one record', () => {
    const limit = () => 1_000;
    const items = [
      { topic: 'a', bytes: 400 },
      { topic: 'b', bytes: 900 },
      { topic: 'a', bytes: 400 },
      { topic: 'a', bytes: 400 },
    ];
    expect(takeWhileFits(items, limit)).toBe(3);
    expect(takeWhileFits([{ topic: 'a', bytes: 5_000 }], limit)).toBe(1);
    expect(takeWhileFits([], limit)).toBe(0);
  });

  it('turns a stored header list back into kafkajs headers (a repeated name becomes a list)', () => {
    expect(
      toHeaders([
        ['a', Buffer.from('1')],
        ['a', Buffer.from('2')],
        ['b', Buffer.from('3')],
      ]),
    ).toEqual({ a: [Buffer.from('1'), Buffer.from('2')], b: Buffer.from('3') });
  });
});
