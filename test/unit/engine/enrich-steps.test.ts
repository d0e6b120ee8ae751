// Guarantee: enriching in steps (prepareBatch, historyKeys, finishBatch) gives what enrichBatch
// gives, and the history of the keys historyKeys names is all the history recurring detection can
// use: a customer's history at other merchants, or at other tenants, changes no result.
import { beforeAll, describe, expect, it } from 'vitest';
import { validateTransaction } from '../../../src/contract/transaction.js';
import { loadReferenceData } from '../../../src/data/load.js';
import { enrichBatch, finishBatch, historyKeys, prepareBatch } from '../../../src/engine/enrich.js';
import { buildSnapshot, type Snapshot } from '../../../src/engine/snapshot.js';
import type { EngineTransaction, HistoryEntry } from '../../../src/engine/types.js';
import { generateSamples } from '../../../src/samples/generate.js';
import { txn } from './fixtures.js';

let snapshot: Snapshot;
beforeAll(() => {
  snapshot = buildSnapshot(loadReferenceData());
});

/** Sample transactions of few customers (so they repeat), at two tenants, some without a tenant. */
function samples(count: number, seed: number): EngineTransaction[] {
  return [...generateSamples(loadReferenceData(), count, { seed, customers: 40 })].map((s, i) => {
    const v = validateTransaction(s.value);
    if (!v.ok) throw new Error('sample failed validation');
    return { ...v.value, ...(i % 5 === 4 ? {} : { tenant: i % 2 === 0 ? 'bank-a' : 'bank-b' }) };
  });
}

/** Every earlier transaction of `earlier` as history, as a store would have indexed it. */
function historyOf(earlier: readonly EngineTransaction[]): HistoryEntry[] {
  return enrichBatch(earlier, snapshot).map((e, i) => ({
    tenant: e.tenant,
    customer_id: e.customer_id,
    brand_id: e.brand?.id ?? null,
    merchant_key: e.merchant_key,
    occurred_at: (earlier[i] as EngineTransaction).occurred_at,
    amount: (earlier[i] as EngineTransaction).amount,
  }));
}

describe('enriching in steps', () => {
  it('gives what enrichBatch gives, with and without history', () => {
    const batch = samples(600, 71);
    const history = historyOf(samples(3_000, 72));
    expect(finishBatch(prepareBatch(batch, snapshot), history)).toEqual(
      enrichBatch(batch, snapshot, history),
    );
    expect(finishBatch(prepareBatch(batch, snapshot))).toEqual(enrichBatch(batch, snapshot));
  });

  it('needs only the history of the keys it names', () => {
    const batch = samples(600, 73);
    const history = historyOf(samples(6_000, 74));
    const prepared = prepareBatch(batch, snapshot);
    const keys = new Set(historyKeys(prepared).map((k) => `${k.tenant}|${k.customer_id}|${k.merchant_key}`));
    const named = history.filter((h) => keys.has(`${h.tenant}|${h.customer_id}|${h.merchant_key}`));
    expect(named.length).toBeGreaterThan(0);
    expect(named.length).toBeLessThan(history.length);
    const full = enrichBatch(batch, snapshot, history);
    expect(finishBatch(prepared, named)).toEqual(full);
    // The history made a difference somewhere, so the comparison above is not vacuous.
    expect(full.some((e) => e.reasons.recurring.startsWith('history:'))).toBe(true);
  });

  it('names each tenant, customer and merchant once, with the default tenant spelled out, and no empty merchant', () => {
    const netflix = { raw_description: 'NETFLIX.COM', merchant_name: 'Netflix' };
    const batch = [
      txn({ ...netflix, customer_id: 'c-1', tenant: 'bank-a' }),
      txn({ ...netflix, customer_id: 'c-1', tenant: 'bank-a', transaction_id: 't-2' }),
      txn({ ...netflix, customer_id: 'c-1', tenant: 'bank-b' }),
      txn({ ...netflix, customer_id: 'c-1' }),
      txn({
        raw_description: 'TRANSFER TO SAVINGS',
        merchant_name: '',
        is_transfer: true,
        customer_id: 'c-2',
      }),
    ];
    const prepared = prepareBatch(batch, snapshot);
    const merchantKeys = finishBatch(prepared).map((e) => e.merchant_key);
    const brandKey = merchantKeys[0] as string;
    expect(brandKey).toMatch(/^brand:\d+$/);
    const expected = [
      { tenant: 'bank-a', customer_id: 'c-1', merchant_key: brandKey },
      { tenant: 'bank-b', customer_id: 'c-1', merchant_key: brandKey },
      { tenant: 'default', customer_id: 'c-1', merchant_key: brandKey },
    ];
    if (merchantKeys[4] !== '')
      expected.push({ tenant: 'default', customer_id: 'c-2', merchant_key: merchantKeys[4] as string });
    expect(historyKeys(prepared)).toEqual(expected);
    expect(historyKeys(prepareBatch([], snapshot))).toEqual([]);
  });
});
