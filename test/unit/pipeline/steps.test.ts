/**
 * A micro-batch through decode → validate → enrich → index → encode, with the fakes: one outcome per
 * transaction (an enriched record keyed by customer_id with its headers, or a dead letter with the
 * original bytes and the reason), history read before enriching, the index written before encoding.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { HEADER, headerText } from '../../../src/kafka/headers.js';
import {
  dataBug,
  processMicroBatch,
  produceRequests,
  StopWorker,
  type StepContext,
} from '../../../src/pipeline/steps.js';
import { jsonMessages, kafkaMessage, rawTransaction } from '../../fakes/messages.js';
import { fakeStepContext } from '../../fakes/step-context.js';

let snapshot: Snapshot;
beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

function setup(overrides: Partial<StepContext> = {}) {
  const { ctx, codec, store } = fakeStepContext(snapshot);
  return {
    ctx: { ...ctx, partition: 1, logoBaseUrl: 'https://enrich.example.com', ...overrides },
    codec,
    store,
  };
}

type Out = Record<string, unknown>;

describe('processMicroBatch', () => {
  it('enriches a valid transaction into a v3 record keyed by customer_id, with its headers', async () => {
    const { ctx, codec } = setup();
    const t = rawTransaction({ transaction_id: 't-1', customer_id: 'c-9', ref_id: 'r-1' });
    const output = await processMicroBatch(jsonMessages([t], 40), ctx);
    expect(output.deadLetters).toEqual([]);
    expect(output.enriched).toHaveLength(1);
    const record = output.enriched[0]!;
    expect(String(record.key)).toBe('c-9');
    const value = codec.decode(record.value as Buffer) as Out;
    expect(value).toMatchObject({
      transaction_id: 't-1',
      customer_id: 'c-9',
      ref_id: 'r-1',
      revision: 1,
      enriched_at: 1_700_000_000_000,
      brand_name: 'Carrefour',
      category_name: 'Groceries & Markets',
    });
    expect(headerText(record.headers, HEADER.tenant)).toBe('default');
    expect(headerText(record.headers, HEADER.source)).toContain('raw');
    expect(headerText(record.headers, HEADER.source)).toContain('40');
  });

  it('dead-letters what cannot be decoded or validated, keeping the original bytes, and enriches the rest', async () => {
    const { ctx } = setup();
    const bad = kafkaMessage('{"transaction_id": ', { offset: 5 });
    const invalid = kafkaMessage(JSON.stringify(rawTransaction({ amount: 'ten' })), { offset: 6 });
    const good = jsonMessages([rawTransaction({ transaction_id: 'ok' })], 7);
    const output = await processMicroBatch([bad, invalid, ...good], ctx);
    expect(output.enriched).toHaveLength(1);
    expect(output.deadLetterCodes).toEqual(['NOT_JSON', 'INVALID_FIELD']);
    expect(output.deadLetters[0]!.value).toEqual(bad.value);
    expect(output.deadLetters[1]!.value).toEqual(invalid.value);
  });

  it('writes every enriched transaction to the index before encoding (the history of later batches)', async () => {
    const { ctx, store } = setup();
    const ts = [0, 1, 2].map((i) => rawTransaction({ transaction_id: `t-${i}` }));
    await processMicroBatch(jsonMessages(ts), ctx);
    expect([...store.indexed.keys()].sort()).toEqual(['default:t-0', 'default:t-1', 'default:t-2']);
  });

  it('does not touch the index when nothing in the batch is valid', async () => {
    const { ctx, store } = setup();
    let calls = 0;
    store.onIndex = () => calls++;
    const output = await processMicroBatch([kafkaMessage('nope')], ctx);
    expect(output.deadLetterCodes).toEqual(['NOT_JSON']);
    expect(calls).toBe(0);
  });

  it('propagates an index failure (the caller retries or isolates), producing nothing', async () => {
    const { ctx, store } = setup();
    store.onIndex = () => {
      throw new Error('connection terminated');
    };
    await expect(processMicroBatch(jsonMessages([rawTransaction()]), ctx)).rejects.toThrow(
      'connection terminated',
    );
  });

  it('dead-letters a record whose enriched form would exceed the output topic limit (RECORD_TOO_LARGE)', async () => {
    const { ctx } = setup({ outputMaxBytes: 200 });
    const output = await processMicroBatch(jsonMessages([rawTransaction()]), ctx);
    expect(output.enriched).toEqual([]);
    expect(output.deadLetterCodes).toEqual(['RECORD_TOO_LARGE']);
  });

  it('stops the worker on a decoding bug when ON_BUG_DECODE=stop, and dead-letters it by default', async () => {
    const message = kafkaMessage('{}', { offset: 3 });
    const throwing = {
      decodeCached: () => {
        throw new TypeError('boom');
      },
    };
    const avro = Buffer.from([0, 0, 0, 0, 9, 1]);
    const stopping = setup({ onDecodeBug: 'stop' });
    const codecStop = Object.assign(stopping.codec, throwing);
    const avroMessage = kafkaMessage(avro, { offset: 3 });
    await expect(
      processMicroBatch([avroMessage], { ...stopping.ctx, codec: codecStop }),
    ).rejects.toBeInstanceOf(StopWorker);
    const lenient = setup();
    const codecLenient = Object.assign(lenient.codec, throwing);
    const output = await processMicroBatch([avroMessage, message], { ...lenient.ctx, codec: codecLenient });
    expect(output.deadLetterCodes[0]).toBe('PROCESSING_FAILED');
  });
});

describe('produceRequests', () => {
  it('puts output and dead letters in one request when small', async () => {
    const { ctx } = setup();
    const output = await processMicroBatch(
      [kafkaMessage('x'), ...jsonMessages([rawTransaction(), rawTransaction()])],
      ctx,
    );
    const requests = produceRequests(output, ctx);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.map((r) => [r.topic, r.messages.length])).toEqual([
      ['out', 2],
      ['dlq', 1],
    ]);
  });

  it('splits a large micro-batch into several requests, keeping every record once and in order', () => {
    const big = Buffer.alloc(100_000);
    const enriched = Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, value: big }));
    const requests = produceRequests({ enriched, deadLetters: [], deadLetterCodes: [] }, setup().ctx);
    expect(requests.length).toBeGreaterThan(1);
    const keys = requests.flatMap((r) => r.flatMap((t) => t.messages.map((m) => m.key)));
    expect(keys).toEqual(enriched.map((m) => m.key));
  });
});

describe('dataBug', () => {
  it('turns anything thrown into a PROCESSING_FAILED reason', () => {
    expect(dataBug(new Error('x'))).toEqual({ code: 'PROCESSING_FAILED', field: '', message: 'x' });
    expect(dataBug('y').message).toBe('y');
  });
});
