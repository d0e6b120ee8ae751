// Guarantee: every rejected enrichment request gets its documented status (400, 401, 404/405, 413,
// 415, 429, 503) and a JSON body in its version's error envelope — v3 {"success":false,"message",
// "errors"}, v2 {"error":{"code","message","errors"}} — whose errors name what was wrong (item index
// and field path, header or parameter).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { v2ErrorSchema, v3ErrorSchema, type ErrorItem } from '../../src/api/schemas.js';
import { DefaultSnapshotProvider, unavailableSnapshotProvider } from '../../src/api/snapshot-provider.js';
import { loadReferenceData } from '../../src/data/load.js';
import { sampleTransactions, starbucks, startApi, type TestApi } from './api-harness.js';

type Version = 'v2' | 'v3';
type Response = { status: number; headers: Headers; json: unknown };

/** Checks status, envelope and code; returns the error items. */
function expectError(version: Version, response: Response, status: number, code: string): ErrorItem[] {
  expect(response.status, JSON.stringify(response.json)).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  if (version === 'v3') {
    const body = v3ErrorSchema.strict().parse(response.json);
    expect(body.success).toBe(false);
    expect(body.message).not.toBe('');
    expect(body.errors.map((e) => e.code)).toContain(code);
    return body.errors;
  }
  const body = v2ErrorSchema.strict().parse(response.json);
  expect(body.error.code).toBe(code);
  expect(body.error.message).not.toBe('');
  return body.error.errors;
}

