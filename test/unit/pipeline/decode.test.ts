import { describe, expect, it } from 'vitest';
import { decodeMessage } from '../../../src/pipeline/decode.js';
import { InMemoryCodec } from '../../fakes/in-memory-codec.js';
import { kafkaMessage, rawTransaction } from '../../fakes/messages.js';

const codec = new InMemoryCodec().register(7, 'raw-transaction');
const decode = (value: Buffer | string | null, headers = {}) =>
  decodeMessage(kafkaMessage(value, { headers }), codec, 'default');
const firstError = (value: Buffer | string | null, headers = {}) => {
  const item = decode(value, headers)?.items[0];
  return item && !item.ok ? item.error : undefined;
};

describe('decodeMessage', () => {
  it('decodes a JSON transaction with the tenant from its header, else the default tenant', () => {
    const json = JSON.stringify(rawTransaction({ transaction_id: 'x-1' }));
    const item = decode(json, { 'tenant-id': 'bank-a' })?.items[0];
    expect(item).toMatchObject({ ok: true, transaction: { transaction_id: 'x-1', tenant: 'bank-a' } });
    expect(decode(json)?.items[0]).toMatchObject({ ok: true, transaction: { tenant: 'default' } });
  });

  it('decodes Confluent-framed Avro with the registered schema', () => {
    const raw = rawTransaction({ transaction_id: 'avro-1', card_name: null });
    const item = decode(codec.frame(7, { ...raw, is_self_transaction: null }))?.items[0];
    expect(item).toMatchObject({ ok: true, transaction: { transaction_id: 'avro-1' } });
  });

  it('an envelope gives one item per element, each failing on its own with its path', () => {
    const value = JSON.stringify({ transactions: [rawTransaction(), rawTransaction({ amount: 'x' })] });
    const decoded = decode(value);
    expect(decoded?.envelope).toBe(true);
    expect(decoded?.items[0]?.ok).toBe(true);
    expect(decoded?.items[1]).toMatchObject({
      ok: false,
      error: { code: 'INVALID_FIELD', field: 'transactions[1].amount' },
    });
  });

  it.each([
    ['an empty value', null, 'EMPTY_VALUE', ''],
    ['text that is not JSON', 'hello', 'NOT_JSON', ''],
    ['binary that is neither', Buffer.from([0xff, 0x01]), 'BAD_MAGIC_BYTE', ''],
    ['an empty envelope', '{"transactions": []}', 'EMPTY_ENVELOPE', 'transactions'],
    ['a non-array envelope', '{"transactions": 3}', 'INVALID_FIELD', 'transactions'],
  ])('%s → %s', (_, value, code, field) => {
    expect(firstError(value)).toMatchObject({ code, field });
  });

  it('refuses bytes that are not UTF-8 instead of altering the transaction id (INVALID_ENCODING)', () => {
    const good = Buffer.from(JSON.stringify(rawTransaction({ transaction_id: 'id-XY' })));
    const at = good.indexOf('XY');
    good[at] = 0xc3; // a lead byte followed by ASCII: invalid
    const error = firstError(good);
    expect(error).toMatchObject({ code: 'INVALID_ENCODING', field: '' });
    // The byte after the lead byte is where the sequence breaks.
    expect(error?.message).toContain(`near byte ${at + 1}`);
  });

  it('a lone surrogate escaped in JSON is refused by the contract', () => {
    expect(firstError(JSON.stringify(rawTransaction()).replace('"c-1"', '"c-\\ud800"'))).toMatchObject({
      code: 'INVALID_FIELD',
      field: 'customer_id',
    });
  });

  it.each([['*'], ['bank a'], ['x'.repeat(65)], ['nul\u0000'], ['']])(
    'a tenant-id header %j that breaks the tenant rule → INVALID_HEADER (the store reads * as "all tenants")',
    (tenant) => {
      expect(firstError(JSON.stringify(rawTransaction()), { 'tenant-id': tenant })).toMatchObject({
        code: 'INVALID_HEADER',
        field: 'headers.tenant-id',
      });
    },
  );

  it('an Avro body announcing millions of items is refused before anything is built', () => {
    const hostile = new InMemoryCodec().register(9, {
      type: 'record',
      name: 'R',
      fields: [{ name: 'xs', type: { type: 'array', items: 'null' } }],
    });
    // count 30,000,000 (zig-zag varint), then the end of the array: five bytes of body.
    const body = Buffer.from([0x80, 0x9b, 0xee, 0x1c, 0x00]);
    const value = Buffer.concat([Buffer.from([0, 0, 0, 0, 9]), body]);
    const item = decodeMessage(kafkaMessage(value), hostile, 'default')?.items[0];
    expect(item).toMatchObject({ ok: false, error: { code: 'AVRO_DECODE_FAILED', field: 'xs' } });
  });

  it('a schema id the registry does not know → UNKNOWN_SCHEMA', () => {
    const value = Buffer.from([0, 0, 0, 0, 42, 1]);
    expect(firstError(value)).toMatchObject({ code: 'UNKNOWN_SCHEMA' });
  });
});
