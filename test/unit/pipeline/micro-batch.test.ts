/**
 * A micro-batch from its messages to its commit, with the fakes: every message ends in exactly one
 * outcome, and a record a dependency refuses (or a bug fails on) is dead-lettered alone while the
 * others are committed in order.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../src/data/load.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import { DataRejectedError, InfrastructureError } from '../../../src/errors/catalog.js';
import { headerText } from '../../../src/kafka/headers.js';
import { commitMicroBatch, type MicroBatchContext } from '../../../src/pipeline/micro-batch.js';
import { StopWorker } from '../../../src/pipeline/steps.js';
import { jsonMessages, kafkaMessage, rawTransaction } from '../../fakes/messages.js';
import { RecordingSink } from '../../fakes/recording-sink.js';
import { fakeStepContext } from '../../fakes/step-context.js';

let snapshot: Snapshot;
beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

function setup(overrides: Partial<MicroBatchContext> = {}) {
  const { ctx: steps, codec, store } = fakeStepContext(snapshot);
  const sink = new RecordingSink();
  const ctx: MicroBatchContext = {
    ...steps,
    onProcessBug: 'dead-letter',
    onProduceBug: 'dead-letter',
    sink,
    ...overrides,
  };
  return { ctx, sink, store, codec };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => rawTransaction({ transaction_id: `t-${i}` }));

describe('commitMicroBatch', () => {
  it('commits every valid record and every dead letter in one transaction, with the offset after the batch', async () => {
    const { ctx, sink, codec } = setup();
    const messages = [...jsonMessages(ids(3)), kafkaMessage('not json', { offset: 3 })];
    const committed = await commitMicroBatch(messages, ctx);
    expect(committed).toEqual({ enriched: 3, deadLetterCodes: ['NOT_JSON'], transactions: 1 });
    expect(sink.commits).toHaveLength(1);
    expect(sink.commits[0]?.nextOffset).toBe(4n);
    const out = sink
      .recordsOf('out')
      .map((m) => codec.decode(m.value as Buffer) as { transaction_id: string });
    expect(out.map((r) => r.transaction_id)).toEqual(['t-0', 't-1', 't-2']);
  });

  it('commits up to the fetched batch end when given (past trailing control records)', async () => {
    const { ctx, sink } = setup();
    await commitMicroBatch(jsonMessages(ids(2)), ctx, 9n);
    expect(sink.commits[0]?.nextOffset).toBe(9n);
  });

  it('dead-letters alone the record the database refuses (DATABASE_REJECTED); the rest are enriched in order', async () => {
    const { ctx, sink, store } = setup();
    store.onIndex = (items) => {
      if (items.some((i) => i.transaction.transaction_id === 't-5'))
        throw new DataRejectedError('DATABASE_REJECTED', 'invalid byte sequence for encoding "UTF8": 0x00');
    };
    const committed = await commitMicroBatch(jsonMessages(ids(8)), ctx);
    expect(committed.enriched).toBe(7);
    expect(committed.deadLetterCodes).toEqual(['DATABASE_REJECTED']);
    const dead = sink.recordsOf('dlq');
    expect(dead).toHaveLength(1);
    expect(headerText(dead[0]?.headers, 'x-source-offset')).toBe('5');
    expect(headerText(dead[0]?.headers, 'x-dlq-error-code')).toBe('DATABASE_REJECTED');
    // Offsets only ever move forward: each part of the split commits after the one before it.
    const offsets = sink.commits.map((c) => c.nextOffset);
    expect([...offsets].sort((a, b) => Number(a - b))).toEqual(offsets);
    expect(offsets.at(-1)).toBe(8n);
  });

  it('dead-letters alone a record the broker refuses (RECORD_REJECTED)', async () => {
    const { ctx, sink } = setup();
    const protocolError = Object.assign(new Error('Message too large'), {
      name: 'KafkaJSProtocolError',
      type: 'MESSAGE_TOO_LARGE',
      retriable: false,
    });
    sink.failWith = (records) =>
      (records.out ?? []).some((m) => m.key === 'c-bad') ? protocolError : undefined;
    const transactions = ids(5);
    (transactions[2] as Record<string, unknown>).customer_id = 'c-bad';
    const committed = await commitMicroBatch(jsonMessages(transactions), ctx);
    expect(committed.enriched).toBe(4);
    expect(committed.deadLetterCodes).toEqual(['RECORD_REJECTED']);
  });

  it('a bug in a step dead-letters the record it failed on with PROCESSING_FAILED', async () => {
    const { ctx, store } = setup();
    store.onIndex = (items) => {
      if (items.some((i) => i.transaction.transaction_id === 't-0'))
        throw new TypeError('x is not a function');
    };
    const committed = await commitMicroBatch(jsonMessages(ids(3)), ctx);
    expect(committed).toMatchObject({ enriched: 2, deadLetterCodes: ['PROCESSING_FAILED'] });
  });

  it('with ON_BUG_PROCESS=stop a bug stops the worker instead', async () => {
    const { ctx, store } = setup({ onProcessBug: 'stop' });
    store.onIndex = () => {
      throw new TypeError('x is not a function');
    };
    await expect(commitMicroBatch(jsonMessages(ids(2)), ctx)).rejects.toBeInstanceOf(StopWorker);
  });

  it('an infrastructure failure is thrown to the caller to retry, and nothing is committed', async () => {
    const { ctx, sink, store } = setup();
    store.onIndex = () => {
      throw new InfrastructureError('DATABASE_UNAVAILABLE', 'connection refused');
    };
    await expect(commitMicroBatch(jsonMessages(ids(4)), ctx)).rejects.toMatchObject({
      code: 'DATABASE_UNAVAILABLE',
    });
    expect(sink.commits).toEqual([]);
  });

  it('stops rather than lose a record when the dead-letter topic refuses its dead letter', async () => {
    const { ctx, sink } = setup();
    sink.failWith = () =>
      Object.assign(new Error('invalid record'), {
        name: 'KafkaJSProtocolError',
        type: 'INVALID_RECORD',
        retriable: false,
      });
    await expect(commitMicroBatch(jsonMessages(ids(1)), ctx)).rejects.toBeInstanceOf(StopWorker);
  });

  it('an enriched record over the output limit becomes a RECORD_TOO_LARGE dead letter', async () => {
    const { ctx, sink } = setup({ outputMaxBytes: 300 });
    const committed = await commitMicroBatch(jsonMessages(ids(2)), ctx);
    expect(committed).toMatchObject({
      enriched: 0,
      deadLetterCodes: ['RECORD_TOO_LARGE', 'RECORD_TOO_LARGE'],
    });
    expect(sink.recordsOf('dlq')).toHaveLength(2);
  });

  it('a dead letter over the dead-letter limit is cut to fit and says so', async () => {
    const { ctx, sink } = setup({ dlqMaxBytes: 64 * 1024 });
    const huge = kafkaMessage(`{"x": "${'a'.repeat(200_000)}"`, { offset: 0 });
    await commitMicroBatch([huge], ctx);
    const [dead] = sink.recordsOf('dlq');
    expect((dead?.value as Buffer).length).toBeLessThan(64 * 1024);
    expect(headerText(dead?.headers, 'x-dlq-value-truncated')).toBe(String(200_008));
    expect(headerText(dead?.headers, 'x-dlq-error-code')).toBe('NOT_JSON');
  });
});
