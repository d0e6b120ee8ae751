/**
 * API errors: one class carrying the HTTP status, a stable code, a message and the list of problems
 * (each naming its item index and field), and the two envelopes it is sent in:
 *
 * - v3: `{"success": false, "message": "...", "errors": [...]}` (the success envelope's shape);
 * - v2: `{"error": {"code": "...", "message": "...", "errors": [...]}}`.
 */
import type { ApiVersion } from './credentials.js';
import type { ErrorItem, V2ErrorBody, V3ErrorBody } from './schemas.js';

export const API_ERROR_CODES = {
  // 400
  INVALID_RESPONSE_TYPE: 'response-type is missing or is not consumer',
  NOT_JSON: 'the body is empty or is not valid JSON',
  INVALID_ENCODING: 'the body is not valid UTF-8 (never decoded with replacement characters)',
  MALFORMED_REQUEST: 'the request is not valid HTTP/1.1 (refused before routing)',
  INVALID_BODY: 'the body is not a JSON object with a transactions array',
  INVALID_FIELD: 'a field of a transaction is missing, of the wrong type or out of range',
  EMPTY_ENVELOPE: 'the transactions array is empty',
  INVALID_BRAND_ID: 'GET /logos/{brand_id}: the brand id is not a positive integer',
  INVALID_LANG: 'GET /logos/{brand_id}: lang is neither ar nor en',
  // 401
  MISSING_CREDENTIAL: 'no credential in the header this version takes',
  INVALID_CREDENTIAL: 'the credential is malformed, unknown or revoked',
  WRONG_CREDENTIAL_HEADER: "the other version's credential or header was sent",
  // 404, 405
  NOT_FOUND: 'no such route',
  BRAND_NOT_FOUND: 'GET /logos/{brand_id}: no brand has that id',
  METHOD_NOT_ALLOWED: 'the enrichment routes take POST only',
  // 408
  REQUEST_TIMEOUT: 'the whole request did not arrive within the request timeout',
  // 413
  BODY_TOO_LARGE: "the body is larger than the tenant's max_body_bytes",
  BATCH_TOO_LARGE: "the request has more transactions than the tenant's max_batch",
  // 415
  UNSUPPORTED_MEDIA_TYPE: 'the Content-Type is not JSON (v2: it must be application/json) or not UTF-8',
  // 431
  HEADERS_TOO_LARGE: "the request line and headers exceed Node's limit (16 KiB)",
  // 429
  RATE_LIMITED: "the tenant's rate_limit_per_minute is used up",
  // 500, 503
  INTERNAL_ERROR: 'an unexpected error (logged on the server)',
  STORE_UNAVAILABLE: 'the brand store is unavailable; the service is not ready',
} as const;

export type ApiErrorCode = keyof typeof API_ERROR_CODES;

export class ApiError extends Error {
  /** fastify reads `statusCode` from errors thrown in hooks and parsers. */
  readonly statusCode: number;
  readonly errors: readonly ErrorItem[];
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    statusCode: number,
    readonly code: ApiErrorCode,
    message: string,
    options: { errors?: readonly ErrorItem[]; field?: string; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errors = options.errors ?? [{ code, index: null, field: options.field ?? '', message }];
    this.headers = options.headers ?? {};
  }
}

export function v3ErrorBody(error: ApiError): V3ErrorBody {
  return { success: false, message: error.message, errors: [...error.errors] };
}

export function v2ErrorBody(error: ApiError): V2ErrorBody {
  return { error: { code: error.code, message: error.message, errors: [...error.errors] } };
}

export function errorBody(version: ApiVersion, error: ApiError): V3ErrorBody | V2ErrorBody {
  return version === 'v3' ? v3ErrorBody(error) : v2ErrorBody(error);
}
