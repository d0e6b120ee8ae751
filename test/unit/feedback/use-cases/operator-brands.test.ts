import { describe, expect, it } from 'vitest';
import { applyCorrection } from '../../../../src/feedback/use-cases/apply-correction.js';
import {
  applyBrandAdd,
  applyBrandEdit,
  promoteBrand,
} from '../../../../src/feedback/use-cases/operator-brands.js';
import { correction, indexed, setup, SHOP, source, starbucks } from '../../../fakes/feedback-fixtures.js';

async function tenantBrand() {
  const env = setup([
    indexed('bank-a', 'a-1', 'alice', `POS ${SHOP}`),
    indexed('bank-a', 's-1', 'alice', 'STARBUCKS DUBAI MALL'),
    indexed('bank-b', 's-2', 'carol', 'STARBUCKS MARINA'),
  ]);
  const outcome = await applyCorrection(
    env.ctx,
    correction({
      transaction_id: 'a-1',
      customer_id: 'alice',
      new_brand: { name: 'Corner Bakery', name_ar: null, website: null },
    }),
    { actor: 'customer', source: source(1) },
  );
  if (outcome.status !== 'applied' || outcome.brandId === null) throw new Error('not applied');
  return { ...env, brandId: outcome.brandId };
}

describe('operator brand changes', () => {
  it('promotes a tenant’s brand to every tenant, with an audit row and a brand-change event', async () => {
    const { store, ctx, brandId } = await tenantBrand();
    expect(store.ownerOf(brandId)).toBe('bank-a');
    const outcome = await promoteBrand(ctx, brandId);
    expect(outcome).toMatchObject({ status: 'applied', action: 'brand-promote', brandId });
    expect(store.ownerOf(brandId)).toBeNull();
    expect(store.outbox.at(-1)).toMatchObject({ kind: 'brand-change', key: `brand/${brandId}` });
    expect(JSON.parse(String(store.outbox.at(-1)?.value))).toMatchObject({ change: 'promoted' });
    // Now another tenant may name it.
    const other = await applyCorrection(
      ctx,
      correction({
        tenant: 'bank-b',
        transaction_id: 's-2',
        customer_id: 'carol',
        scope: 'transaction',
        brand_id: brandId,
      }),
      { actor: 'customer', source: source(2) },
    );
    expect(other).toMatchObject({ status: 'applied' });
  });

  it('returns a rejection for a brand that is already every tenant’s, or unknown', async () => {
    const { ctx } = await tenantBrand();
    expect(await promoteBrand(ctx, starbucks.id)).toMatchObject({
      status: 'rejected',
      error: { code: 'INVALID_CORRECTION' },
    });
    expect(await promoteBrand(ctx, 5)).toMatchObject({
      status: 'rejected',
      error: { code: 'UNKNOWN_BRAND' },
    });
  });

  it('refuses aliases on a tenant’s brand: they would match it in every tenant’s texts', async () => {
    const { store, ctx, brandId } = await tenantBrand();
    const before = store.outbox.length;
    expect(await applyBrandEdit(ctx, brandId, {}, ['CORNER BAKERY'])).toMatchObject({
      status: 'rejected',
      error: { code: 'INVALID_CORRECTION', field: 'alias' },
    });
    expect(store.outbox).toHaveLength(before);
  });

  it('edits a brand and re-enriches every transaction indexed with it, in every tenant', async () => {
    const { store, ctx } = await tenantBrand();
    const outcome = await applyBrandEdit(ctx, starbucks.id, { name_ar: 'ستاربكس كوفي' });
    expect(outcome).toMatchObject({ status: 'applied', action: 'brand-edit', reenriched: 2 });
    const records = store.outbox.filter((m) => m.headers['x-reenrich-reason'] === 'brand-update');
    expect(records.map((m) => m.record?.brand_name_ar)).toEqual(['ستاربكس كوفي', 'ستاربكس كوفي']);
  });

  it('adds an operator brand of every tenant, matched by name; an unknown sub-category is returned as a rejection', async () => {
    const { store, ctx } = await tenantBrand();
    const base = {
      name: 'Desert Peak',
      name_ar: null,
      website: null,
      logo: null,
      aliases: [],
      mccs: [],
      countries: [],
      subscription: false,
    };
    const added = await applyBrandAdd(ctx, { ...base, sub_category_id: '13-4' });
    if (added.status !== 'applied' || added.brandId === null) throw new Error('not added');
    expect(store.ownerOf(added.brandId)).toBeNull();
    expect(store.brand(added.brandId)?.name_alias).toBe(true);
    expect(await applyBrandAdd(ctx, { ...base, sub_category_id: '99-9' })).toMatchObject({
      status: 'rejected',
      error: { code: 'UNKNOWN_SUB_CATEGORY' },
    });
  });
});
