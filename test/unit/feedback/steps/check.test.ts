import { describe, expect, it } from 'vitest';
import { check } from '../../../../src/feedback/steps/check.js';
import { correction, setup, spinneys, starbucks } from '../../../fakes/feedback-fixtures.js';

const tenantBrand = {
  ...starbucks,
  id: 100_000_123,
  slug: 'corner-bakery-100000123',
  name: 'Corner Bakery',
  aliases: ['x'],
};

async function run(c: ReturnType<typeof correction>, actor: 'customer' | 'operator' = 'customer') {
  const { store } = setup();
  store.addTenantBrand(tenantBrand, 'bank-b');
  return store.change(async (tx) => check(tx, c, actor, (await tx.view()).snapshot));
}

describe('check step', () => {
  it('passes catalog brands and sub-categories in their category', async () => {
    expect(
      await run(correction({ brand_id: spinneys.id, sub_category_id: '4-2', category_id: '4' })),
    ).toBeNull();
  });

  it('names an unknown brand id', async () => {
    expect(await run(correction({ brand_id: 987_654 }))).toMatchObject({
      code: 'UNKNOWN_BRAND',
      field: 'brand_id',
    });
  });

  it('hides another tenant’s brand: for this tenant it is not in the store (M1)', async () => {
    const error = await run(correction({ tenant: 'bank-a', brand_id: tenantBrand.id }));
    expect(error).toMatchObject({
      code: 'UNKNOWN_BRAND',
      message: `brand ${tenantBrand.id} is not in the brand store`,
    });
  });

  it('lets the owning tenant use its brand, but not for every tenant', async () => {
    expect(await run(correction({ tenant: 'bank-b', brand_id: tenantBrand.id }))).toBeNull();
    expect(
      await run(correction({ tenant: 'bank-b', brand_id: tenantBrand.id, scope: 'global' })),
    ).toMatchObject({
      code: 'INVALID_CORRECTION',
      field: 'brand_id',
    });
  });

  it('refuses a customer’s new brand for every tenant; an operator may make one', async () => {
    const c = correction({
      scope: 'global',
      new_brand: { name: 'Corner Bakery', name_ar: null, website: null },
    });
    expect(await run(c)).toMatchObject({ code: 'INVALID_CORRECTION', field: 'new_brand' });
    expect(await run(c, 'operator')).toBeNull();
  });

  it('names an unknown sub-category, and one that is not in the given category', async () => {
    expect(await run(correction({ sub_category_id: '99-1' }))).toMatchObject({
      code: 'UNKNOWN_SUB_CATEGORY',
      field: 'sub_category_id',
    });
    expect(await run(correction({ category_id: '4', sub_category_id: '6-1' }))).toMatchObject({
      code: 'UNKNOWN_SUB_CATEGORY',
      field: 'category_id',
    });
  });
});
