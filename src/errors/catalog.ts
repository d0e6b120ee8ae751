/**
 * The error catalog: every failure the service reports has a stable code here, in one of three kinds.
 *
 * - `data`: the record itself is wrong. Returned as a value (never thrown), dead-lettered at once on
 *   Kafka, a 400 over HTTP; never retried, since retrying cannot fix it.
 * - `infrastructure`: something we depend on is unavailable (broker, registry, database). Thrown,
 *   retried with capped exponential backoff; a loop that keeps retrying past its bound reports it on
 *   `/readyz` and in `txenrich_retrying_since_seconds`, and gives up loudly when its budget runs out.
 * - `bug`: an error nobody expected (a TypeError, an unknown error from a library). Never retried:
 *   the record is dead-lettered with `PROCESSING_FAILED`, or the worker stops, as configured for the
 *   point where it happened (decode, process, produce).
 *
 * `classifyError` (classify.ts) maps anything thrown to one of these codes.
 */

export type ErrorKind = 'data' | 'infrastructure' | 'bug';

export const ERROR_CATALOG = {
  // Data errors: the record cannot be decoded, validated, stored or produced.
  EMPTY_VALUE: { kind: 'data', summary: 'the message has no value' },
  NOT_JSON: { kind: 'data', summary: 'the value is neither JSON nor Confluent-framed Avro' },
  BAD_MAGIC_BYTE: {
    kind: 'data',
    summary: 'the value starts with a byte that is neither 0 (Avro) nor { (JSON)',
  },
  INVALID_ENCODING: { kind: 'data', summary: 'the value is not valid UTF-8' },
  UNKNOWN_SCHEMA: { kind: 'data', summary: 'the Avro schema id is not in the registry' },
  AVRO_DECODE_FAILED: {
    kind: 'data',
    summary: 'the Avro payload does not decode with its schema (truncated, corrupt or over a size limit)',
  },
  INVALID_FIELD: { kind: 'data', summary: 'a field is missing, of the wrong type or out of range' },
  INVALID_HEADER: { kind: 'data', summary: 'a Kafka header (such as tenant-id) breaks its rule' },
  EMPTY_ENVELOPE: { kind: 'data', summary: 'the transactions array is empty' },
  RECORD_TOO_LARGE: {
    kind: 'data',
    summary: 'the enriched record would exceed the output topic’s maximum message size',
  },
  RECORD_REJECTED: { kind: 'data', summary: 'the broker refused to store the record produced from it' },
  DATABASE_REJECTED: {
    kind: 'data',
    summary: 'the brand store refused a value of the record (PostgreSQL data exception or size limit)',
  },
  INVALID_CORRECTION: {
    kind: 'data',
    summary: 'a feedback correction is missing or contradicts required fields',
  },
  UNKNOWN_BRAND: { kind: 'data', summary: 'a feedback correction names a brand id the brand store lacks' },
  UNKNOWN_SUB_CATEGORY: {
    kind: 'data',
    summary: 'a feedback correction names a category or sub-category the taxonomy lacks',
  },
  UNKNOWN_TRANSACTION: {
    kind: 'data',
    summary: 'a feedback correction names a transaction the index of enriched transactions lacks',
  },
  TENANT_MISMATCH: {
    kind: 'data',
    summary: 'a feedback correction names a tenant other than its record’s tenant-id header',
  },
  NOT_TRANSACTION_OWNER: {
    kind: 'data',
    summary: 'a feedback correction’s customer is not the customer of the transaction it corrects',
  },
  CORRECTION_ID_REUSED: {
    kind: 'data',
    summary:
      'a correction_id the tenant already used, with different content (a new correction needs a new id)',
  },
  // Infrastructure errors: retried, never dead-lettered.
  KAFKA_UNAVAILABLE: { kind: 'infrastructure', summary: 'the Kafka cluster did not answer' },
  REGISTRY_UNAVAILABLE: { kind: 'infrastructure', summary: 'the schema registry did not answer' },
  DATABASE_UNAVAILABLE: { kind: 'infrastructure', summary: 'the brand store database did not answer' },
  TRANSACTION_FAILED: { kind: 'infrastructure', summary: 'a Kafka transaction could not be committed' },
  FENCED: { kind: 'infrastructure', summary: 'a newer instance took over this partition (zombie fenced)' },
  RETRIES_EXHAUSTED: {
    kind: 'infrastructure',
    summary: 'a dependency stayed unavailable past the retry budget',
  },
  // Bugs: neither the record nor a dependency is to blame.
  PROCESSING_FAILED: { kind: 'bug', summary: 'an unexpected error (a bug); see the message and the log' },
  EVENT_LOOP_BLOCKED: {
    kind: 'bug',
    summary:
      'the worker’s event loop stayed blocked past EVENT_LOOP_STALL_MS; the process was ended (the log names where it was)',
  },
} as const satisfies Record<string, { kind: ErrorKind; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
type CodeOfKind<Kind extends ErrorKind> = {
  [K in ErrorCode]: (typeof ERROR_CATALOG)[K]['kind'] extends Kind ? K : never;
}[ErrorCode];
export type DataErrorCode = CodeOfKind<'data'>;
export type InfraErrorCode = CodeOfKind<'infrastructure'>;
/** What a record's dead letter can carry: a data error, or the bug that stopped its processing. */
export type DeadLetterCode = DataErrorCode | 'PROCESSING_FAILED';

export function kindOf(code: ErrorCode): ErrorKind {
  return ERROR_CATALOG[code].kind;
}

/** A bad record: which field, what was wrong. A value, not an exception. */
export interface DataError {
  readonly code: DataErrorCode;
  /** Dotted field path (`location.iso_country_cd`), or '' when the record as a whole is bad. */
  readonly field: string;
  readonly message: string;
}

export function dataError(code: DataErrorCode, field: string, message: string): DataError {
  return { code, field, message };
}

/** An unavailable dependency. Thrown; the caller retries. */
export class InfrastructureError extends Error {
  readonly kind = 'infrastructure' as const;

  constructor(
    readonly code: InfraErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
    this.name = 'InfrastructureError';
  }
}

/**
 * A data error that surfaced as an exception from a dependency (a value PostgreSQL refused, a record
 * the broker rejected). The caller dead-letters the record it was working on; never retried.
 */
export class DataRejectedError extends Error {
  readonly kind = 'data' as const;

  constructor(
    readonly code: DataErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`${code}: ${message}`, options);
    this.name = 'DataRejectedError';
  }
}
