/**
 * Step 1, check: does the correction name things this tenant may use? A brand id must be in the
 * store and be every tenant's or this tenant's own (another tenant's brand is "not in the brand
 * store" for this one: it must not even learn that it exists); a global correction needs a brand
 * every tenant has, and a customer cannot propose a new brand for every tenant (new brands belong to
 * the tenant that named them until an operator promotes them). Sub-categories must be in the
 * taxonomy, and in the category when one is given.
 */
import type { Snapshot } from '../../engine/snapshot.js';
import { dataError, type DataError } from '../../errors/catalog.js';
import type { ChangeTx } from '../../store/change-store.js';
import type { Correction } from '../correction.js';
import type { Actor } from './trust.js';

export async function check(
  tx: Pick<ChangeTx, 'brandOwner'>,
  c: Correction,
  actor: Actor,
  snapshot: Snapshot,
): Promise<DataError | null> {
  if (c.brand_id !== null) {
    const ownership = snapshot.brandsById.has(c.brand_id) ? await tx.brandOwner(c.brand_id) : null;
    if (ownership === null || (ownership.owner !== null && ownership.owner !== c.tenant)) {
      return dataError('UNKNOWN_BRAND', 'brand_id', `brand ${c.brand_id} is not in the brand store`);
    }
    if (c.scope === 'global' && ownership.owner !== null) {
      return dataError(
        'INVALID_CORRECTION',
        'brand_id',
        `brand ${c.brand_id} belongs to tenant ${ownership.owner} only: a global correction needs a brand of every tenant (an operator can promote it)`,
      );
    }
  }
  if (c.new_brand !== null && c.scope === 'global' && actor === 'customer') {
    return dataError(
      'INVALID_CORRECTION',
      'new_brand',
      'a new brand belongs to the tenant that names it: use scope "merchant" or "transaction" (an operator can promote it)',
    );
  }
  return checkSubCategory(c, snapshot);
}

function checkSubCategory(c: Correction, snapshot: Snapshot): DataError | null {
  if (c.sub_category_id === null) return null;
  const category = snapshot.taxonomy.get(c.sub_category_id)?.category.id;
  if (category === undefined) {
    return dataError(
      'UNKNOWN_SUB_CATEGORY',
      'sub_category_id',
      `sub-category ${c.sub_category_id} is not in the taxonomy`,
    );
  }
  if (c.category_id !== null && c.category_id !== category) {
    return dataError(
      'UNKNOWN_SUB_CATEGORY',
      'category_id',
      `sub-category ${c.sub_category_id} belongs to category ${category}, not ${c.category_id}`,
    );
  }
  return null;
}
