import { createRequire } from 'node:module';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { DataRejectedError, InfrastructureError } from '../../../src/errors/catalog.js';
import { classifyError } from '../../../src/errors/classify.js';

// The real kafkajs classes, as kafkajs constructs them (its typings omit some and some arguments).
type ErrorClass = new (e: unknown, options?: object) => Error;
const load = createRequire(import.meta.url);
const {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  KafkaJSRequestTimeoutError,
  KafkaJSInvariantViolation,
} = load('kafkajs') as Record<
  | 'KafkaJSConnectionError'
  | 'KafkaJSNonRetriableError'
  | 'KafkaJSNumberOfRetriesExceeded'
  | 'KafkaJSProtocolError'
  | 'KafkaJSRequestTimeoutError'
  | 'KafkaJSInvariantViolation',
  ErrorClass
>;
// kafkajs builds protocol errors from Kafka's numeric error codes; use its own table.
const { createErrorFromCode } = load('kafkajs/src/protocol/error.js') as {
  createErrorFromCode: (code: number) => Error & { type: string; retriable: boolean };
};
const protocol = (code: number) => new KafkaJSProtocolError(createErrorFromCode(code));

function pgError(sqlstate: string): Error {
  const e = new pg.DatabaseError('boom', 0, 'error');
  e.code = sqlstate;
  e.severity = 'ERROR';
  return e;
}

describe('classifyError', () => {
  it.each([
    ['MESSAGE_TOO_LARGE (10)', protocol(10), 'RECORD_REJECTED', 'data'],
    ['RECORD_LIST_TOO_LARGE (18)', protocol(18), 'RECORD_REJECTED', 'data'],
    ['INVALID_RECORD (87)', protocol(87), 'RECORD_REJECTED', 'data'],
    ['NOT_LEADER_OR_FOLLOWER (6)', protocol(6), 'KAFKA_UNAVAILABLE', 'infrastructure'],
    ['NOT_ENOUGH_REPLICAS (19)', protocol(19), 'KAFKA_UNAVAILABLE', 'infrastructure'],
    ['COORDINATOR_NOT_AVAILABLE (15)', protocol(15), 'KAFKA_UNAVAILABLE', 'infrastructure'],
    ['CONCURRENT_TRANSACTIONS (51)', protocol(51), 'KAFKA_UNAVAILABLE', 'infrastructure'],
    ['INVALID_PRODUCER_EPOCH (47)', protocol(47), 'FENCED', 'infrastructure'],
    // kafkajs 2.2.4 predates PRODUCER_FENCED (90) and reports it as an unknown code: a new producer
    // is the cure for both.
    ['an error code kafkajs does not know (90)', protocol(90), 'TRANSACTION_FAILED', 'infrastructure'],
    ['INVALID_TXN_STATE (48)', protocol(48), 'TRANSACTION_FAILED', 'infrastructure'],
    ['OUT_OF_ORDER_SEQUENCE_NUMBER (45)', protocol(45), 'TRANSACTION_FAILED', 'infrastructure'],
  ] as const)('kafkajs protocol error %s → %s', (_, error, code, kind) => {
    expect(classifyError(error)).toMatchObject({ code, kind });
  });

  it('reads the cause kafkajs wraps after its own retries', () => {
    const timeout = new KafkaJSRequestTimeoutError('Request Produce(key: 0, version: 3) timed out');
    const exhausted = new KafkaJSNumberOfRetriesExceeded(timeout, { retryCount: 5, retryTime: 100 });
    expect(classifyError(exhausted).code).toBe('KAFKA_UNAVAILABLE');
    const rejected = new KafkaJSNonRetriableError(protocol(10), { cause: protocol(10) });
    expect(classifyError(rejected).code).toBe('RECORD_REJECTED');
  });

  it('a TypeError kafkajs refused to retry stays a bug', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'length')");
    expect(classifyError(new KafkaJSNonRetriableError(bug, { cause: bug }))).toMatchObject({
      code: 'PROCESSING_FAILED',
      kind: 'bug',
    });
  });

  it("kafkajs' transaction state machine after a failed EndTxn is cured by a new producer", () => {
    const stuck = new KafkaJSNonRetriableError(
      'Transaction state exception: Cannot call "beginTransaction" in state "COMMITTING"',
    );
    expect(classifyError(stuck)).toMatchObject({ code: 'TRANSACTION_FAILED', kind: 'infrastructure' });
  });

  it('connection errors are the cluster, invariant violations a bug', () => {
    expect(classifyError(new KafkaJSConnectionError('Connection error: ECONNREFUSED')).code).toBe(
      'KAFKA_UNAVAILABLE',
    );
    expect(classifyError(new KafkaJSInvariantViolation('bad response')).kind).toBe('bug');
  });

  it.each([
    ['22021', 'invalid byte sequence (a NUL byte)', 'DATABASE_REJECTED', 'data'],
    ['22001', 'string data right truncation', 'DATABASE_REJECTED', 'data'],
    ['54000', 'index row size exceeds maximum', 'DATABASE_REJECTED', 'data'],
    ['08006', 'connection failure', 'DATABASE_UNAVAILABLE', 'infrastructure'],
    ['57P01', 'admin shutdown', 'DATABASE_UNAVAILABLE', 'infrastructure'],
    ['53300', 'too many connections', 'DATABASE_UNAVAILABLE', 'infrastructure'],
    ['40P01', 'deadlock detected', 'DATABASE_UNAVAILABLE', 'infrastructure'],
    ['42703', 'undefined column', 'PROCESSING_FAILED', 'bug'],
    ['23505', 'unique violation nobody handled', 'PROCESSING_FAILED', 'bug'],
  ] as const)('PostgreSQL SQLSTATE %s (%s) → %s', (sqlstate, _, code, kind) => {
    expect(classifyError(pgError(sqlstate))).toMatchObject({ code, kind });
  });

  it('our own errors keep their code; sockets are infrastructure; anything else is a bug', () => {
    expect(classifyError(new InfrastructureError('REGISTRY_UNAVAILABLE', 'down')).code).toBe(
      'REGISTRY_UNAVAILABLE',
    );
    expect(classifyError(new DataRejectedError('RECORD_TOO_LARGE', 'big')).kind).toBe('data');
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(classifyError(refused).kind).toBe('infrastructure');
    expect(classifyError(new RangeError('Invalid array length'))).toMatchObject({
      code: 'PROCESSING_FAILED',
      kind: 'bug',
    });
    expect(classifyError('a string').kind).toBe('bug');
    expect(classifyError(undefined).kind).toBe('bug');
  });
});
