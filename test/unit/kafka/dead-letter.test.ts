import { describe, expect, it } from 'vitest';
import { fitDeadLetter, TRUNCATION_HEADER } from '../../../src/kafka/dead-letter.js';
import { BATCH_OVERHEAD_BYTES, fitsAlone, recordBytes } from '../../../src/kafka/record-size.js';

const ours = {
  'x-dlq-error-code': 'NOT_JSON',
  'x-dlq-error-message': 'invalid JSON',
  'x-source-offset': '12',
};

describe('fitDeadLetter', () => {
  it('keeps a dead letter that fits as it is', () => {
    const original = { key: Buffer.from('k'), value: Buffer.from('v'), headers: { a: 'b' } };
    expect(fitDeadLetter(original, ours, 10_000)).toEqual({
      key: original.key,
      value: original.value,
      headers: { a: 'b', ...ours },
    });
  });

  it('cuts the value of a dead letter near the limit, and says how long it was', () => {
    const value = Buffer.alloc(1_048_000, 0x61);
    const fitted = fitDeadLetter({ key: null, value, headers: { 'tenant-id': 'bank' } }, ours, 1_048_588);
    expect(recordBytes(fitted) + BATCH_OVERHEAD_BYTES).toBeLessThanOrEqual(1_048_588);
    expect(fitsAlone(fitted, 1_048_588)).toBe(true);
    expect(fitted.headers?.[TRUNCATION_HEADER.value]).toBe('1048000');
    expect(fitted.headers?.['tenant-id']).toBe('bank');
    expect(fitted.headers?.['x-dlq-error-code']).toBe('NOT_JSON');
    expect((fitted.value as Buffer).equals(value.subarray(0, (fitted.value as Buffer).length))).toBe(true);
  });

  it('leaves out original headers that alone take half the room, and cuts a long key', () => {
    const headers = { big: 'h'.repeat(60_000) };
    const key = Buffer.alloc(80_000, 0x6b);
    const fitted = fitDeadLetter({ key, value: Buffer.alloc(10), headers }, ours, 64 * 1024);
    expect(fitsAlone(fitted, 64 * 1024)).toBe(true);
    expect(fitted.headers?.big).toBeUndefined();
    expect(fitted.headers?.[TRUNCATION_HEADER.headers]).toBe('1');
    expect(fitted.headers?.[TRUNCATION_HEADER.key]).toBe('80000');
    expect(fitted.headers?.[TRUNCATION_HEADER.value]).toBeUndefined();
    expect(fitted.headers?.['x-source-offset']).toBe('12');
  });
});
