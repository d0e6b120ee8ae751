/**
 * Requests Node's HTTP parser refuses before fastify sees them — a malformed request line or header
 * (400), headers over Node's limit (431), a request not received in time (408) — answered in the
 * API's error envelope rather than Node's or fastify's bare reply, so a client parses every error
 * the same way. Written straight to the socket (there is no request object), then the connection is
 * closed: after a parse error the rest of the stream cannot be trusted.
 */
import { STATUS_CODES, maxHeaderSize } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../observability/logger.js';
import type { ApiVersion } from './credentials.js';
import { ApiError, errorBody } from './errors.js';
import { NO_STORE, NOSNIFF } from './security-headers.js';

/** The error Node passes to 'clientError': its code, and the bytes it failed on when it has them. */
export interface ClientError extends Error {
  readonly code?: string;
  /** A Buffer at run time (fastify's types say otherwise). */
  readonly rawPacket?: unknown;
}

export function clientApiError(error: ClientError): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        431,
        'HEADERS_TOO_LARGE',
        `the request line and headers are larger than the server accepts (${maxHeaderSize} bytes)`,
        { field: 'headers' },
      );
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'REQUEST_TIMEOUT', 'the whole request did not arrive in time', {
        field: '',
      });
    default:
      return new ApiError(
        400,
        'MALFORMED_REQUEST',
        `the request is not valid HTTP/1.1${error.code ? ` (${error.code})` : ''}`,
        { field: '' },
      );
  }
}

/**
 * The envelope of a request that could not be parsed: v3's when its request line, if it got that
 * far, names a v3 path; otherwise v2's (the envelope of every non-v3 route).
 */
export function clientErrorVersion(rawPacket: unknown): ApiVersion {
  if (!Buffer.isBuffer(rawPacket)) return 'v2';
  const line = rawPacket.subarray(0, 300).toString('latin1');
  return /^[A-Z]+ \/api\/v3\//.test(line) ? 'v3' : 'v2';
}

/** The whole HTTP response for a refused request, as bytes for the socket. */
export function clientErrorResponse(error: ClientError): string {
  const apiError = clientApiError(error);
  const body = JSON.stringify(errorBody(clientErrorVersion(error.rawPacket), apiError));
  return [
    `HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    `x-content-type-options: ${NOSNIFF}`,
    `cache-control: ${NO_STORE}`,
    'connection: close',
    '',
    body,
  ].join('\r\n');
}

/** fastify's `clientErrorHandler`. */
export function handleClientError(logger: Logger, error: ClientError, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  logger.debug({ code: error.code }, 'client error');
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Closed once the answer is flushed; a client that never reads it does not keep the socket.
  const timer = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS);
  timer.unref();
  socket.end(clientErrorResponse(error), () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

const CLOSE_AFTER_MS = 5_000;