describe.each(['v3', 'v2'] as const)('%s errors', (version) => {
  let api: TestApi;
  let clock = 0;
  const other: Version = version === 'v3' ? 'v2' : 'v3';
  const credentialHeader = version === 'v3' ? 'Authorization' : 'Api-key';
  const headersFor = (tenant: string, extra: Record<string, string> = {}): Record<string, string> => {
    const secret = api.secrets[tenant];
    return {
      'content-type': 'application/json',
      ...(version === 'v3' ? { authorization: `Bearer ${secret?.v3}` } : { 'api-key': secret?.v2 ?? '' }),
      ...extra,
    };
  };

  beforeAll(async () => {
    api = await startApi({
      now: () => clock,
      tenants: {
        acme: {},
        small: { limits: { max_body_bytes: 2048, max_batch: 5 } },
        slow: { limits: { rate_limit_per_minute: 3 } },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  describe('400', () => {
    it('malformed JSON', async () => {
      const response = await api.enrich(version, '{"transactions": [', { raw: true });
      const [error] = expectError(version, response, 400, 'NOT_JSON');
      expect(error?.field).toBe('body');
      expect(error?.message).toMatch(/not valid JSON/);
    });

    it('an empty body', async () => {
      expectError(version, await api.enrich(version, '', { raw: true }), 400, 'NOT_JSON');
    });

    it('a body that is not an object', async () => {
      const [error] = expectError(version, await api.enrich(version, [starbucks()]), 400, 'INVALID_BODY');
      expect(error?.field).toBe('body');
    });

    it('a missing transactions', async () => {
      const [error] = expectError(version, await api.enrich(version, { items: [] }), 400, 'INVALID_BODY');
      expect(error?.field).toBe('transactions');
      expect(error?.message).toMatch(/required/);
    });

    it('transactions that is not an array', async () => {
      const [error] = expectError(
        version,
        await api.enrich(version, { transactions: {} }),
        400,
        'INVALID_BODY',
      );
      expect(error?.field).toBe('transactions');
    });

    it('an empty transactions array', async () => {
      const [error] = expectError(
        version,
        await api.enrich(version, { transactions: [] }),
        400,
        'EMPTY_ENVELOPE',
      );
      expect(error?.field).toBe('transactions');
    });

    it('missing and invalid fields: every one, with its item index and field path', async () => {
      const transactions: unknown[] = sampleTransactions(6);
      const bad = (i: number) => transactions[i] as Record<string, unknown>;
      bad(3).location = { iso_country_cd: 'ARE' };
      delete bad(5).amount;
      bad(5).direction = 'SIDEWAYS';
      transactions[4] = 'not a record';
      const errors = expectError(version, await api.enrich(version, { transactions }), 400, 'INVALID_FIELD');
      expect(errors).toEqual(
        expect.arrayContaining([
          expect.objectContaining({
            index: 3,
            field: 'transactions[3].location.iso_country_cd',
            code: 'INVALID_FIELD',
          }),
          expect.objectContaining({ index: 4, field: 'transactions[4]' }),
          expect.objectContaining({ index: 5, field: 'transactions[5].amount', message: 'is required' }),
          expect.objectContaining({ index: 5, field: 'transactions[5].direction' }),
        ]),
      );
      expect(errors).toHaveLength(4);
      expect(errors.every((e) => e.message.length > 0)).toBe(true);
    });

    it('a missing response-type', async () => {
      const [error] = expectError(
        version,
        await api.enrich(version, { transactions: [starbucks()] }, { query: '' }),
        400,
        'INVALID_RESPONSE_TYPE',
      );
      expect(error?.field).toBe('response-type');
    });

    it('a response-type other than consumer', async () => {
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { query: '?response-type=business' },
      );
      const [error] = expectError(version, response, 400, 'INVALID_RESPONSE_TYPE');
      expect(error?.message).toMatch(/business/);
      expect(error?.message).toMatch(/consumer/);
    });
  });

  describe('401', () => {
    it('a missing credential', async () => {
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { headers: { 'content-type': 'application/json' } },
      );
      const [error] = expectError(version, response, 401, 'MISSING_CREDENTIAL');
      expect(error?.field).toBe(credentialHeader);
      expect(response.headers.get('www-authenticate')).toBeTruthy();
    });

    it('an unknown credential', async () => {
      const fake: Record<string, string> =
        version === 'v3'
          ? { authorization: 'Bearer txe_v3_' + 'x'.repeat(32) }
          : { 'api-key': 'txe_v2_' + 'x'.repeat(32) };
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { headers: { 'content-type': 'application/json', ...fake } },
      );
      const [error] = expectError(version, response, 401, 'INVALID_CREDENTIAL');
      expect(error?.message).toMatch(/unknown or revoked/);
    });

    it("the other version's header: the message says which header this version takes", async () => {
      const secret = api.secrets.acme;
      const mixed: Record<string, string> =
        version === 'v3' ? { 'api-key': secret?.v2 ?? '' } : { authorization: `Bearer ${secret?.v3}` };
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { headers: { 'content-type': 'application/json', ...mixed } },
      );
      const [error] = expectError(version, response, 401, 'WRONG_CREDENTIAL_HEADER');
      expect(error?.message).toMatch(version === 'v3' ? /Authorization: Bearer/ : /Api-key/);
      expect(error?.message).toContain(`is for ${other}`);
    });

    it("the other version's secret in this version's header", async () => {
      const secret = api.secrets.acme;
      const swapped: Record<string, string> =
        version === 'v3' ? { authorization: `Bearer ${secret?.v2}` } : { 'api-key': secret?.v3 ?? '' };
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { headers: { 'content-type': 'application/json', ...swapped } },
      );
      const [error] = expectError(version, response, 401, 'WRONG_CREDENTIAL_HEADER');
      expect(error?.message).toContain(`that is a ${other}`);
    });

    it('comes before every other check (no credential and a bad response-type)', async () => {
      const response = await api.enrich(version, 'nonsense', {
        raw: true,
        query: '?response-type=x',
        headers: {},
      });
      expectError(version, response, 401, 'MISSING_CREDENTIAL');
    });

    if (version === 'v3') {
      it('an Authorization header that is not "Bearer <token>"', async () => {
        const response = await api.enrich(
          version,
          { transactions: [starbucks()] },
          { headers: { authorization: 'Basic dXNlcjpwYXNz' } },
        );
        const [error] = expectError(version, response, 401, 'INVALID_CREDENTIAL');
        expect(error?.message).toMatch(/Bearer <token>/);
      });
    }
  });

  describe('415', () => {
    it('a non-JSON Content-Type', async () => {
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        { headers: headersFor('acme', { 'content-type': 'application/xml' }) },
      );
      const [error] = expectError(version, response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(error?.field).toBe('Content-Type');
    });

    it('a charset other than UTF-8', async () => {
      const response = await api.enrich(
        version,
        { transactions: [starbucks()] },
        {
          headers: headersFor('acme', { 'content-type': 'application/json; charset=iso-8859-1' }),
        },
      );
      expectError(version, response, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    if (version === 'v2') {
      it('a missing Content-Type (v2 requires application/json)', async () => {
        const response = await fetch(`${api.url}/api/v2/transaction/enrich?response-type=consumer`, {
          method: 'POST',
          headers: { 'api-key': api.secrets.acme?.v2 ?? '' },
          body: new TextEncoder().encode(JSON.stringify({ transactions: [starbucks()] })),
        });
        const json: unknown = await response.json();
        const [error] = expectError(
          'v2',
          { status: response.status, headers: response.headers, json },
          415,
          'UNSUPPORTED_MEDIA_TYPE',
        );
        expect(error?.message).toMatch(/Content-Type: application\/json/);
      });

      it('text/plain', async () => {
        const response = await api.enrich(
          'v2',
          { transactions: [starbucks()] },
          { headers: headersFor('acme', { 'content-type': 'text/plain' }) },
        );
        expectError('v2', response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      });
    }
  });

  describe('413', () => {
    it("a body over the tenant's max_body_bytes", async () => {
      const transactions = sampleTransactions(5);
      const response = await api.enrich(
        version,
        { transactions, padding: 'x'.repeat(2048) },
        { tenant: 'small' },
      );
      const [error] = expectError(version, response, 413, 'BODY_TOO_LARGE');
      expect(error?.message).toContain('2048 bytes');
    });

    it('a body over the default 1 MiB', async () => {
      const response = await api.enrich(version, {
        transactions: [starbucks()],
        padding: 'x'.repeat(1024 * 1024),
      });
      const [error] = expectError(version, response, 413, 'BODY_TOO_LARGE');
      expect(error?.message).toContain('1048576 bytes');
    });

    it('a body without Content-Length is counted as it arrives', async () => {
      const chunk = new TextEncoder().encode(
        JSON.stringify({ transactions: [starbucks()] }).padEnd(1024, ' '),
      );
      let sent = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent++ < 4) controller.enqueue(chunk);
          else controller.close();
        },
      });
      const response = await fetch(`${api.url}/api/${version}/transaction/enrich?response-type=consumer`, {
        method: 'POST',
        headers: headersFor('small'),
        body: stream,
        duplex: 'half',
      } as RequestInit);
      const json: unknown = await response.json();
      expectError(
        version,
        { status: response.status, headers: response.headers, json },
        413,
        'BODY_TOO_LARGE',
      );
    });

    it("more transactions than the tenant's max_batch", async () => {
      const response = await api.enrich(
        version,
        { transactions: sampleTransactions(6).map((_, i) => ({ i })) },
        { tenant: 'small' },
      );
      const [error] = expectError(version, response, 413, 'BATCH_TOO_LARGE');
      expect(error?.message).toMatch(/6, the limit is 5/);
    });

    it('more than the default 1,000 transactions', async () => {
      const transactions = Array.from({ length: 1001 }, () => ({}));
      const [error] = expectError(
        version,
        await api.enrich(version, { transactions }),
        413,
        'BATCH_TOO_LARGE',
      );
      expect(error?.message).toMatch(/1001, the limit is 1000/);
    });
  });

  describe('429', () => {
    it("over the tenant's rate, with Retry-After; the bucket refills", async () => {
      clock = 1_000_000;
      const body = { transactions: [starbucks()] };
      for (let i = 0; i < 3; i++)
        expect((await api.enrich(version, body, { tenant: 'slow' })).status).toBe(200);
      const limited = await api.enrich(version, body, { tenant: 'slow' });
      const [error] = expectError(version, limited, 429, 'RATE_LIMITED');
      expect(error?.message).toMatch(/3 requests per minute/);
      // 3 per minute: one token every 20 s.
      expect(limited.headers.get('retry-after')).toBe('20');
      // Other tenants have buckets of their own.
      expect((await api.enrich(version, body, { tenant: 'acme' })).status).toBe(200);
      clock += 20_000;
      expect((await api.enrich(version, body, { tenant: 'slow' })).status).toBe(200);
      expect((await api.enrich(version, body, { tenant: 'slow' })).status).toBe(429);
      clock += 60_000;
    });
  });

  describe('404 and 405', () => {
    it('an unknown route', async () => {
      const response = await fetch(`${api.url}/api/${version}/transaction/unknown`, { method: 'POST' });
      expectError(
        version,
        { status: response.status, headers: response.headers, json: await response.json() },
        404,
        'NOT_FOUND',
      );
    });

    it('GET on the enrichment route', async () => {
      const response = await fetch(`${api.url}/api/${version}/transaction/enrich?response-type=consumer`);
      expect(response.headers.get('allow')).toBe('POST');
      expectError(
        version,
        { status: response.status, headers: response.headers, json: await response.json() },
        405,
        'METHOD_NOT_ALLOWED',
      );
    });
  });
});

