/**
 * The checks an enrichment request passes before its body is parsed — the `response-type` query
 * parameter, the Content-Type and the declared Content-Length — plus the byte counter that enforces
 * the tenant's body limit on bodies sent without a length, and the JSON body parser.
 */
import { Transform, type TransformCallback } from 'node:stream';
import { decodeUtf8 } from '../contract/utf8.js';
import type { ApiVersion } from './credentials.js';
import { ApiError } from './errors.js';

export const RESPONSE_TYPES = ['consumer'] as const;

/** `response-type` must be given once and be `consumer`. */
export function checkResponseType(query: unknown): void {
  const value =
    query !== null && typeof query === 'object'
      ? (query as Record<string, unknown>)['response-type']
      : undefined;
  if (value === undefined || value === '') {
    throw new ApiError(
      400,
      'INVALID_RESPONSE_TYPE',
      'the query parameter response-type is required; the only supported value is consumer',
      {
        field: 'response-type',
      },
    );
  }
  if (Array.isArray(value)) {
    throw new ApiError(400, 'INVALID_RESPONSE_TYPE', 'the query parameter response-type must be given once', {
      field: 'response-type',
    });
  }
  if (!(RESPONSE_TYPES as readonly unknown[]).includes(value)) {
    throw new ApiError(
      400,
      'INVALID_RESPONSE_TYPE',
      `unsupported response-type ${JSON.stringify(String(value).slice(0, 40))}; the only supported value is consumer`,
      { field: 'response-type' },
    );
  }
}

/** The media type of a Content-Type header, lowercased, and its charset parameter if any. */
export function parseContentType(header: string): { mediaType: string; charset: string | null } {
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const [name, value] = param.split('=', 2).map((part) => part.trim().toLowerCase());
    if (name === 'charset' && value !== undefined) charset = value.replace(/^"(.*)"$/, '$1');
  }
  return { mediaType: type.trim().toLowerCase(), charset };
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

/**
 * v2 requires `Content-Type: application/json` (the spec lists the header). v3 does not list it, so
 * v3 also reads a body sent without a Content-Type, or as text/plain (what fetch and many HTTP
 * libraries send for a string body), as JSON; any other declared type (a form, multipart, XML) is
 * refused. Both refuse a charset other than UTF-8 (JSON text is UTF-8, RFC 8259).
 */
export function checkContentType(version: ApiVersion, header: string | undefined): void {
  if (header === undefined || header.trim() === '') {
    if (version === 'v3') return;
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      'v2 requires the header "Content-Type: application/json"',
      {
        field: 'Content-Type',
      },
    );
  }
  const { mediaType, charset } = parseContentType(header);
  const accepted = isJsonMediaType(mediaType) || (version === 'v3' && mediaType === 'text/plain');
  if (!accepted) {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `unsupported Content-Type ${JSON.stringify(mediaType.slice(0, 80))}; send the body as JSON with "Content-Type: application/json"`,
      { field: 'Content-Type' },
    );
  }
  if (charset !== null && charset !== 'utf-8' && charset !== 'utf8') {
    throw new ApiError(
      415,
      'UNSUPPORTED_MEDIA_TYPE',
      `unsupported charset ${JSON.stringify(charset.slice(0, 40))}; JSON bodies must be UTF-8`,
      {
        field: 'Content-Type',
      },
    );
  }
}

export function bodyTooLarge(limit: number, field = 'Content-Length'): ApiError {
  return new ApiError(
    413,
    'BODY_TOO_LARGE',
    `the body is larger than this tenant's limit of ${limit} bytes`,
    {
      field,
    },
  );
}

/** A declared Content-Length over the tenant's limit is refused before a byte is read. */
export function checkContentLength(header: string | undefined, limit: number): void {
  if (header === undefined) return;
  const length = Number(header);
  if (Number.isFinite(length) && length > limit) throw bodyTooLarge(limit);
}

/** Passes bytes through and fails with a 413 once more than `limit` have gone by (chunked bodies). */
export class ByteLimit extends Transform {
  private seen = 0;
  constructor(private readonly limit: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.limit) {
      callback(bodyTooLarge(this.limit, 'body'));
      return;
    }
    callback(null, chunk);
  }
}

/**
 * Parses a body as JSON (every content type that passed {@link checkContentType}). The bytes are
 * decoded as strict UTF-8 first: a lenient decoder would put U+FFFD where they break and enrich a
 * transaction whose id the client never sent.
 */
export function parseJsonBody(body: Buffer): unknown {
  const decoded = decodeUtf8(body);
  if (!decoded.ok) {
    throw new ApiError(
      400,
      'INVALID_ENCODING',
      `the body is not valid UTF-8: the bytes at offset ${decoded.validBytes} are not a UTF-8 sequence`,
      { field: 'body' },
    );
  }
  const text = decoded.text;
  if (text.trim() === '') {
    throw new ApiError(400, 'NOT_JSON', 'the body is empty; send {"transactions": [...]}', { field: 'body' });
  }
  try {
    // Keys such as __proto__ become own properties; records are then rebuilt by zod with known keys
    // only, so nothing reaches a prototype.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ApiError(400, 'NOT_JSON', `the body is not valid JSON: ${(error as Error).message}`, {
      field: 'body',
    });
  }
}
