/**
 * The error catalog: every failure the service reports has a stable code here, in one of two kinds.
 *
 * - `data`: the record itself is wrong. Returned as a value (never thrown), dead-lettered at once on
 *   Kafka, a 400 over HTTP; never retried, since retrying cannot fix it.
 * - `infrastructure`: something we depend on is unavailable (broker, registry, database). Thrown,
 *   retried with capped exponential backoff, and fatal only when retries run out.
 */

export type ErrorKind = 'data' | 'infrastructure';

export const ERROR_CATALOG = {
  // Data errors: the record cannot be decoded or validated.
  EMPTY_VALUE: { kind: 'data', summary: 'the message has no value' },
  NOT_JSON: { kind: 'data', summary: 'the value is neither JSON nor Confluent-framed Avro' },
  BAD_MAGIC_BYTE: {
    kind: 'data',
    summary: 'the value starts with a byte that is neither 0 (Avro) nor { (JSON)',
  },
  UNKNOWN_SCHEMA: { kind: 'data', summary: 'the Avro schema id is not in the registry' },
  AVRO_DECODE_FAILED: {
    kind: 'data',
    summary: 'the Avro payload does not decode with its schema (truncated or corrupt)',
  },
  INVALID_FIELD: { kind: 'data', summary: 'a field is missing, of the wrong type or out of range' },
  EMPTY_ENVELOPE: { kind: 'data', summary: 'the transactions array is empty' },
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
} as const satisfies Record<string, { kind: ErrorKind; summary: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;
export type DataErrorCode = {
  [K in ErrorCode]: (typeof ERROR_CATALOG)[K]['kind'] extends 'data' ? K : never;
}[ErrorCode];
export type InfraErrorCode = Exclude<ErrorCode, DataErrorCode>;

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
