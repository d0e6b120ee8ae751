/**
 * One failure policy, read from the error: anything a step can throw is mapped here, once, to a
 * catalog code and so to its kind. Retry loops retry only `infrastructure`; `data` dead-letters the
 * record it was about; `bug` is never retried (dead-letter with PROCESSING_FAILED or stop, by
 * configuration).
 *
 * Sources, each by what it documents rather than by message text:
 * - our own errors carry their code (InfrastructureError, DataRejectedError);
 * - kafkajs errors by `name`, protocol `type` and `retriable` (Kafka's error codes);
 * - PostgreSQL (node-postgres and PGlite) by SQLSTATE: class 22 (data exception: a NUL byte, a value
 *   too long) and 54 (program limit: an index row too large) are the record's fault; connection,
 *   resource, lock and serialization classes are the database's; anything else is a bug;
 * - the schema registry by HTTP status (as RegistryCodec reports it: REGISTRY_UNAVAILABLE);
 * - Node's socket errors (ECONNREFUSED, ...) are infrastructure.
 */
import { DataRejectedError, InfrastructureError, kindOf, type ErrorCode, type ErrorKind } from './catalog.js';

export interface Classified {
  readonly code: ErrorCode;
  readonly kind: ErrorKind;
  readonly message: string;
}

/** Kafka protocol errors that mean "this record will never be accepted", not "try again". */
const RECORD_REJECTIONS = new Set([
  'MESSAGE_TOO_LARGE',
  'RECORD_LIST_TOO_LARGE',
  'INVALID_RECORD',
  'CORRUPT_MESSAGE',
  'INVALID_TIMESTAMP',
]);

/** A newer producer with our transactional id exists: this one can never commit again. */
const FENCING = new Set(['PRODUCER_FENCED', 'INVALID_PRODUCER_EPOCH', 'INVALID_PRODUCER_ID_MAPPING']);

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

export function classifyError(error: unknown): Classified {
  const message = messageOf(error);
  const code = codeOf(error);
  return { code, kind: kindOf(code), message };
}

function codeOf(error: unknown): ErrorCode {
  if (error instanceof InfrastructureError || error instanceof DataRejectedError) return error.code;
  const e = error as { name?: unknown; type?: unknown; code?: unknown; retriable?: unknown } | null;
  if (e === null || typeof e !== 'object') return 'PROCESSING_FAILED';
  const name = typeof e.name === 'string' ? e.name : '';
  if (name.startsWith('KafkaJS')) return kafkaCode(error as KafkaJsError);
  if (isPostgresError(e)) return postgresCode(e.code as string);
  if (typeof e.code === 'string' && SOCKET_CODES.has(e.code)) return 'KAFKA_UNAVAILABLE';
  return 'PROCESSING_FAILED';
}

interface KafkaJsError {
  readonly name: string;
  readonly type?: string;
  readonly retriable?: boolean;
  readonly cause?: unknown;
  readonly message: string;
}

function kafkaCode(error: KafkaJsError): ErrorCode {
  // kafkajs' retrier wraps what it gave up on (NumberOfRetriesExceeded) or refused to retry
  // (NonRetriableError) with the original as the cause: that says what happened.
  if (error.cause !== undefined && error.cause !== error) {
    const inner = codeOf(error.cause);
    if (!(inner === 'PROCESSING_FAILED' && error.name === 'KafkaJSNumberOfRetriesExceeded')) return inner;
    return 'KAFKA_UNAVAILABLE';
  }
  const type = error.type ?? '';
  if (FENCING.has(type)) return 'FENCED';
  if (RECORD_REJECTIONS.has(type)) return 'RECORD_REJECTED';
  if (error.name === 'KafkaJSProtocolError' || error.name === 'KafkaJSCreateTopicError') {
    // A non-retriable protocol error inside a transaction (INVALID_TXN_STATE, OUT_OF_ORDER_SEQUENCE
    // ...) is cured by a new producer; any other is the cluster refusing us for now.
    return error.retriable === false ? 'TRANSACTION_FAILED' : 'KAFKA_UNAVAILABLE';
  }
  // Malformed responses and kafkajs' internal invariants: a bug (kafkajs' or ours), not the cluster.
  if (error.name === 'KafkaJSInvariantViolation' || error.name === 'KafkaJSNotImplemented') {
    return 'PROCESSING_FAILED';
  }
  // kafkajs' own non-retriable errors without a cause: its transaction state machine after a failed
  // EndTxn ("Cannot call beginTransaction in state COMMITTING"), a producer disconnecting under us.
  // The producer is unusable; a new one recovers (src/kafka/transactional-sink.ts).
  if (error.name === 'KafkaJSNonRetriableError') return 'TRANSACTION_FAILED';
  // Connection, request timeout, metadata, broker-not-found, lock timeout, no broker available...
  return 'KAFKA_UNAVAILABLE';
}

/** node-postgres' DatabaseError and PGlite's errors carry a five-character SQLSTATE in `code`. */
function isPostgresError(e: { code?: unknown; name?: unknown }): boolean {
  return (
    typeof e.code === 'string' &&
    /^[0-9A-Z]{5}$/.test(e.code) &&
    (e.name === 'error' || e.name === 'DatabaseError' || 'severity' in (e as object))
  );
}

function postgresCode(sqlstate: string): ErrorCode {
  const cls = sqlstate.slice(0, 2);
  if (cls === '22' || cls === '54') return 'DATABASE_REJECTED';
  // 08 connection, 53 insufficient resources, 57 operator intervention (shutdown, statement
  // timeout), 58 system error, 40 serialization failure / deadlock, 55P03 lock not available.
  if (['08', '53', '57', '58', '40'].includes(cls) || sqlstate === '55P03') return 'DATABASE_UNAVAILABLE';
  return 'PROCESSING_FAILED';
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : String(error);
}
