// Guarantee: a request Node's HTTP parser refuses before any route sees it — a malformed request
// line, headers over Node's limit — is answered in the API's documented error envelope (400
// MALFORMED_REQUEST, 431 HEADERS_TOO_LARGE), with the security headers, never with Node's bare reply,
// and the connection is closed; the server keeps answering other clients.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTimeout } from '../support/index.js';
import { starbucks, startApi, type TestApi } from './api-harness.js';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
}

/** Writes `request` on a fresh connection and reads until the server closes it. */
async function rawRequest(url: string, request: string | Buffer, what: string): Promise<RawReply> {
  const { hostname, port } = new URL(url);
  const text = await withTimeout(
    new Promise<string>((resolve, reject) => {
      const socket = connect({ host: hostname, port: Number(port) });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      socket.write(request);
    }),
    15_000,
    `the server to answer and close the connection (${what})`,
  );
  const [head = '', body = ''] = text.split('\r\n\r\n', 2);
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // left as text: the assertions show it
  }
  return { status: Number(statusLine.split(' ')[1]), headers, body: parsed };
}

describe('Node-level errors in the error envelope', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({ tenants: { acme: {} } });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('answers a malformed request line with 400 MALFORMED_REQUEST in the v2 envelope', async () => {
    const reply = await rawRequest(api.url, 'THIS IS NOT HTTP\r\n\r\n', 'malformed request line');
    expect(reply.status).toBe(400);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers.connection).toBe('close');
    expect(reply.body).toEqual({
      error: {
        code: 'MALFORMED_REQUEST',
        message: expect.stringContaining('not valid HTTP/1.1') as string,
        errors: [
          {
            code: 'MALFORMED_REQUEST',
            index: null,
            field: '',
            message: expect.stringContaining('not valid HTTP/1.1') as string,
          },
        ],
      },
    });
  });

  it('answers a malformed header with 400 MALFORMED_REQUEST', async () => {
    const reply = await rawRequest(
      api.url,
      'GET /healthz HTTP/1.1\r\nHost: x\r\nbad header line\r\n\r\n',
      'header without a colon',
    );
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: { code: 'MALFORMED_REQUEST' } });
  });

  it('answers 20 KB of headers with 431 HEADERS_TOO_LARGE, in the v3 envelope on a v3 path', async () => {
    const big = `X-Padding: ${'a'.repeat(20 * 1024)}\r\n`;
    const v2 = await rawRequest(
      api.url,
      `POST /api/v2/transaction/enrich?response-type=consumer HTTP/1.1\r\nHost: x\r\n${big}\r\n`,
      '20 KB header on v2',
    );
    expect(v2.status).toBe(431);
    expect(v2.headers['x-content-type-options']).toBe('nosniff');
    expect(v2.body).toMatchObject({
      error: { code: 'HEADERS_TOO_LARGE', errors: [{ code: 'HEADERS_TOO_LARGE', field: 'headers' }] },
    });
    const v3 = await rawRequest(
      api.url,
      `POST /api/v3/transaction/enrich?response-type=consumer HTTP/1.1\r\nHost: x\r\n${big}\r\n`,
      '20 KB header on v3',
    );
    expect(v3.status).toBe(431);
    expect(v3.body).toMatchObject({
      success: false,
      message: expect.stringContaining('headers are larger') as string,
      errors: [{ code: 'HEADERS_TOO_LARGE', index: null, field: 'headers' }],
    });
  });

  it('keeps serving other clients', async () => {
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    expect((await api.enrich('v3', { transactions: [starbucks()] })).status).toBe(200);
  });
});
