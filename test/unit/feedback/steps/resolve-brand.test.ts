import { describe, expect, it } from 'vitest';
import { resolveBrand } from '../../../../src/feedback/steps/resolve-brand.js';
import type { Located } from '../../../../src/feedback/steps/locate.js';
import { correction, indexed, setup, SHOP, spinneys } from '../../../fakes/feedback-fixtures.js';

const row = indexed('bank-a', 'tx-1', 'cust-1', `POS ${SHOP}`);
const located: Located = { row, textKey: 'zahrat', merchantId: '' };
const newBrand = { name: 'Corner Bakery', name_ar: 'مخبز الزاوية', website: 'https://corner.example' };

describe('resolve-brand step', () => {
  it('keeps a catalog brand id as it is', async () => {
    const { store } = setup([row]);
    const resolved = await store.change((tx) =>
      resolveBrand(tx, correction({ brand_id: spinneys.id }), 'customer', located),
    );
    expect(resolved).toEqual({ brandId: spinneys.id, created: false });
  });

  it('creates a new brand owned by the tenant, reachable by mappings only, and reuses it for that tenant', async () => {
    const { store } = setup([row]);
    const first = await store.change((tx) =>
      resolveBrand(tx, correction({ new_brand: newBrand }), 'customer', located),
    );
    expect(first.created).toBe(true);
    expect(store.ownerOf(first.brandId!)).toBe('bank-a');
    expect(store.brand(first.brandId!)).toMatchObject({
      name: 'Corner Bakery',
      name_alias: false,
      aliases: [],
    });
    const again = await store.change((tx) =>
      resolveBrand(
        tx,
        correction({ new_brand: { ...newBrand, name: 'CORNER BAKERY' } }),
        'customer',
        located,
      ),
    );
    expect(again).toEqual({ brandId: first.brandId, created: false });
  });

  it('never reuses another tenant’s brand of the same name: that tenant’s website stays its own (M1)', async () => {
    const { store } = setup([row]);
    const a = await store.change((tx) =>
      resolveBrand(tx, correction({ new_brand: newBrand }), 'customer', located),
    );
    const b = await store.change((tx) =>
      resolveBrand(
        tx,
        correction({ tenant: 'bank-b', new_brand: { name: 'Corner Bakery', name_ar: null, website: null } }),
        'customer',
        located,
      ),
    );
    expect(b.created).toBe(true);
    expect(b.brandId).not.toBe(a.brandId);
    expect(store.ownerOf(b.brandId!)).toBe('bank-b');
    expect(store.brand(b.brandId!)?.website).toBeUndefined();
  });

  it('gives the new brand the correction’s sub-category, else the transaction’s', async () => {
    const { store } = setup([row]);
    const withSub = await store.change((tx) =>
      resolveBrand(tx, correction({ new_brand: newBrand, sub_category_id: '4-2' }), 'customer', located),
    );
    expect(store.brand(withSub.brandId!)?.sub_category_id).toBe('4-2');
    const without = await store.change((tx) =>
      resolveBrand(tx, correction({ tenant: 'bank-c', new_brand: newBrand }), 'customer', located),
    );
    expect(store.brand(without.brandId!)?.sub_category_id).toBe(row.sub_category_id);
  });

  it('makes an operator’s global new brand every tenant’s', async () => {
    const { store } = setup([row]);
    const resolved = await store.change((tx) =>
      resolveBrand(tx, correction({ scope: 'global', new_brand: newBrand }), 'operator', located),
    );
    expect(store.ownerOf(resolved.brandId!)).toBeNull();
  });
});
