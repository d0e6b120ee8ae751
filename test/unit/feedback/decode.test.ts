import { describe, expect, it } from 'vitest';
import { decodeCorrection } from '../../../src/feedback/decode.js';

const avro = { decode: async () => ({ ok: true as const, value: { from: 'avro' } }) };

describe('decodeCorrection', () => {
  it('decodes a JSON object, and hands framed Avro to the registry codec', async () => {
    expect(await decodeCorrection(Buffer.from(' {"a":1}'), avro)).toEqual({ ok: true, value: { a: 1 } });
    expect(await decodeCorrection(Buffer.from([0, 0, 0, 0, 1, 2]), avro)).toEqual({
      ok: true,
      value: { from: 'avro' },
    });
  });

  it.each([
    ['an empty value', Buffer.alloc(0), 'EMPTY_VALUE'],
    [
      'invalid UTF-8 inside a JSON value (never replaced by U+FFFD)',
      Buffer.from([0x7b, 0x22, 0x61, 0xc3, 0x28, 0x22, 0x7d]),
      'INVALID_ENCODING',
    ],
    ['text that is not JSON', Buffer.from('this is not json'), 'NOT_JSON'],
    ['broken JSON', Buffer.from('{"a":'), 'NOT_JSON'],
  ])('names %s', async (_, value, code) => {
    expect(await decodeCorrection(value, avro)).toMatchObject({ ok: false, error: { code } });
  });

  it('names a missing value', async () => {
    expect(await decodeCorrection(null, avro)).toMatchObject({ ok: false, error: { code: 'EMPTY_VALUE' } });
  });
});
