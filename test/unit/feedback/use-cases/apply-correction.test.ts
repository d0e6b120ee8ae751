import { describe, expect, it } from 'vitest';
import { applyCorrection } from '../../../../src/feedback/use-cases/apply-correction.js';
import type { Origin } from '../../../../src/feedback/outcome.js';
import { correction, indexed, setup, SHOP, source, spinneys } from '../../../fakes/feedback-fixtures.js';

const rows = [
  indexed('bank-a', 'a-1', 'alice', `POS ${SHOP}`, { merchant_id: 'M-7' }),
  indexed('bank-a', 'a-2', 'bob', `POS ${SHOP}`, { occurred_at: '2026-10-02T10:00:00Z' }),
  indexed('bank-a', 'a-3', 'dave', `POS ${SHOP}`, { occurred_at: '2026-10-03T10:00:00Z' }),
  indexed('bank-b', 'b-1', 'carol', `POS ${SHOP}`),
];
const customer = (offset: number): Origin => ({ actor: 'customer', source: source(offset) });
const operator: Origin = { actor: 'operator', source: 'test' };

describe('applyCorrection', () => {
  it('applies a merchant correction in one change: mappings, re-enriched records, events, audit', async () => {
    const { store, ctx, committed } = setup(rows);
    const c = correction({ transaction_id: 'a-1', customer_id: 'alice', brand_id: spinneys.id });
    const outcome = await applyCorrection(ctx, c, customer(1));
    expect(outcome).toMatchObject({ status: 'applied', action: 'tenant-mapping', reenriched: 3, events: 2 });
    expect(store.outbox.map((m) => m.kind)).toEqual([
      'brand-change',
      'brand-change',
      'reenriched',
      'reenriched',
      'reenriched',
    ]);
    expect(store.indexed('bank-b', 'b-1')?.revision).toBe(1);
    expect(store.corrections).toEqual([
      expect.objectContaining({ correction_id: 'c-1', status: 'applied', reenriched: 3 }),
    ]);
    expect(committed()).toBe(1);

    // A redelivery (same content, another time stamp) changes nothing.
    const again = await applyCorrection(ctx, { ...c, reported_at: 5 }, customer(9));
    expect(again).toEqual({ status: 'duplicate', correctionId: 'c-1' });
    expect(store.outbox).toHaveLength(5);
    expect(committed()).toBe(1);
  });

  it('dead-letters a re-used correction id with other content, once (M3)', async () => {
    const { store, ctx } = setup(rows);
    await applyCorrection(
      ctx,
      correction({ transaction_id: 'a-1', customer_id: 'alice', brand_id: spinneys.id }),
      customer(1),
    );
    const reused = correction({ transaction_id: 'a-1', customer_id: 'alice', sub_category_id: '13-4' });
    const outcome = await applyCorrection(ctx, reused, customer(2));
    expect(outcome).toMatchObject({
      status: 'rejected',
      correctionId: 'feedback:0:2',
      error: { code: 'CORRECTION_ID_REUSED', field: 'correction_id' },
    });
    expect(store.outbox.filter((m) => m.kind === 'dead-letter')).toHaveLength(1);
    // The same record read again: nothing more.
    expect(await applyCorrection(ctx, reused, customer(2))).toMatchObject({ status: 'duplicate' });
    expect(store.outbox.filter((m) => m.kind === 'dead-letter')).toHaveLength(1);
  });

  it('keeps the same correction id from two tenants as two corrections (M3)', async () => {
    const { store, ctx } = setup(rows);
    const a = await applyCorrection(
      ctx,
      correction({ transaction_id: 'a-1', customer_id: 'alice', sub_category_id: '13-4' }),
      customer(1),
    );
    const b = await applyCorrection(
      ctx,
      correction({ tenant: 'bank-b', transaction_id: 'b-1', customer_id: 'carol', sub_category_id: '13-4' }),
      customer(2),
    );
    expect([a.status, b.status]).toEqual(['applied', 'applied']);
    expect(store.corrections.map((r) => `${r.tenant}/${r.correction_id}`)).toEqual([
      'bank-a/c-1',
      'bank-b/c-1',
    ]);
  });

  it('dead-letters a correction from a customer who does not own the transaction (M2)', async () => {
    const { store, ctx } = setup(rows);
    const outcome = await applyCorrection(
      ctx,
      correction({ transaction_id: 'a-1', customer_id: 'mallory', brand_id: spinneys.id }),
      customer(1),
    );
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'NOT_TRANSACTION_OWNER' } });
    expect(store.mappings).toEqual([]);
    expect(store.outbox.map((m) => m.kind)).toEqual(['dead-letter']);
  });

  it('never changes a global mapping from one tenant’s reports, however many customers (H5)', async () => {
    const { store, ctx } = setup(rows);
    const global = { scope: 'global' as const, sub_category_id: '13-13' };
    for (const [i, [tx, who]] of [
      ['a-1', 'alice'],
      ['a-2', 'bob'],
      ['a-3', 'dave'],
    ].entries()) {
      const outcome = await applyCorrection(
        ctx,
        correction({ ...global, correction_id: `g-${i}`, transaction_id: tx, customer_id: who }),
        customer(i),
      );
      expect(outcome).toMatchObject({ status: 'proposed', tenants: 1, neededTenants: 2 });
    }
    expect(store.mappings).toEqual([]);
    // Invented customers do not count: they own no transaction.
    const forged = await applyCorrection(
      ctx,
      correction({ ...global, correction_id: 'g-x', transaction_id: 'a-1', customer_id: 'ghost' }),
      customer(8),
    );
    expect(forged).toMatchObject({ status: 'rejected', error: { code: 'NOT_TRANSACTION_OWNER' } });
    const other = await applyCorrection(
      ctx,
      correction({
        ...global,
        correction_id: 'g-b',
        tenant: 'bank-b',
        transaction_id: 'b-1',
        customer_id: 'carol',
      }),
      customer(9),
    );
    expect(other).toMatchObject({ status: 'applied', action: 'global-mapping', reenriched: 4 });
    expect(store.mappings.map((m) => m.tenant)).toEqual(['*']);
    expect(
      store.corrections
        .filter((r) => r.status === 'applied')
        .map((r) => r.correction_id)
        .sort(),
    ).toEqual(['g-0', 'g-1', 'g-2', 'g-b']);
  });

  it('creates a new brand for the tenant only; another tenant naming it gets its own (M1)', async () => {
    const { store, ctx } = setup(rows);
    const a = await applyCorrection(
      ctx,
      correction({
        transaction_id: 'a-1',
        customer_id: 'alice',
        new_brand: { name: 'Casino Royale', name_ar: 'شتيمة', website: 'https://phish.example' },
      }),
      customer(1),
    );
    const b = await applyCorrection(
      ctx,
      correction({
        tenant: 'bank-b',
        transaction_id: 'b-1',
        customer_id: 'carol',
        new_brand: { name: 'Casino Royale', name_ar: null, website: null },
      }),
      customer(2),
    );
    if (a.status !== 'applied' || b.status !== 'applied') throw new Error('not applied');
    expect(a.brandId).not.toBe(b.brandId);
    const bRecord = store.outbox.find((m) => m.kind === 'reenriched' && m.record?.transaction_id === 'b-1');
    expect(bRecord?.record).toMatchObject({ brand_id: b.brandId, brand_url: null, brand_name_ar: null });
  });

  it('returns an operator’s rejection and writes nothing', async () => {
    const { store, ctx, committed } = setup(rows);
    const outcome = await applyCorrection(
      ctx,
      correction({ transaction_id: 'nope', brand_id: spinneys.id }),
      operator,
    );
    expect(outcome).toMatchObject({ status: 'rejected', error: { code: 'UNKNOWN_TRANSACTION' } });
    expect(store.corrections).toEqual([]);
    expect(store.outbox).toEqual([]);
    expect(committed()).toBe(0);
  });

  it('lets an operator correct any transaction of a tenant, global included, at once', async () => {
    const { store, ctx } = setup(rows);
    const outcome = await applyCorrection(
      ctx,
      correction({ transaction_id: 'a-1', customer_id: 'operator', scope: 'global', brand_id: spinneys.id }),
      operator,
    );
    expect(outcome).toMatchObject({ status: 'applied', action: 'global-mapping' });
    expect(store.mappings.map((m) => m.tenant)).toEqual(['*']);
  });

  it('rolls everything back when a write fails', async () => {
    const { store, ctx } = setup(rows);
    store.failOn = (method) => {
      if (method === 'enqueue') throw new Error('disk full');
    };
    await expect(
      applyCorrection(
        ctx,
        correction({ transaction_id: 'a-1', customer_id: 'alice', brand_id: spinneys.id }),
        customer(1),
      ),
    ).rejects.toThrow('disk full');
    expect(store.mappings).toEqual([]);
    expect(store.corrections).toEqual([]);
    expect(store.indexed('bank-a', 'a-1')?.revision).toBe(1);
  });
});
