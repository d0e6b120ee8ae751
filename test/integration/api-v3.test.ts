// Guarantee: POST /api/v3/transaction/enrich with a valid bearer token answers 200
// {"success":true,"message":"","data":[…]} with exactly one v3 record per request item, in request
// order, exactly as enrichV3() computes it, with logo URLs (GET /logos/{brand_id}) under the tenant's
// logo base URL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrichV3 } from '../../src/api/enrich.js';
import { v3RecordSchema, v3SuccessSchema } from '../../src/api/schemas.js';
import { TenantDirectory } from '../../src/api/tenant-directory.js';
import { readTenantsFile } from '../../src/api/tenants.js';
import { sampleTransactions, starbucks, startApi, testSnapshot, type TestApi } from './api-harness.js';

const V3_KEYS = Object.keys(v3RecordSchema.shape).sort();

describe('v3 enrichment over HTTP', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({
      defaultLogoBaseUrl: 'https://default-cdn.example.net/img',
      tenants: {
        acme: { logoBaseUrl: 'https://cdn.example.com/logos/' },
        fallback: {},
        arabicOff: { arabicEnabled: false, logoBaseUrl: 'https://cdn.example.com/x' },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  it('returns one record per item, in request order (50 distinct ids)', async () => {
    const transactions = sampleTransactions(50);
    const { status, json } = await api.enrich('v3', { transactions });
    expect(status).toBe(200);
    const body = v3SuccessSchema.parse(json);
    expect(body.success).toBe(true);
    expect(body.message).toBe('');
    expect(body.data).toHaveLength(50);
    expect(body.data.map((r) => r.ref_id)).toEqual(transactions.map((t) => t.transaction_id));
    for (const record of body.data) expect(Object.keys(record).sort()).toEqual(V3_KEYS);
  });

  it('answers exactly what enrichV3() computes for the same body and tenant', async () => {
    const transactions = sampleTransactions(20, 5);
    const { json } = await api.enrich('v3', { transactions });
    const tenant = new TenantDirectory(readTenantsFile(api.tenantsFile).file, {
      defaultLogoBaseUrl: 'https://default-cdn.example.net/img',
    }).authenticate('v3', api.secrets.acme?.v3 ?? '');
    expect(tenant?.id).toBe('acme');
    expect(json).toEqual(enrichV3({ transactions }, tenant!, testSnapshot()));
  });

  it("echoes the request's ref_id, else its transaction_id", async () => {
    const { json } = await api.enrich('v3', {
      transactions: [starbucks('a-1', { ref_id: 'client-ref-9' }), starbucks('a-2')],
    });
    const body = v3SuccessSchema.parse(json);
    expect(body.data.map((r) => r.ref_id)).toEqual(['client-ref-9', 'a-2']);
  });

  it("prefixes logo paths with the tenant's logo base URL, else LOGO_BASE_URL", async () => {
    const own = v3SuccessSchema.parse((await api.enrich('v3', { transactions: [starbucks()] })).json);
    const fallback = v3SuccessSchema.parse(
      (await api.enrich('v3', { transactions: [starbucks()] }, { tenant: 'fallback' })).json,
    );
    const record = own.data[0]!;
    expect(record.brand_name).toBe('Starbucks');
    expect(record.brand_logo).toMatch(
      new RegExp(`^https://cdn\\.example\\.com/logos/logos/${record.brand_id}\\?v=[0-9a-f]{8}$`),
    );
    const path = record.brand_logo!.slice('https://cdn.example.com/logos/'.length);
    expect(fallback.data[0]?.brand_logo).toBe(`https://default-cdn.example.net/img/${path}`);
  });

  it('always returns the Arabic names (arabic_enabled applies to v2 only)', async () => {
    const body = v3SuccessSchema.parse(
      (await api.enrich('v3', { transactions: [starbucks()] }, { tenant: 'arabicOff' })).json,
    );
    const record = body.data[0]!;
    expect(record.brand_name_ar).toMatch(/\p{Script=Arabic}/u);
    expect(record.category_name_ar).toMatch(/\p{Script=Arabic}/u);
    expect(record.sub_category_name_ar).toMatch(/\p{Script=Arabic}/u);
  });

  it('reads the body as JSON without a Content-Type, or with text/plain', async () => {
    const token = api.secrets.acme?.v3 ?? '';
    const body = JSON.stringify({ transactions: [starbucks()] });
    const none = await fetch(`${api.url}/api/v3/transaction/enrich?response-type=consumer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: new TextEncoder().encode(body),
    });
    expect(none.status).toBe(200);
    const text = await fetch(`${api.url}/api/v3/transaction/enrich?response-type=consumer`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body, // fetch sends text/plain;charset=UTF-8
    });
    expect(text.status).toBe(200);
    expect(v3SuccessSchema.parse(await text.json()).data).toHaveLength(1);
  });
});
