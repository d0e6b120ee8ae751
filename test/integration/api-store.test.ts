// Guarantee: the HTTP API answers from the same brand store as the worker. With a PostgreSQL store,
// a tenant's merchant correction applied in the store makes the API enrich that merchant with the
// corrected brand for that tenant (after the snapshot refresh), and not for another tenant.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreSnapshotProvider } from '../../src/api/store-snapshot-provider.js';
import { loadConfig } from '../../src/config.js';
import { validateTransaction, type TransactionInput } from '../../src/contract/transaction.js';
import { loadReferenceData } from '../../src/data/load.js';
import { enrichBatch } from '../../src/engine/enrich.js';
import { applyContext } from '../../src/feedback/services.js';
import { applyCorrection } from '../../src/feedback/use-cases/apply-correction.js';
import { createLogger } from '../../src/observability/logger.js';
import type { Database } from '../../src/store/db.js';
import { upsertIndex } from '../../src/store/index-store.js';
import { StoreSnapshot } from '../../src/store/store-snapshot.js';
import { stackEnv, waitFor } from '../support/index.js';
import { startApi, type TestApi } from './api-harness.js';
import { freshStoreLocation, type StoreLocation } from './store-harness.js';

const SHOP = 'ZEPHYR LANE ROASTERS';

function txn(id: string): TransactionInput {
  return {
    raw_description: `POS ${SHOP} DUBAI`,
    amount: 31,
    transaction_id: id,
    customer_id: `cust-${id}`,
    account_id: '',
    card_id: '',
    merchant_name: SHOP,
    merchant_id: '',
    mcc: '',
    direction: 'DEBIT',
    is_transfer: false,
    iso_currency_cd: 'AED',
    occurred_at: '2026-10-01T09:00:00Z',
    location: { iso_country_cd: 'AE' },
  };
}

describe('HTTP API: brand store', () => {
  const env = stackEnv();
  const log = createLogger('silent');
  const files = loadReferenceData();
  let location: StoreLocation;
  let db: Database;
  let provider: StoreSnapshotProvider;
  let api: TestApi;

  beforeAll(async () => {
    location = freshStoreLocation('postgres', env.databaseUrl, 'apistore');
    const config = loadConfig({ ...process.env, ...location.env, SNAPSHOT_REFRESH_MS: '1000' });
    provider = new StoreSnapshotProvider(config, files, log);
    provider.start();
    await waitFor(async () => provider.readiness() === null, {
      timeoutMs: 60_000,
      description: 'API store snapshot',
    });
    db = await location.open();
    api = await startApi({ tenants: { acme: {}, other: {} }, snapshots: provider });
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    await provider?.close();
    await db?.close();
    await location?.cleanup();
  });

  it("enriches a corrected merchant with the tenant's corrected brand, and only for that tenant", async () => {
    const brandOf = async (tenant: string, id: string) => {
      const res = await api.enrich('v3', { transactions: [txn(id)] }, { tenant });
      expect(res.status).toBe(200);
      return (res.json as { data: { brand_name: string | null; sub_category_id: string }[] }).data[0];
    };
    // Unknown merchant at first: no brand.
    expect((await brandOf('acme', 'before'))?.brand_name).toBe('Zephyr Lane Roasters');

    // The worker indexed one of acme's transactions there; acme's customer reports the brand.
    const indexed = validateTransaction(txn('indexed'));
    if (!indexed.ok) throw new Error('fixture invalid');
    const snapshots = await StoreSnapshot.load(db, files, log);
    const transaction = { ...indexed.value, tenant: 'acme' };
    await upsertIndex(db, [{ transaction, enrichment: enrichBatch([transaction], snapshots.current())[0]! }]);
    const costa =
      files.brands.find((b) => b.slug === 'costa-coffee') ??
      files.brands.find((b) => b.sub_category_id === '4-3')!;
    const outcome = await applyCorrection(
      applyContext(
        { logoBaseUrl: undefined, globalCorrectionQuorum: 3, globalCorrectionMinTenants: 2 },
        log,
        db,
        snapshots,
      ),
      {
        correction_id: 'api-store-1',
        tenant: 'acme',
        transaction_id: 'indexed',
        customer_id: 'cust-indexed',
        brand_id: costa.id,
        new_brand: null,
        category_id: null,
        sub_category_id: null,
        scope: 'merchant',
        reported_at: Date.now(),
      },
      { actor: 'operator', source: 'api-store test' },
    );
    expect(outcome.status).toBe('applied');

    await waitFor(async () => (await brandOf('acme', `probe-${Date.now()}`))?.brand_name === costa.name, {
      timeoutMs: 15_000,
      description: 'the API serving the corrected brand',
    });
    expect((await brandOf('other', 'other-1'))?.brand_name).toBe('Zephyr Lane Roasters');
  });
});
