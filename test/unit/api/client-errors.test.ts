import { describe, expect, it } from 'vitest';
import {
  clientApiError,
  clientErrorResponse,
  clientErrorVersion,
  type ClientError,
} from '../../../src/api/client-errors.js';

function nodeError(code: string, rawPacket?: Buffer): ClientError {
  return Object.assign(new Error(code), { code, rawPacket });
}

describe('client errors (refused by Node before routing)', () => {
  it('maps header overflow to 431, a timeout to 408 and any other parse error to 400', () => {
    expect(clientApiError(nodeError('HPE_HEADER_OVERFLOW'))).toMatchObject({
      statusCode: 431,
      code: 'HEADERS_TOO_LARGE',
    });
    expect(clientApiError(nodeError('ERR_HTTP_REQUEST_TIMEOUT'))).toMatchObject({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
    });
    const malformed = clientApiError(nodeError('HPE_INVALID_METHOD'));
    expect(malformed).toMatchObject({ statusCode: 400, code: 'MALFORMED_REQUEST' });
    expect(malformed.message).toContain('HPE_INVALID_METHOD');
  });

  it('answers in the v3 envelope only when the request line names a v3 path', () => {
    expect(clientErrorVersion(Buffer.from('POST /api/v3/transaction/enrich HTTP/1.1\r\n'))).toBe('v3');
    expect(clientErrorVersion(Buffer.from('POST /api/v2/transaction/enrich HTTP/1.1\r\n'))).toBe('v2');
    expect(clientErrorVersion(Buffer.from('X-Header: /api/v3/\r\n'))).toBe('v2');
    expect(clientErrorVersion(undefined)).toBe('v2');
    expect(clientErrorVersion({ type: 'Buffer', data: [] })).toBe('v2');
  });

  it('writes a whole HTTP response: status, JSON envelope, length, security headers, close', () => {
    const response = clientErrorResponse(nodeError('HPE_HEADER_OVERFLOW'));
    const [head = '', body = ''] = response.split('\r\n\r\n');
    const lines = head.split('\r\n');
    expect(lines[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(lines).toContain('x-content-type-options: nosniff');
    expect(lines).toContain('cache-control: no-store');
    expect(lines).toContain('connection: close');
    expect(lines).toContain(`content-length: ${Buffer.byteLength(body)}`);
    expect(JSON.parse(body)).toMatchObject({
      error: { code: 'HEADERS_TOO_LARGE', errors: [{ code: 'HEADERS_TOO_LARGE', field: 'headers' }] },
    });
  });
});
