// Guarantee: records produced through our record encoder are byte for byte the records kafkajs'
// own encoder writes (keys, values and headers as strings or Buffers, Arabic and astral text, empty
// and null fields, repeated headers, large values), so switching it on changes CPU, never the wire.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { seededRandom as random } from '../../../src/samples/generate.js';
import {
  SUPPORTED_KAFKAJS_VERSION,
  encodeRecord,
  installRecordEncoder,
  recordEncoderInstalled,
  type EncodedRecord,
  type RecordInput,
} from '../../../src/kafka/record-encoder.js';

const require = createRequire(import.meta.url);
type Encode = (record: RecordInput) => EncodedRecord;
const kafkajsRecord = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as Encode;

const PIECES = ['a', 'Z', '7', ' ', '-', '"', 'é', 'ك', 'ة', '٣', '€', '😀', '\n'];

function text(rnd: () => number, max: number): string {
  let s = '';
  const n = Math.floor(rnd() * max);
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(rnd() * PIECES.length)];
  return s;
}

function bytes(rnd: () => number, max: number): Buffer {
  const b = Buffer.alloc(Math.floor(rnd() * max));
  for (let i = 0; i < b.length; i++) b[i] = Math.floor(rnd() * 256);
  return b;
}

function field(rnd: () => number, max: number): string | Buffer | null | undefined {
  const r = rnd();
  if (r < 0.1) return null;
  if (r < 0.15) return undefined;
  if (r < 0.55) return text(rnd, max);
  return bytes(rnd, max);
}

function record(rnd: () => number): RecordInput {
  const headers: Record<string, string | Buffer | (string | Buffer)[]> = {};
  const count = Math.floor(rnd() * 5);
  for (let h = 0; h < count; h++) {
    const name = `${text(rnd, 12)}${h}`;
    headers[name] =
      rnd() < 0.2 ? [text(rnd, 40), bytes(rnd, 40)] : rnd() < 0.5 ? text(rnd, 300) : bytes(rnd, 300);
  }
  const big = rnd() < 0.05;
  return {
    offsetDelta: Math.floor(rnd() * (rnd() < 0.5 ? 100 : 2_000_000)),
    timestampDelta: Math.floor((rnd() - 0.3) * (rnd() < 0.5 ? 1_000 : 500_000_000)),
    key: field(rnd, 40),
    value: field(rnd, big ? 20_000 : 900),
    ...(rnd() < 0.1 ? {} : { headers }),
  };
}

describe('encodeRecord', () => {
  it('writes the bytes kafkajs writes, for 5,000 varied records', () => {
    const rnd = random(20261126);
    for (let i = 0; i < 5_000; i++) {
      const r = record(rnd);
      const ours = encodeRecord(r);
      expect(ours, `record ${i}`).toBeDefined();
      expect(ours?.buffer.equals(kafkajsRecord(r).buffer), `record ${i}`).toBe(true);
      expect(ours?.size()).toBe(ours?.buffer.length);
    }
  });

  it('writes an enriched record with three headers as kafkajs does', () => {
    const r: RecordInput = {
      offsetDelta: 17,
      timestampDelta: 0,
      key: 'cust-000123',
      value: Buffer.alloc(700, 3),
      headers: { 'tenant-id': 'acme', 'x-enrich': '{"confidence":0.93}', 'x-source': '{"offset":"9"}' },
    };
    expect(encodeRecord(r)?.buffer.equals(kafkajsRecord(r).buffer)).toBe(true);
  });

  it('declines what it does not handle, so kafkajs encodes it (or raises its own error)', () => {
    expect(encodeRecord({ value: 'v', timestampDelta: 2 ** 40 })).toBeUndefined();
    expect(encodeRecord({ value: 'v', offsetDelta: -(2 ** 31) })).toBeUndefined();
    expect(encodeRecord({ value: 'v', timestampDelta: 1.5 })).toBeUndefined();
    expect(encodeRecord({ key: 42, value: 'v' })).toBeUndefined();
    expect(encodeRecord({ value: { text: 'v' } })).toBeUndefined();
    expect(encodeRecord({ value: 'v', headers: { a: undefined } })).toBeUndefined();
    expect(encodeRecord({ value: 'v', headers: { a: ['x', undefined] } as never })).toBeUndefined();
  });
});

describe('installRecordEncoder', () => {
  it('is for the kafkajs version the bytes were compared against', () => {
    expect((require('kafkajs/package.json') as { version: string }).version).toBe(SUPPORTED_KAFKAJS_VERSION);
  });

  it('makes kafkajs produce requests carry the same record batch bytes as before', async () => {
    expect(recordEncoderInstalled()).toBe(false);
    expect(installRecordEncoder()).toEqual({ installed: true });
    expect(recordEncoderInstalled()).toBe(true);
    expect(installRecordEncoder()).toEqual({ installed: true }); // idempotent

    const installed = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as Encode;
    expect(installed).not.toBe(kafkajsRecord);
    // Outside the fast path, the replacement hands the record to kafkajs' encoder.
    const far = { value: 'v', timestampDelta: 2 ** 40 };
    expect(installed(far).buffer.equals(kafkajsRecord(far).buffer)).toBe(true);

    const Long = require('kafkajs/src/utils/long.js') as { fromInt(n: number): unknown };
    const produce = require('kafkajs/src/protocol/requests/produce/v3/request.js') as (args: object) => {
      encode(): Promise<{ buffer: Buffer }>;
    };
    const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
      RecordBatch(args: object): Promise<{ buffer: Buffer }>;
    };
    const rnd = random(7);
    const first = 1_790_000_000_000;
    const messages = Array.from({ length: 300 }, (_, i) => ({
      key: `cust-${i % 17}`,
      value: bytes(rnd, 1_200),
      headers: { 'tenant-id': 'acme', 'x-enrich': text(rnd, 200), 'x-source': `{"offset":"${i}"}` },
      timestamp: first + i,
    }));
    const producerId = Long.fromInt(42);
    const request = produce({
      acks: -1,
      timeout: 30_000,
      transactionalId: 'group-topic-0',
      producerId,
      producerEpoch: 3,
      topicData: [{ topic: 'enriched', partitions: [{ partition: 0, firstSequence: 0, messages }] }],
    });
    const wire = (await request.encode()).buffer;
    const expected = await RecordBatch({
      records: messages.map((m, i) =>
        kafkajsRecord({ ...m, offsetDelta: i, timestampDelta: m.timestamp - first }),
      ),
      firstTimestamp: first,
      maxTimestamp: first + messages.length - 1,
      producerId,
      producerEpoch: 3,
      firstSequence: 0,
      transactional: true,
      lastOffsetDelta: messages.length - 1,
    });
    expect(wire.indexOf(expected.buffer)).toBeGreaterThan(0);
  });
});
