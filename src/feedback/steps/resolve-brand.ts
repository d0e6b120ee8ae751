/**
 * Step 4, resolve the brand: the catalog brand the correction names, or the new brand it describes.
 * A new brand belongs to the correction's tenant (an operator's global correction makes one for
 * every tenant): it is reused when that tenant named it before, never shared with another tenant
 * that happens to use the same name, and it is reachable only through that tenant's mappings (no
 * name matching) until an operator promotes it.
 */
import type { ChangeTx } from '../../store/change-store.js';
import type { Correction } from '../correction.js';
import type { Located } from './locate.js';
import type { Actor } from './trust.js';

export interface ResolvedBrand {
  /** null when the correction changes only the sub-category. */
  readonly brandId: number | null;
  /** A brand row was created (the catalog changed: the snapshot must be rebuilt, an event sent). */
  readonly created: boolean;
}

export async function resolveBrand(
  tx: Pick<ChangeTx, 'findTenantBrandByName' | 'insertBrand'>,
  c: Correction,
  actor: Actor,
  located: Located,
): Promise<ResolvedBrand> {
  if (c.new_brand === null) return { brandId: c.brand_id, created: false };
  const owner = actor === 'operator' && c.scope === 'global' ? null : c.tenant;
  const existing = await tx.findTenantBrandByName(owner, c.new_brand.name);
  if (existing !== null) return { brandId: existing, created: false };
  const brandId = await tx.insertBrand({
    name: c.new_brand.name,
    name_ar: c.new_brand.name_ar,
    website: c.new_brand.website,
    logo: null,
    sub_category_id: c.sub_category_id ?? located.row.sub_category_id,
    aliases: [],
    mccs: [],
    countries: [],
    subscription: false,
    origin: actor === 'operator' ? 'operator' : 'feedback',
    owner_tenant: owner,
  });
  return { brandId, created: true };
}
