// Guarantee: before a body is read, response-type must be exactly "consumer", v2 must declare
// application/json, v3 may omit the Content-Type or send text/plain but nothing else non-JSON, both
// refuse a non-UTF-8 charset, and a declared length over the tenant's limit is a 413 — each an ApiError
// naming the offending parameter or header.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/api/errors.js';
import {
  ByteLimit,
  checkContentLength,
  checkContentType,
  checkResponseType,
  parseContentType,
  parseJsonBody,
} from '../../../src/api/request-checks.js';

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('did not throw');
}

describe('checkResponseType', () => {
  it('accepts consumer only', () => {
    expect(() => checkResponseType({ 'response-type': 'consumer' })).not.toThrow();
    for (const query of [
      {},
      { 'response-type': '' },
      { 'response-type': 'Consumer' },
      { 'response-type': ['consumer', 'consumer'] },
    ]) {
      const error = thrown(() => checkResponseType(query));
      expect(error.statusCode).toBe(400);
      expect(error.code).toBe('INVALID_RESPONSE_TYPE');
      expect(error.errors[0]?.field).toBe('response-type');
    }
  });
});

describe('checkContentType', () => {
  it('parses media type and charset', () => {
    expect(parseContentType('Application/JSON; Charset="UTF-8"')).toEqual({
      mediaType: 'application/json',
      charset: 'utf-8',
    });
  });

  it.each([
    ['v2', undefined, 415],
    ['v2', 'application/json', null],
    ['v2', 'application/json; charset=utf-8', null],
    ['v2', 'application/vnd.api+json', null],
    ['v2', 'text/plain', 415],
    ['v2', 'application/x-www-form-urlencoded', 415],
    ['v2', 'application/json; charset=latin1', 415],
    ['v3', undefined, null],
    ['v3', 'application/json', null],
    ['v3', 'text/plain;charset=UTF-8', null],
    ['v3', 'multipart/form-data; boundary=x', 415],
    ['v3', 'application/xml', 415],
    ['v3', 'text/plain; charset=utf-16', 415],
  ] as const)('%s %s → %s', (version, header, status) => {
    if (status === null) {
      expect(() => checkContentType(version, header)).not.toThrow();
    } else {
      const error = thrown(() => checkContentType(version, header));
      expect(error.statusCode).toBe(status);
      expect(error.errors[0]?.field).toBe('Content-Type');
    }
  });
});

describe('body size', () => {
  it('refuses a declared Content-Length over the limit', () => {
    expect(() => checkContentLength('1024', 1024)).not.toThrow();
    expect(() => checkContentLength(undefined, 1024)).not.toThrow();
    const error = thrown(() => checkContentLength('1025', 1024));
    expect(error.statusCode).toBe(413);
    expect(error.code).toBe('BODY_TOO_LARGE');
  });

  it('counts a streamed body and fails past the limit', async () => {
    const pass = Readable.from([Buffer.alloc(500), Buffer.alloc(500)]).pipe(new ByteLimit(1000));
    let total = 0;
    for await (const chunk of pass) total += (chunk as Buffer).length;
    expect(total).toBe(1000);
    const over = Readable.from([Buffer.alloc(600), Buffer.alloc(600)]).pipe(new ByteLimit(1000));
    await expect(async () => {
      for await (const _chunk of over) void _chunk;
    }).rejects.toMatchObject({ statusCode: 413, code: 'BODY_TOO_LARGE' });
  });
});

describe('parseJsonBody', () => {
  it('parses JSON and names what is wrong otherwise', () => {
    expect(parseJsonBody(Buffer.from('{"transactions":[]}'))).toEqual({ transactions: [] });
    expect(thrown(() => parseJsonBody(Buffer.from('  '))).message).toMatch(/empty/);
    const error = thrown(() => parseJsonBody(Buffer.from('{"transactions":')));
    expect(error).toMatchObject({ statusCode: 400, code: 'NOT_JSON' });
    expect(error.message).toMatch(/^the body is not valid JSON: /);
  });

  it('refuses bytes that are not UTF-8 with INVALID_ENCODING, never replacing them', () => {
    const body = Buffer.concat([Buffer.from('{"transactions":[{"transaction_id":"a'), Buffer.from([0xff])]);
    const error = thrown(() => parseJsonBody(Buffer.concat([body, Buffer.from('"}]}')])));
    expect(error).toMatchObject({ statusCode: 400, code: 'INVALID_ENCODING' });
    expect(error.errors[0]).toMatchObject({ code: 'INVALID_ENCODING', field: 'body' });
    expect(error.message).toContain(`offset ${body.length - 1}`);
  });
});
