import { describe, expect, it } from 'vitest';
import { change } from '../../../../src/feedback/steps/change.js';
import { locate } from '../../../../src/feedback/steps/locate.js';
import { correction, indexed, setup, SHOP, spinneys } from '../../../fakes/feedback-fixtures.js';

const rows = [
  indexed('bank-a', 'a-1', 'cust-1', `POS ${SHOP}`, { merchant_id: 'M-7' }),
  indexed('bank-a', 'a-2', 'cust-2', `PURCHASE ${SHOP} 0042`, { occurred_at: '2026-10-02T10:00:00Z' }),
  indexed('bank-a', 'a-3', 'cust-3', 'ZKT OUTLET 12', {
    merchant_id: 'M-7',
    occurred_at: '2026-10-03T10:00:00Z',
  }),
  indexed('bank-a', 'a-4', 'cust-1', 'IKEA DUBAI FESTIVAL CITY'),
  indexed('bank-b', 'b-1', 'cust-9', `POS ${SHOP}`),
];

async function run(
  c: ReturnType<typeof correction>,
  action: 'transaction' | 'tenant-mapping' | 'global-mapping',
) {
  const { store } = setup(rows);
  const changed = await store.change(async (tx) => {
    const snapshot = (await tx.view()).snapshot;
    const located = await locate(tx, c, snapshot);
    if (!located.ok) throw new Error(located.error.message);
    return change(tx, c, { action }, located.value, c.brand_id, null, snapshot);
  });
  return { store, changed, ids: changed.affected.map((r) => `${r.tenant}/${r.transaction_id}`) };
}

describe('change step', () => {
  it('overrides one transaction only', async () => {
    const { store, changed, ids } = await run(
      correction({ transaction_id: 'a-1', brand_id: spinneys.id, scope: 'transaction' }),
      'transaction',
    );
    expect(ids).toEqual(['bank-a/a-1']);
    expect(changed.mappings).toEqual([]);
    expect(store.indexed('bank-a', 'a-1')?.override_brand_id).toBe(spinneys.id);
  });

  it('maps the tenant’s merchant by text and merchant id, and finds that tenant’s transactions only', async () => {
    const { changed, ids } = await run(
      correction({ transaction_id: 'a-1', brand_id: spinneys.id }),
      'tenant-mapping',
    );
    expect(changed.mappings.map((m) => [m.tenant, m.kind])).toEqual([
      ['bank-a', 'merchant_key'],
      ['bank-a', 'merchant_id'],
    ]);
    expect(ids).toEqual(['bank-a/a-1', 'bank-a/a-2', 'bank-a/a-3']);
    expect(changed.reason).toBe('correction:merchant');
  });

  it('maps the merchant for every tenant on a global decision', async () => {
    const { changed, ids } = await run(
      correction({ transaction_id: 'a-1', brand_id: spinneys.id, scope: 'global' }),
      'global-mapping',
    );
    expect(changed.mappings.map((m) => [m.tenant, m.kind])).toEqual([['*', 'merchant_key']]);
    expect(ids).toEqual(['bank-a/a-1', 'bank-b/b-1', 'bank-a/a-2']);
  });
});
