import { describe, expect, it } from 'vitest';
import { loadReferenceData } from '../../../../src/data/load.js';
import { buildSnapshot } from '../../../../src/engine/snapshot.js';
import { reenrich, reenrichAffected, toEngineTransaction } from '../../../../src/feedback/steps/reenrich.js';
import type { IndexRow } from '../../../../src/store/index-store.js';
import { ikea as fixtureIkea, indexed, setup } from '../../../fakes/feedback-fixtures.js';

const data = loadReferenceData();
const snapshot = buildSnapshot(data);
const starbucks = data.brands.find((b) => b.slug === 'starbucks')!;
const ikea = data.brands.find((b) => b.slug === 'ikea')!;

function row(over: Partial<IndexRow> = {}): IndexRow {
  return {
    tenant: 'bank-a',
    transaction_id: 'tx-1',
    customer_id: 'cust-1',
    merchant_key: `brand:${starbucks.id}`,
    merchant_id: '',
    brand_id: starbucks.id,
    category_id: '4',
    sub_category_id: '4-3',
    recurring: false,
    revision: 1,
    raw_description: 'STARBUCKS DUBAI MALL',
    merchant_name: '',
    mcc: '',
    amount: 21,
    direction: 'DEBIT',
    is_transfer: false,
    is_self_transaction: null,
    iso_currency_cd: 'AED',
    occurred_at: '2026-10-01T10:00:00Z',
    country: 'AE',
    ref_id: null,
    override_brand_id: null,
    override_sub_category_id: null,
    ...over,
  };
}

const options = {
  logoBaseUrl: '',
  now: 1_760_000_000_000,
  reason: 'correction:transaction',
  correctionId: 'c-1',
} as const;

describe('re-enrichment', () => {
  it('runs the engine on the index fields only (no account, card or card name)', () => {
    const t = toEngineTransaction(row());
    expect(t).toMatchObject({ account_id: '', card_id: '', card_name: null, tenant: 'bank-a' });
  });

  it('emits nothing for a mapping change that changes nothing, everything for a brand edit', () => {
    expect(reenrich([row()], snapshot, [], { ...options, emit: 'changed' }).messages).toHaveLength(0);
    const all = reenrich([row()], snapshot, [], { ...options, emit: 'all' });
    expect(all.messages).toHaveLength(1);
    expect(all.messages[0]?.record).toMatchObject({
      brand_id: starbucks.id,
      revision: 2,
      enriched_at: options.now,
    });
    expect(all.updates[0]).toMatchObject({ revision: 2, brand_id: starbucks.id });
  });

  it('applies a transaction override: the brand, and its default sub-category unless one is given', () => {
    const [byBrand] = reenrich([row({ override_brand_id: ikea.id })], snapshot, [], {
      ...options,
      emit: 'changed',
    }).messages;
    expect(byBrand?.record).toMatchObject({
      brand_id: ikea.id,
      brand_name: ikea.name,
      sub_category_id: ikea.sub_category_id,
    });
    const [bySub] = reenrich([row({ override_sub_category_id: '18-1' })], snapshot, [], {
      ...options,
      emit: 'changed',
    }).messages;
    expect(bySub?.record).toMatchObject({
      brand_id: starbucks.id,
      category_id: '18',
      sub_category_id: '18-1',
    });
    expect(bySub?.key).toBe('cust-1');
    expect(bySub?.headers).toMatchObject({
      'tenant-id': 'bank-a',
      'x-correction-id': 'c-1',
      'x-previous-revision': '1',
    });
  });
});

describe('reenrichAffected', () => {
  it('writes revision + 1 to the index in the change and returns the records for the outbox', async () => {
    const { store } = setup([indexed('bank-a', 'tx-1', 'cust-1', 'STARBUCKS DUBAI MALL')]);
    const messages = await store.change(async (tx) => {
      const row = (await tx.findIndexed('bank-a', 'tx-1'))!;
      const view = await tx.view();
      return reenrichAffected(tx, [{ ...row, override_brand_id: fixtureIkea.id }], view.snapshot, {
        ...options,
        emit: 'changed',
      });
    });
    expect(messages.map((m) => m.record?.brand_id)).toEqual([fixtureIkea.id]);
    expect(store.indexed('bank-a', 'tx-1')).toMatchObject({ brand_id: fixtureIkea.id, revision: 2 });
  });
});
