// Guarantee: POST /api/v2/transaction/enrich with a valid Api-key answers 200 {"transactions":[…]}
// with one v2 record per request item, in request order, shaped by the tenant's flags: ref_id or (when
// configured) transaction_id, the Arabic fields only when Arabic is enabled, a relative brand_logo
// whose full location is the tenant's logo base URL + path, and a stable per-tenant global_tx_id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enrichV2 } from '../../src/api/enrich.js';
import { v2SuccessSchema, v3SuccessSchema } from '../../src/api/schemas.js';
import { TenantDirectory } from '../../src/api/tenant-directory.js';
import { readTenantsFile } from '../../src/api/tenants.js';
import { globalTransactionId } from '../../src/engine/records.js';
import { sampleTransactions, starbucks, startApi, testSnapshot, type TestApi } from './api-harness.js';

const ARABIC_KEYS = ['brand_name_ar', 'category_name_ar', 'sub_category_name_ar'];
const LOGO_BASE = 'https://cdn.example.com/logos/';

describe('v2 enrichment over HTTP', () => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi({
      tenants: {
        plain: { logoBaseUrl: LOGO_BASE },
        arabic: { arabicEnabled: true },
        txid: { returnTransactionId: true },
        both: { arabicEnabled: true, returnTransactionId: true },
      },
    });
  });
  afterAll(async () => {
    await api?.close();
  });

  const enrich = async (tenant: string, transactions: unknown[]) => {
    const { status, json } = await api.enrich('v2', { transactions }, { tenant });
    expect(status).toBe(200);
    return v2SuccessSchema.parse(json).transactions;
  };

  it('returns one record per item, in request order (50 distinct ids)', async () => {
    const transactions = sampleTransactions(50, 3);
    const records = await enrich('plain', transactions);
    expect(records.map((r) => r.ref_id)).toEqual(transactions.map((t) => t.transaction_id));
  });

  it('answers exactly what enrichV2() computes for the same body and tenant', async () => {
    const transactions = sampleTransactions(20, 8);
    const { json } = await api.enrich('v2', { transactions }, { tenant: 'both' });
    const tenant = new TenantDirectory(readTenantsFile(api.tenantsFile).file).authenticate(
      'v2',
      api.secrets.both?.v2 ?? '',
    );
    expect(json).toEqual(enrichV2({ transactions }, tenant!, testSnapshot()));
  });

  it('without flags: ref_id, no transaction_id, no Arabic fields, no brand_id or recurring', async () => {
    const [record] = await enrich('plain', [starbucks('p-1', { ref_id: 'ref-77' })]);
    expect(record?.ref_id).toBe('ref-77');
    expect(record).not.toHaveProperty('transaction_id');
    for (const key of [...ARABIC_KEYS, 'brand_id', 'recurring']) expect(record).not.toHaveProperty(key);
  });

  it('with arabic_enabled: the three Arabic fields', async () => {
    const [record] = await enrich('arabic', [starbucks()]);
    for (const key of ARABIC_KEYS)
      expect(String(record?.[key as keyof typeof record])).toMatch(/\p{Script=Arabic}/u);
    expect(record?.ref_id).toBe('sb-1');
  });

  it('with return_transaction_id: transaction_id in place of ref_id (even when ref_id was sent)', async () => {
    const [record] = await enrich('txid', [starbucks('t-9', { ref_id: 'ignored-ref' })]);
    expect(record?.transaction_id).toBe('t-9');
    expect(record).not.toHaveProperty('ref_id');
    expect(record).not.toHaveProperty('brand_name_ar');
    const [both] = await enrich('both', [starbucks('t-10')]);
    expect(both?.transaction_id).toBe('t-10');
    expect(both).toHaveProperty('brand_name_ar');
  });

  it("returns the catalog's relative brand_logo; v3 gives the logo route under the tenant's base URL", async () => {
    const [record] = await enrich('plain', [starbucks()]);
    expect(record?.brand_logo).toMatch(/^[^/:][^:]*\.png$/);
    const v3 = await api.enrich('v3', { transactions: [starbucks()] }, { tenant: 'plain' });
    const v3Record = v3SuccessSchema.parse(v3.json).data[0];
    expect(v3Record?.brand_logo?.startsWith(`${LOGO_BASE}logos/${v3Record.brand_id}?v=`)).toBe(true);
  });

  it('gives a global_tx_id that is stable per tenant and transaction and differs between tenants', async () => {
    const [first] = await enrich('plain', [starbucks('g-1')]);
    const [again] = await enrich('plain', [starbucks('g-1')]);
    const [other] = await enrich('arabic', [starbucks('g-1')]);
    expect(first?.global_tx_id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(again?.global_tx_id).toBe(first?.global_tx_id);
    expect(first?.global_tx_id).toBe(globalTransactionId('plain', 'g-1'));
    expect(other?.global_tx_id).not.toBe(first?.global_tx_id);
  });

  it('accepts Content-Type with a UTF-8 charset parameter', async () => {
    const { status } = await api.enrich(
      'v2',
      { transactions: [starbucks()] },
      {
        tenant: 'plain',
        headers: {
          'api-key': api.secrets.plain?.v2 ?? '',
          'content-type': 'application/json; charset=UTF-8',
        },
      },
    );
    expect(status).toBe(200);
  });
});
