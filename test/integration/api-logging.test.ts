// Guarantee: at info level the API logs one line per enrichment request with route, status, tenant,
// item count and duration, and no personal data: no raw description, merchant name, customer, account
// or card id, and no credential — for accepted and rejected requests alike.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { starbucks, startApi, type TestApi } from './api-harness.js';

describe('request logs', () => {
  let api: TestApi;
  const lines: string[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        callback();
      },
    });
    api = await startApi({ tenants: { acme: {} }, logger: pino({ level: 'info' }, sink) });
  });
  afterAll(async () => {
    await api?.close();
  });

  const PERSONAL = {
    raw_description: 'STARBUCKS PRIVATE-DESCRIPTOR-4711 DUBAI',
    merchant_name: 'STARBUCKS PRIVATE-MERCHANT',
    customer_id: 'PRIVATE-CUSTOMER-123',
    account_id: 'PRIVATE-ACCOUNT-456',
    card_id: 'PRIVATE-CARD-789',
  };

  it('logs route, status, tenant, items and duration, and nothing personal', async () => {
    const good = starbucks('log-1', PERSONAL);
    const bad = { ...starbucks('log-2', PERSONAL), location: { iso_country_cd: 'PRIVATE-COUNTRY' } };
    expect((await api.enrich('v3', { transactions: [good, good] })).status).toBe(200);
    expect((await api.enrich('v2', { transactions: [good, bad] })).status).toBe(400);
    expect((await api.enrich('v2', '{"transactions": [PRIVATE-BROKEN', { raw: true })).status).toBe(400);
    const wrong = { authorization: 'Bearer txe_v3_PRIVATESECRETPRIVATESECRETPRIVATES' };
    expect((await api.enrich('v3', { transactions: [good] }, { headers: wrong })).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 50));

    const requests = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(4);
    expect(requests[0]).toMatchObject({
      route: '/api/v3/transaction/enrich',
      status: 200,
      tenant: 'acme',
      items: 2,
    });
    expect(requests[1]).toMatchObject({
      route: '/api/v2/transaction/enrich',
      status: 400,
      tenant: 'acme',
      items: 2,
    });
    expect(requests[3]).toMatchObject({ status: 401, tenant: null });
    for (const r of requests) expect(typeof r.duration_ms).toBe('number');

    const all = lines.join('\n');
    expect(all).not.toMatch(/PRIVATE/);
    expect(all).not.toContain(api.secrets.acme?.v3);
    expect(all).not.toContain(api.secrets.acme?.v2);
  });
});