describe('503 when the brand store is unavailable', () => {
  let api: TestApi;
  let failing: DefaultSnapshotProvider;

  beforeAll(async () => {
    failing = new DefaultSnapshotProvider({
      referenceData: loadReferenceData(),
      loadLearnedMappings: async () => {
        throw new Error('connect ECONNREFUSED 127.0.0.1:1');
      },
      retryInitialDelayMs: 60_000,
    });
    expect(await failing.start()).toBe(false);
    api = await startApi({ tenants: { acme: {} }, snapshots: failing });
  });
  afterAll(async () => {
    failing?.close();
    await api?.close();
  });

  it.each(['v3', 'v2'] as const)('%s answers 503 with Retry-After and its envelope', async (version) => {
    const response = await api.enrich(version, { transactions: [starbucks()] });
    const [error] = expectError(version, response, 503, 'STORE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    // The cause (addresses, driver errors) stays out of client responses.
    expect(error?.message).not.toContain('ECONNREFUSED');
  });

  it('still authenticates first', async () => {
    const response = await api.enrich('v3', { transactions: [starbucks()] }, { headers: {} });
    expectError('v3', response, 401, 'MISSING_CREDENTIAL');
  });

  it('/readyz is 503 with the reason; /healthz stays 200', async () => {
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      status: 'not ready',
      reason: expect.stringMatching(/brand store unavailable/),
    });
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
  });

  it('an injected provider that reports not ready gives the same 503', async () => {
    const down = await startApi({
      tenants: { acme: {} },
      snapshots: unavailableSnapshotProvider('store down'),
    });
    try {
      expectError('v2', await down.enrich('v2', { transactions: [starbucks()] }), 503, 'STORE_UNAVAILABLE');
    } finally {
      await down.close();
    }
  });
});
