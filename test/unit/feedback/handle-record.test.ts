import { describe, expect, it } from 'vitest';
import { DataRejectedError, InfrastructureError } from '../../../src/errors/catalog.js';
import { RetryBoard } from '../../../src/errors/retry.js';
import { handleFeedbackRecord, type RecordHandlerOptions } from '../../../src/feedback/handle-record.js';
import type { ChangeTx } from '../../../src/store/change-store.js';
import {
  correction,
  indexed,
  setup,
  SHOP,
  silentLog,
  source,
  spinneys,
} from '../../fakes/feedback-fixtures.js';

const good = correction({ transaction_id: 'a-1', customer_id: 'alice', brand_id: spinneys.id });
const record = (offset: number, value: unknown = good) =>
  source(offset, { value: Buffer.from(JSON.stringify(value)), headers: { 'tenant-id': 'bank-a' } });
const noAvro = { decode: () => Promise.reject(new Error('no Avro in this test')) };

function env(failOn: ((method: keyof ChangeTx) => void) | null = null) {
  const { store, ctx } = setup([indexed('bank-a', 'a-1', 'alice', `POS ${SHOP}`)]);
  store.failOn = failOn;
  const board = new RetryBoard();
  let stopping = false;
  const options: RecordHandlerOptions = {
    apply: ctx,
    codec: noAvro,
    defaultTenant: 'default',
    log: silentLog,
    board,
    retryMaxDelayMs: 5,
    retryInitialDelayMs: 1,
    shouldStop: () => stopping,
  };
  return { store, board, options, stop: () => (stopping = true) };
}

describe('the feedback consumer’s failure policy', () => {
  it('retries an unavailable database, reports the loop on the board meanwhile, then applies', async () => {
    let failures = 3;
    const seen: (string | null)[] = [];
    const { options, board } = env((method) => {
      if (method === 'findCorrection' && failures-- > 0) {
        seen.push(board.longest()?.loop ?? null);
        throw new InfrastructureError('DATABASE_UNAVAILABLE', 'connection refused');
      }
    });
    expect(await handleFeedbackRecord(options, record(1))).toMatchObject({ status: 'applied' });
    expect(seen).toEqual([null, 'feedback-consumer', 'feedback-consumer']);
    expect(board.longest()).toBeNull();
  });

  it('dead-letters a value PostgreSQL refuses, once, with its catalog code (H2)', async () => {
    const { options, store } = env((method) => {
      if (method === 'upsertMapping')
        throw new DataRejectedError('DATABASE_REJECTED', 'invalid byte sequence for encoding "UTF8": 0x00');
    });
    const outcome = await handleFeedbackRecord(options, record(2));
    expect(outcome).toMatchObject({
      status: 'rejected',
      correctionId: 'c-1',
      error: { code: 'DATABASE_REJECTED' },
    });
    expect(store.outbox.map((m) => m.headers['x-dlq-error-code'])).toEqual(['DATABASE_REJECTED']);
    // Read again (a replay): a duplicate, not a second dead letter, not a retry.
    expect(await handleFeedbackRecord(options, record(2))).toMatchObject({ status: 'duplicate' });
    expect(store.outbox).toHaveLength(1);
  });

  it('dead-letters a bug with PROCESSING_FAILED and moves on', async () => {
    let calls = 0;
    const { options, store } = env((method) => {
      if (method === 'view' && calls++ === 0)
        throw new TypeError("Cannot read properties of undefined (reading 'id')");
    });
    expect(await handleFeedbackRecord(options, record(3))).toMatchObject({
      status: 'rejected',
      error: { code: 'PROCESSING_FAILED' },
    });
    expect(store.outbox.map((m) => m.headers['x-dlq-error-code'])).toEqual(['PROCESSING_FAILED']);
  });

  it('falls back to a letter without the original headers when the first dead letter fails, then skips', async () => {
    let audits = 0;
    const { options, store } = env((method) => {
      if (method === 'upsertMapping') throw new DataRejectedError('DATABASE_REJECTED', 'value too long');
      if (method === 'audit' && audits++ === 0)
        throw new DataRejectedError('DATABASE_REJECTED', 'untranslatable character');
    });
    const outcome = await handleFeedbackRecord(options, record(4));
    expect(outcome).toMatchObject({ status: 'rejected', correctionId: 'feedback:0:4' });
    expect(store.outbox[0]?.headers['tenant-id']).toBeUndefined();

    const hopeless = env((method) => {
      if (method === 'audit' || method === 'upsertMapping')
        throw new DataRejectedError('DATABASE_REJECTED', 'no');
    });
    expect(await handleFeedbackRecord(hopeless.options, record(5))).toBeNull();
  });

  it('dead-letters what cannot be decoded, keyed by offset', async () => {
    const { options, store } = env();
    const outcome = await handleFeedbackRecord(options, {
      ...record(6),
      value: Buffer.from([0x7b, 0xff, 0xfe]),
    });
    expect(outcome).toMatchObject({
      status: 'rejected',
      correctionId: 'feedback:0:6',
      error: { code: 'INVALID_ENCODING' },
    });
    expect(store.outbox).toHaveLength(1);
  });

  it('gives up retrying on shutdown and leaves the record unhandled', async () => {
    const { options, stop } = env((method) => {
      if (method === 'findCorrection') {
        stop();
        throw new InfrastructureError('DATABASE_UNAVAILABLE', 'connection refused');
      }
    });
    await expect(handleFeedbackRecord(options, record(7))).rejects.toThrow(/DATABASE_UNAVAILABLE/);
  });
});
