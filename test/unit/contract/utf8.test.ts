import { describe, expect, it } from 'vitest';
import { decodeUtf8, validUtf8Prefix } from '../../../src/contract/utf8.js';

describe('decodeUtf8', () => {
  it('decodes valid UTF-8, multi-byte characters included', () => {
    expect(decodeUtf8(Buffer.from('{"a":"عربي 😀"}', 'utf8'))).toEqual({ ok: true, text: '{"a":"عربي 😀"}' });
  });

  it('keeps a byte-order mark (JSON text has none, so it fails parsing rather than vanishing)', () => {
    const result = decodeUtf8(Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]));
    expect(result).toEqual({ ok: true, text: '\ufeff{}' });
  });

  it.each([
    ['a lone continuation byte', [0x61, 0x62, 0x80, 0x63], 2],
    ['a truncated sequence at the end', [0x61, 0xc3], 1],
    ['an overlong encoding', [0x61, 0xc0, 0xaf], 1],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], 0],
    ['0xff', [0x7b, 0x7d, 0xff], 2],
  ])('refuses %s, saying where the valid bytes end', (_what, bytes, valid) => {
    expect(decodeUtf8(Buffer.from(bytes))).toEqual({ ok: false, validBytes: valid });
  });

  it('finds the break in a megabyte by bisection', () => {
    const bytes = Buffer.alloc(1_000_000, 0x61);
    bytes[765_432] = 0xfe;
    expect(validUtf8Prefix(bytes)).toBe(765_432);
  });
});
