import { describe, expect, it } from 'vitest';
import { takeWhileFits, toHeaders } from '../../../src/feedback/relay-batch.js';

describe('relay batches', () => {
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
